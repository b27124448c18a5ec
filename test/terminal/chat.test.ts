// `hammer-box chat` and `hammer-box plan` as a person uses them: the real binary in a tmux terminal,
// keys sent and the screen read, a real engine and git, the scripted model server. One conversation
// reads a file, runs the failing test, is refused an edit in read-only mode, is stopped with Ctrl-C
// mid-answer and goes on, fixes the bug, shows the diff, runs the tests and delivers a branch; then
// `--continue` shows the last exchange on a sandbox rebuilt with the same change; then `plan` writes
// plan.md and `run --plan` reaches stable.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationSchema } from '../../src/state/conversation.js';
import { unsealedBody } from '../../src/state/state-mac.js';
import { createFixtureRepo, tempDir, type FixtureRepo } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, trajectoryScript, type ModelServer } from '../helpers/model-server.js';
import { TEST_STATE_SECRET } from '../helpers/state-key.js';
import { openTerminal, type Terminal } from '../helpers/tmux.js';
import { readState, runIdsIn } from '../integration/run-support.js';

const CLI = resolve('dist/cli/main.js');
const CALC = 'def total(items):\n    result = 0\n    for item in items:\n        result -= item\n    return result\n';
const TEST =
  'from calc import total\n\n\ndef test_total():\n    assert total([1, 2, 3]) == 6\n\n\ndef test_empty():\n    assert total([]) == 0\n';

let server: ModelServer;
let repo: FixtureRepo;
let dir: string;
let env: Record<string, string>;
let config: string;

