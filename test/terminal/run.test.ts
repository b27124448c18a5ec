// `hammer-box run`, `chat` and `plan` show the work on a terminal: the status line says the model is
// reading the prompt until its first token, then tokens and tokens/s; the run ends with its change
// on the screen (coloured; without colour under NO_COLOR); chat shows each edit's diff as it
// lands; plan's text is on the screen once. The real binary in tmux, a real engine and git, the
// scripted model server.
import { rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, trajectoryScript, type ModelServer } from '../helpers/model-server.js';
import { answerWith, createPythonFixture, FIX_PATCH, type PythonFixture } from '../helpers/python-fixture.js';
import { TEST_STATE_SECRET } from '../helpers/state-key.js';
import { openTerminal } from '../helpers/tmux.js';

const CLI = resolve('dist/cli/main.js');
const PROSE = `total() subtracted each item; it adds them now. ${'The loop keeps its shape. '.repeat(12)}`;

let server: ModelServer;
let dir: string;
let config: string;
let env: Record<string, string>;
const fixtures: PythonFixture[] = [];

beforeAll(async () => {
  await toolchainImage('python');
  server = await startModelServer({ script: [] });
  dir = await tempDir('hb-terminal-run-');
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
  for (const f of fixtures) await f.cleanup();
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

/** A fresh python fixture repository (calc.py's total() subtracts; its test fails). */
async function calcRepo(): Promise<PythonFixture['repo']> {
  const fx = await createPythonFixture();
  fixtures.push(fx);
  return fx.repo;
}

describe('hammer-box run on a terminal', () => {
  it('waits for the first token, then counts tokens; ends with the change on the screen, coloured', async () => {
    const repo = await calcRepo();
    // the model reads its prompt for 4 s, then streams its answer for a few seconds
    server.enqueue({ answer: answerWith(FIX_PATCH, PROSE), firstTokenMs: 4000, chunkSize: 6, delayMs: 40 });
    const t = await openTerminal(['node', CLI, 'run', '-m', 'Make test_total pass', ...model()], {
      cwd: repo.path,
      env,
      dir,
    });
    try {
      // the status line is redrawn in place: its last state is on the screen's last line
      await t.waitFor(/iteration 1\/10 generate \d+\.\ds · waiting for the first token · total/, {
        timeoutMs: 180_000,
      });
      await t.waitFor(/iteration 1\/10 generate \d+\.\ds · [\d,]+ tokens, \d+\.\d tok\/s · total/, {
        timeoutMs: 30_000,
      });
      const screen = await t.waitFor(/\n\[exited \d+\]/, { timeoutMs: 120_000 });
      expect(await t.exited()).toBe(0);
      const lines = screen.split('\n');
      expect(lines).toContain('   calc.py | 2 +-');
      const change = lines.indexOf('change:');
      expect(change, screen).toBeGreaterThan(0);
      expect(lines.slice(change + 1, lines.indexOf('next:'))).toEqual(
        expect.arrayContaining([
          'diff --git a/calc.py b/calc.py',
          expect.stringMatching(/^@@ -\d+,\d+ \+\d+,\d+ @@/),
          '-        result -= item',
          '+        result += item',
        ]),
      );
      const raw = await t.rawScreen();
      expect(raw).toMatch(/\u001b\[32m\+ {8}result \+= item/);
      expect(raw).toMatch(/\u001b\[31m- {8}result -= item/);
    } finally {
      await t.close();
    }
  });

  it('shows the change without colour under NO_COLOR', async () => {
    const repo = await calcRepo();
    server.enqueue({ answer: answerWith(FIX_PATCH) });
    const t = await openTerminal(['node', CLI, 'run', '-m', 'Make test_total pass', ...model()], {
      cwd: repo.path,
      env: { ...env, NO_COLOR: '1' },
      dir,
    });
    try {
      const screen = await t.waitFor(/\n\[exited \d+\]/, { timeoutMs: 180_000 });
      expect(screen).toContain('\n+        result += item\n');
      expect(await t.rawScreen()).not.toMatch(/\u001b\[3[12]m[+-] {8}result/);
    } finally {
      await t.close();
    }
  });
});

describe('hammer-box chat on a terminal', () => {
  it("shows each edit's diff as it lands", async () => {
    const repo = await calcRepo();
    const t = await openTerminal(['node', CLI, 'chat', ...model()], { cwd: repo.path, env, dir });
    try {
      const from = (await t.waitFor(/chat›$/, { timeoutMs: 120_000 })).length;
      server.enqueue(
        ...trajectoryScript(
          [{ edit: { command: 'str_replace', path: 'calc.py', old_str: 'result -= item', new_str: 'result += item' } }],
          'native',
        ),
        { answer: 'Changed the sign on line 8.' },
      );
      await t.type('fix total');
      const screen = await t.waitFor(/\nchat›$/, { from, timeoutMs: 120_000 });
      const lines = screen.split('\n');
      const ok = lines.findIndex((l) => /^ {2}✓ ok/.test(l));
      expect(ok, screen).toBeGreaterThan(0);
      expect(lines.slice(ok + 1, ok + 12)).toEqual(
        expect.arrayContaining([
          '  --- a/calc.py',
          '  +++ b/calc.py',
          '  -        result -= item',
          '  +        result += item',
        ]),
      );
      await t.type('/quit');
      expect(await t.exited()).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe('hammer-box plan on a terminal', () => {
  it('shows the plan once', async () => {
    const repo = await calcRepo();
    const plan = [
      '# Plan: make total() add',
      '## Goal',
      'total() returns the sum of its items.',
      '## Constraints',
      '- Do not change the tests.',
      '## Files and functions',
      '- `calc.py`: `total()`.',
      '## Steps',
      '1. Change `result -= item` to `result += item`.',
      '## Tests',
      '- `python3 -m pytest -q`',
    ].join('\n');
    server.enqueue({ answer: `${plan}\n` });
    const out = join(dir, 'plan-once.md');
    const t = await openTerminal(['node', CLI, 'plan', '-m', 'make test_total pass', '--out', out, ...model()], {
      cwd: repo.path,
      env,
      dir,
    });
    try {
      const screen = await t.waitFor(/plan written to/, { timeoutMs: 180_000 });
      expect(await t.exited()).toBe(0);
      expect(screen.split('1. Change `result -= item` to `result += item`.').length - 1).toBe(1);
    } finally {
      await t.close();
    }
  });
});