beforeAll(async () => {
  await toolchainImage('python');
  server = await startModelServer({ script: [] });
  repo = await createFixtureRepo({ files: { 'calc.py': CALC, 'test_calc.py': TEST } });
  dir = await tempDir('hb-terminal-');
  config = join(dir, 'hammer.toml');
  await writeFile(config, '[model]\nretries = 0\n');
  env = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: dir,
    LANG: 'C.UTF-8',
    TERM: 'tmux-256color',
    HAMMER_STATE_KEY: TEST_STATE_SECRET,
    ...(process.env['DOCKER_HOST'] ? { DOCKER_HOST: process.env['DOCKER_HOST'] } : {}),
  };
});
afterAll(async () => {
  await server?.close();
  await repo?.cleanup();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const model = (): string[] => [
  '--provider',
  'ollama',
  '--llm-url',
  server.url,
  '--model',
  'test-model',
  '--config',
  config,
];
const chat = (args: string[] = [], extraEnv: Record<string, string> = {}): Promise<Terminal> =>
  openTerminal(['node', CLI, 'chat', '--repo', repo.path, ...model(), ...args], {
    cwd: dir,
    env: { ...env, ...extraEnv },
    dir,
  });

/** Wait for the prompt to come back after what is on the screen now. */
async function prompt(t: Terminal, from: number, mode: 'chat' | 'plan' = 'chat'): Promise<string> {
  return t.waitFor(new RegExp(`\\n${mode}›$`), { from });
}

async function conversationFiles(): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  return (await readdir(join(repo.path, '.hammer', 'chats'))).filter((n) => n.endsWith('.json'));
}

describe('hammer-box chat in a terminal', () => {
  it('a conversation: read, run the failing test, read-only refusal, Ctrl-C, fix, /diff, /test, /branch; then --continue', async () => {
    const t = await chat();
    try {
      let from = (await t.waitFor(/chat›$/, { timeoutMs: 120_000 })).length;

      // it reads the file and runs the failing test, then answers in words
      server.enqueue(
        ...trajectoryScript(
          [{ edit: { command: 'view', path: 'calc.py' } }, { bash: 'python3 -m pytest -q test_calc.py' }],
          'native',
        ),
        { answer: 'test_total fails because total() subtracts: line 4 says `result -= item`.' },
      );
      await t.type('why does test_total fail?');
      let screen = await prompt(t, from);
      expect(screen).toContain('▸ edit view calc.py');
      expect(screen).toContain('▸ bash python3 -m pytest -q test_calc.py');
      expect(screen).toMatch(/✗ exit 1/);
      expect(screen).toContain('1 failed, 1 passed');
      expect(screen).toContain('line 4 says `result -= item`');
      expect(screen).toMatch(/── [\d,]+ in · [\d,]+ out · /);
      from += screen.length;

      // read-only mode: the edit is refused, the command's change undone
      await t.type('/plan');
      from += (await prompt(t, from, 'plan')).length;
      server.enqueue(
        ...trajectoryScript(
          [
            { edit: { command: 'str_replace', path: 'calc.py', old_str: 'result -= item', new_str: 'result += item' } },
            { bash: "sed -i 's/-=/+=/' calc.py && echo junk > junk.txt && grep -c '+=' calc.py" },
          ],
          'native',
        ),
        { answer: 'In read-only mode I can only describe it: change `-=` to `+=` on line 4.' },
      );
      await t.type('fix it');
      screen = await prompt(t, from, 'plan');
      expect(screen).toMatch(/⊘ refused: read-only mode/);
      expect(screen).toContain('(read-only mode: what this command changed in the files was undone)');
      from += screen.length;
      await t.type('/diff');
      screen = await prompt(t, from, 'plan');
      expect(screen).toContain('no change: the work tree is at the base');
      from += screen.length;
      await t.type('/code');
      from += (await prompt(t, from)).length;

      // Ctrl-C while the answer streams: the answer stops, the session stays
      server.enqueue({ answer: `${'Let me explain at length. '.repeat(40)}`, chunkSize: 4, delayMs: 50 });
      await t.type('explain it at length');
      await t.waitFor(/Let me explain at length\. Let me/, { from });
      await t.press('C-c');
      screen = await prompt(t, from);
      expect(screen).toContain('^C stopping');
      expect(screen).toMatch(/── .* · stopped/);
      from += screen.length;

      // code mode: the fix, then the diff and the tests
      server.enqueue(
        ...trajectoryScript(
          [
            { edit: { command: 'str_replace', path: 'calc.py', old_str: 'result -= item', new_str: 'result += item' } },
            { bash: 'python3 -m pytest -q' },
          ],
          'native',
        ),
        { answer: 'Fixed: total() adds now, and the tests pass.' },
      );
      await t.type('fix it now');
      screen = await prompt(t, from);
      expect(screen).toContain('▸ edit str_replace calc.py');
      expect(screen).toContain('2 passed');
      expect(screen).toContain('Fixed: total() adds now');
      from += screen.length;
      // the request after the stopped answer told the model so
      const body = server.chatRequests().at(-3)!.body as { messages: { content: string }[] };
      expect(JSON.stringify(body.messages)).toContain('The person stopped your previous answer');

      await t.type('/diff');
      screen = await prompt(t, from);
      expect(screen).toContain('-        result -= item');
      expect(screen).toContain('+        result += item');
      expect(screen).not.toContain('junk.txt');
      from += screen.length;

      await t.type('/test');
      screen = await prompt(t, from);
      expect(screen).toContain('✓ tests pass');
      from += screen.length;

      // /branch: the ordinary run API delivers the change as one branch with PR_SUMMARY.md
      const before = execFileSync('git', ['-C', repo.path, 'for-each-ref', '--format=%(refname)'], {
        encoding: 'utf8',
      });
      await t.type('/branch Make total() add');
      screen = await t.waitFor(/\nchat›$/, { from, timeoutMs: 120_000 });
      expect(screen).toMatch(/stable: tests pass/);
      expect(screen).toMatch(/1 commit on main/);
      const branch = /branch +(EngineerExternal\/\S+)/.exec(screen)?.[1];
      expect(branch, screen).toBeDefined();
      from += screen.length;
      const after = execFileSync('git', ['-C', repo.path, 'for-each-ref', '--format=%(refname)'], { encoding: 'utf8' });
      expect(after.split('\n').filter((r) => !before.includes(r))).toEqual([`refs/heads/${branch}`]);
      expect(execFileSync('git', ['-C', repo.path, 'show', `${branch}:calc.py`], { encoding: 'utf8' })).toContain(
        'result += item',
      );
      const [runId] = await runIdsIn(repo.path);
      const state = await readState(repo.path, runId!);
      expect(state.directive.path).toMatch(/^chat /);
      expect(state.directive.text.split('\n')[0]).toBe('Make total() add');
      expect(state.directive.text).toContain('why does test_total fail?');
      const summary = await readFile(join(repo.path, '.hammer', 'runs', runId!, 'PR_SUMMARY.md'), 'utf8');
      expect(summary.split('\n')[0]).toBe('# Make total() add');
      expect(summary).toContain('Fixed: total() adds now');
      // colour, since this terminal has it
      expect(await t.rawScreen()).toMatch(/\u001b\[[0-9;]*m *✓ ok/);

      await t.type('/quit');
      expect(await t.exited()).toBe(0);
      if (process.env['HB_SCREEN']) await writeFile(process.env['HB_SCREEN'], await t.screen());
      expect(await t.screen()).toContain('kept; continue it with: hammer-box chat --continue');
    } finally {
      await t.close();
    }

    // the conversation is sealed, with the exchanges and the hand-off
    const [file] = await conversationFiles();
    const c = ConversationSchema.parse(
      JSON.parse(unsealedBody(await readFile(join(repo.path, '.hammer', 'chats', file!), 'utf8'))),
    );
    expect(c.exchanges.map((e) => e.end.reason)).toEqual(['answered', 'answered', 'interrupted', 'answered']);
    expect(c.exchanges[1]!.steps.map((s) => s.outcome)).toEqual(['refused', 'ok']);
    expect(c.handoffs).toMatchObject([{ kind: 'branch', status: 'stable' }]);
    const transcript = await readFile(join(repo.path, '.hammer', 'chats', c.id, 'transcript.md'), 'utf8');
    expect(transcript).toContain('## 4. You');
    expect(transcript).toContain('Fixed: total() adds now');

    // --continue: the last exchange on the screen, the same change in a new sandbox
    const again = await chat(['--continue'], { NO_COLOR: '1' });
    try {
      let screen = await again.waitFor(/chat›$/, { timeoutMs: 120_000 });
      expect(screen).toContain(`continuing conversation ${c.id} (4 exchanges)`);
      expect(screen).toContain('you› fix it now');
      expect(screen).toContain('model› Fixed: total() adds now');
      let from = screen.length;
      await again.type('/diff');
      screen = await prompt(again, from);
      expect(screen).toContain('+        result += item');
      from += screen.length;
      // the model is sent the whole conversation again
      server.enqueue({ answer: 'Yes: calc.py, line 4.' });
      await again.type('which file did you change?');
      screen = await prompt(again, from);
      expect(screen).toContain('Yes: calc.py, line 4.');
      const sent = JSON.stringify((server.chatRequests().at(-1)!.body as { messages: unknown[] }).messages);
      expect(sent).toContain('why does test_total fail?');
      expect(sent).toContain('Fixed: total() adds now');
      from += screen.length;

      // /undo twice: the last exchange, then the fix; the files go back with them
      await again.type('/undo');
      screen = await prompt(again, from);
      expect(screen).toContain('took back exchange 5');
      from += screen.length;
      await again.type('/undo');
      screen = await prompt(again, from);
      expect(screen).toContain('took back exchange 4');
      from += screen.length;
      await again.type('/diff');
      screen = await prompt(again, from);
      expect(screen).toContain('no change: the work tree is at the base');
      from += screen.length;
      for (const [command, shows] of [
        ['/tools', 'str_replace'],
        ['/config', 'python3 -m pytest -q'],
        ['/bogus', 'unknown command /bogus'],
        ['/new', 'new conversation'],
      ] as const) {
        await again.type(command);
        screen = await prompt(again, from);
        expect(screen).toContain(shows);
        from += screen.length;
      }
      // NO_COLOR: not one colour sequence
      expect(await again.rawScreen()).not.toMatch(/\u001b\[[0-9;]*m/);
      await again.press('C-c');
      await again.press('C-c');
      expect(await again.exited()).toBe(0);
    } finally {
      await again.close();
    }
    const listed = spawnSync('node', [CLI, 'chat', 'list', '--repo', repo.path], { encoding: 'utf8', env });
    const list = listed.stdout;
    expect(list.split('\n')[0], listed.stderr).toMatch(/^ID +KIND +MODE +EXCH +UPDATED +FIRST MESSAGE$/);
    expect(list).toMatch(new RegExp(`${c.id} +chat +code +3 +\\S+ +why does test_total fail\\?`));
    expect(list.trim().split('\n')).toHaveLength(3);
  });

  it('plan writes plan.md from what the model read and ran; run --plan carries it out to stable', async () => {
    const plan = [
      '# Plan: make total() add',
      '## Goal',
      'total() returns the sum of its items, so test_total passes.',
      '## Constraints',
      '- Do not change the tests.',
      '## Files and functions',
      '- `calc.py`: `total()` subtracts each item.',
      '## Steps',
      '1. In `calc.py`, change `result -= item` to `result += item`.',
      '2. Run the tests.',
      '## Tests',
      '- `test_calc.py::test_total` and `test_calc.py::test_empty`: `python3 -m pytest -q`',
    ].join('\n');
    server.enqueue(...trajectoryScript([{ bash: 'grep -n result calc.py' }], 'native'), {
      answer: `I read calc.py.\n\n${plan}\n`,
    });
    const out = join(dir, 'plan.md');
    const t = await openTerminal(
      ['node', CLI, 'plan', '--repo', repo.path, '-m', 'make test_total pass', '--out', out, ...model()],
      { cwd: dir, env, dir },
    );
    try {
      const screen = await t.waitFor(/plan written to/, { timeoutMs: 120_000 });
      expect(screen).toContain('▸ bash grep -n result calc.py');
      expect(screen).toContain('## Steps');
      expect(await t.exited()).toBe(0);
    } finally {
      await t.close();
    }
    const written = await readFile(out, 'utf8');
    expect(written).toBe(`${plan}\n`);
    // the goal went to the model in read-only mode
    const asked = JSON.stringify((server.chatRequests().at(-2)!.body as { messages: unknown[] }).messages);
    expect(asked).toContain('make test_total pass');
    expect(asked).toContain('Read-only mode');

    // run --plan: the plan is the directive, recorded as a plan
    const runsBefore = await runIdsIn(repo.path);
    server.enqueue(
      ...trajectoryScript(
        [
          { edit: { command: 'str_replace', path: 'calc.py', old_str: 'result -= item', new_str: 'result += item' } },
          { submit: true },
        ],
        'native',
      ),
    );
    const r = await openTerminal(
      ['node', CLI, 'run', '--repo', repo.path, '--plan', out, '--mode', 'agent', ...model()],
      { cwd: dir, env, dir },
    );
    try {
      await r.waitFor(/stable: tests pass/, { timeoutMs: 180_000 });
      expect(await r.exited()).toBe(0);
    } finally {
      await r.close();
    }
    const runId = (await runIdsIn(repo.path)).find((id) => !runsBefore.includes(id))!;
    const state = await readState(repo.path, runId);
    expect(state.status).toBe('stable');
    expect(state.directive).toMatchObject({ kind: 'plan', path: out, text: `${plan}\n` });
    const summary = await readFile(join(repo.path, '.hammer', 'runs', runId, 'PR_SUMMARY.md'), 'utf8');
    expect(summary.split('\n')[0]).toBe('# Make total() add');
    expect(summary).toContain('## Plan');
    expect(summary).toContain('1. In `calc.py`, change `result -= item` to `result += item`.');
  });
});
