// Agent mode end to end (real engine, real git, the scripted model server): for each toolchain a
// trajectory that explores, edits, runs a test and submits, and reaches stable; native tool calls on
// both wires (Ollama NDJSON, OpenAI SSE) and calls written in the text (qwen3-coder XML without
// <tool_call>, a fenced bash block); refusals (a sensitive path, a symlink, an edit that breaks
// parsing, a str_replace that matches more than once) answered as observations while the run goes
// on; a model that repeats itself ended as stuck; replay reproduces the delivered tree; a file full
// of tool-call markup lands byte for byte and nothing inside it runs; cut-off turns run nothing;
// agent.max_seconds is a deadline for the commands and the model's requests.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replay } from '../../src/api/replay.js';
import { run } from '../../src/api/run.js';
import type { RunOutcome } from '../../src/loop/run-types.js';
import type { RunState } from '../../src/state/run-state.js';
import { toolchainImage } from '../helpers/images.js';
import {
  startModelServer,
  trajectoryScript,
  type AgentCallForm,
  type AgentTurnScript,
  type ModelServer,
  type RecordedRequest,
} from '../helpers/model-server.js';
import { createToolchainFixture, type ToolchainFixture } from '../fixtures/toolchains/fixtures.js';
import { modelFlags, testEnv } from './run-support.js';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({ script: [] });
});
afterAll(async () => {
  await server?.close();
});

interface Body {
  tools?: { function: { name: string } }[];
  messages: { role: string; content: string | null; tool_name?: string; tool_call_id?: string }[];
}
const body = (r: RecordedRequest | undefined): Body => r?.body as Body;

/** Run the fixture in agent mode against the scripted turns; the outcome and the requests it made. */
async function agentRun(
  fx: ToolchainFixture,
  turns: Parameters<typeof server.enqueue>,
  opts: {
    provider?: 'ollama' | 'openai';
    maxIterations?: number;
    tools?: 'auto' | 'off';
    /** The run's test command and the shell's limit (s). */
    testCommand?: string;
    commandTimeout?: number;
    agent?: Record<string, unknown>;
  } = {},
): Promise<{ outcome: RunOutcome; requests: RecordedRequest[] }> {
  const before = server.chatRequests().length;
  server.enqueue(...turns);
  const flags = modelFlags(server, { provider: opts.provider ?? 'ollama', maxIterations: opts.maxIterations ?? 2 });
  const outcome = await run({
    repo: fx.repo.path,
    directive: fx.directive,
    env: testEnv(),
    flags: {
      ...flags,
      model: { ...(flags['model'] as object), tools: opts.tools ?? 'auto' },
      loop: { ...(flags['loop'] as object), mode: 'agent' },
      ...(opts.testCommand ? { tools: { test_command: opts.testCommand } } : {}),
      ...(opts.commandTimeout || opts.agent
        ? { agent: { ...(opts.commandTimeout ? { command_timeout: opts.commandTimeout } : {}), ...opts.agent } }
        : {}),
    },
  });
  return { outcome, requests: server.chatRequests().slice(before) };
}

const script = (turns: AgentTurnScript[], form: AgentCallForm) => trajectoryScript(turns, form);

function explain(state: RunState): string {
  return JSON.stringify(
    {
      detail: state.reason_detail,
      errors: state.errors,
      iterations: state.iterations.map((it) => ({
        outcome: it.outcome,
        summary: it.summary,
        end: it.trajectory?.end,
        steps: it.trajectory?.steps.map((s) => `${s.action} → ${s.outcome}: ${s.observation.slice(0, 300)}`),
      })),
    },
    null,
    2,
  );
}

async function gitTree(repo: string, ref: string): Promise<string> {
  const { execFileSync } = await import('node:child_process');
  return execFileSync('git', ['-C', repo, 'rev-parse', `${ref}^{tree}`], { encoding: 'utf8' }).trim();
}

describe('agent mode', () => {
  it('python on Ollama, native calls: stuck once, then explores, is refused four ways, fixes, submits; replay gives the same tree', async () => {
    await toolchainImage('python');
    const fx = await createToolchainFixture('python', 'agent-mode');
    try {
      const ls: AgentTurnScript = { bash: 'ls' };
      const turns = [
        // iteration 1: the same call and the same result, again and again
        ...script([ls, ls, ls, ls], 'native'),
        // iteration 2
        ...script(
          [
            { bash: 'cd vendor && pwd' },
            { bash: 'pwd; grep -n result ../calc.py' },
            { edit: { command: 'view', path: '/workspace/calc.py' } },
            { edit: { command: 'create', path: '.github/workflows/ci.yml', file_text: 'on: push\n' } },
            { bash: 'cd /workspace && ln -s calc.py alias.py' },
            {
              edit: { command: 'str_replace', path: 'alias.py', old_str: 'result -= item', new_str: 'result += item' },
            },
            { bash: 'rm alias.py' },
            { edit: { command: 'str_replace', path: 'calc.py', old_str: 'result', new_str: 'total' } },
            {
              edit: { command: 'str_replace', path: 'calc.py', old_str: 'result -= item', new_str: 'result += (item' },
            },
            { edit: { command: 'str_replace', path: 'calc.py', old_str: 'result -= item', new_str: 'result += item' } },
            { bash: 'python3 -m pytest -q test_calc.py::test_total' },
            { submit: true },
          ],
          'native',
        ),
      ];
      const { outcome, requests } = await agentRun(fx, turns);
      const { state } = outcome;
      expect(state.status, explain(state)).toBe('stable');
      const [stuck, fixed] = state.iterations;
      expect(stuck?.trajectory?.end?.reason).toBe('stuck');
      expect(stuck?.trajectory?.nudges).toEqual(['repeat']);
      expect(stuck?.outcome).toBe('unusable');
      expect(fixed?.outcome).toBe('applied');
      const steps = fixed!.trajectory!.steps;
      expect(steps.map((s) => s.outcome)).toEqual([
        'ok',
        'ok',
        'ok',
        'refused',
        'ok',
        'refused',
        'ok',
        'failed',
        'refused',
        'ok',
        'ok',
        'ok',
      ]);
      // the working directory is kept between commands, and each command is a fresh shell
      expect(steps[0]!.observation).toContain('/workspace/vendor');
      expect(steps[1]!.observation).toMatch(/\/workspace\/vendor\n5: +result = 0\n7: +result -= item/);
      expect(steps[2]!.observation).toMatch(/7\t +result -= item/);
      expect(steps[3]!.observation).toContain('sensitive');
      expect(steps[5]!.observation).toContain('symbolic link');
      expect(steps[7]!.observation).toMatch(/3 times|more than once|matched/);
      expect(steps[8]!.observation).toMatch(/unparseable|syntax/i);
      expect(steps[10]!.observation).toContain('1 passed');
      // only calc.py changed: nothing the gates refused was written
      expect(fixed!.patch!.files).toEqual([{ path: 'calc.py', status: 'modified' }]);
      expect(state.branch).not.toBeNull();
      // native tools offered; each call answered with a tool message naming its tool (Ollama's shape)
      const second = body(requests[5]);
      expect(second.tools?.map((t) => t.function.name).sort()).toEqual(['bash', 'edit', 'submit']);
      expect(second.messages.at(-1)).toMatchObject({ role: 'tool', tool_name: 'bash' });
      expect(second.messages.at(-1)!.content).toContain('/workspace/vendor');
      // every request repeats the one before it whole: the server's prompt cache holds
      const shared = fixed!.trajectory!.turns.slice(1).map((t) => t.shared_prefix_chars! / t.prompt_chars);
      expect(Math.min(...shared)).toBeGreaterThan(0.5);
      const summary = await readFile(outcome.summaryPath!, 'utf8');
      expect(summary).toContain('## Agent');
      expect(summary).toContain('- Files edited: `calc.py`');
      const trajectory = await readFile(join(state.artifacts_dir, 'iter-02-trajectory.md'), 'utf8');
      expect(trajectory).toContain('### step 12: submit');

      // replay: the recorded answers, their calls run again in a fresh sandbox, the same tree
      const replayed = await replay({ repo: fx.repo.path, runId: state.run_id, env: testEnv() });
      expect(replayed.state.status, explain(replayed.state)).toBe('stable');
      expect(replayed.state.iterations.map((i) => i.trajectory?.steps.length)).toEqual(
        state.iterations.map((i) => i.trajectory?.steps.length),
      );
      expect(await gitTree(fx.repo.path, replayed.state.branch!.name)).toBe(
        await gitTree(fx.repo.path, state.branch!.name),
      );
    } finally {
      await fx.cleanup();
    }
  }, 600_000);

  it("node on an OpenAI-compatible server, native calls answered by tool_call_id; the test command gets the test limit, not the shell's", async () => {
    await toolchainImage('node');
    const fx = await createToolchainFixture('node', 'agent-mode');
    // a suite longer than the shell's limit: run as the test command, it gets the test run's limit
    const slowTests = 'sleep 4; node test.js';
    try {
      const { outcome, requests } = await agentRun(
        fx,
        script(
          [
            { bash: 'grep -n "result" calc.js' },
            { edit: { command: 'str_replace', path: 'calc.js', old_str: 'result -= item', new_str: 'result += item' } },
            { bash: slowTests },
            { submit: true },
          ],
          'native',
        ),
        { provider: 'openai', testCommand: slowTests, commandTimeout: 1 },
      );
      expect(outcome.state.status, explain(outcome.state)).toBe('stable');
      expect(outcome.state.iterations[0]!.trajectory!.steps[2]!.observation).toContain('ok');
      const last = body(requests.at(-1));
      expect(last.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual([
        'call_test_0',
        'call_test_0',
        'call_test_0',
      ]);
    } finally {
      await fx.cleanup();
    }
  }, 600_000);

  it('go with the calls written in the text: qwen3-coder XML without <tool_call>, and a fenced bash block', async () => {
    await toolchainImage('go');
    const fx = await createToolchainFixture('go', 'agent-mode');
    try {
      const { outcome } = await agentRun(fx, [
        ...script([{ bash: 'grep -n result calc.go' }], 'xml'),
        ...script([{ edit: { command: 'view', path: 'calc.go', view_range: [4, 9] } }], 'xml'),
        ...script(
          [
            {
              edit: {
                command: 'str_replace',
                path: 'calc.go',
                old_str: '\t\tresult -= item',
                new_str: '\t\tresult += item',
              },
            },
          ],
          'xml',
        ),
        ...script([{ bash: 'go test ./...' }], 'fenced'),
        ...script([{ submit: true }], 'xml'),
      ]);
      const { state } = outcome;
      expect(state.status, explain(state)).toBe('stable');
      const steps = state.iterations[0]!.trajectory!.steps;
      expect(steps.map((s) => s.shape)).toEqual(['qwen-xml', 'qwen-xml', 'qwen-xml', 'fenced', 'qwen-xml']);
      expect(steps[1]!.observation).toMatch(/^ +4\tfunc Total/m);
      expect(steps[3]!.observation).toMatch(/^ok\s/m);
    } finally {
      await fx.cleanup();
    }
  }, 600_000);

  it('rust with tools off: the system message teaches the text protocol and no tools are offered', async () => {
    await toolchainImage('rust');
    const fx = await createToolchainFixture('rust', 'agent-mode');
    try {
      const { outcome, requests } = await agentRun(
        fx,
        script(
          [
            {
              edit: {
                command: 'str_replace',
                path: 'src/lib.rs',
                old_str: 'result -= item;',
                new_str: 'result += item;',
              },
            },
            { bash: 'cargo test 2>&1 | tail -n 3' },
            { submit: true },
          ],
          'xml',
        ),
        { tools: 'off' },
      );
      expect(outcome.state.status, explain(outcome.state)).toBe('stable');
      const first = body(requests[0]);
      expect(first.tools).toBeUndefined();
      expect(first.messages[0]!.content).toContain('<function=bash>');
      expect(outcome.state.iterations[0]!.trajectory!.steps[1]!.observation).toContain('test result: ok');
    } finally {
      await fx.cleanup();
    }
  }, 600_000);

  it('python with calls written in the text: a file full of tool-call markup lands byte for byte and nothing inside it runs; cut-off turns run nothing', async () => {
    await toolchainImage('python');
    const fx = await createToolchainFixture('python', 'agent-mode');
    try {
      const create = [
        'Adding a test that holds a sample call as text.',
        '<tool_call>',
        '<function=edit>',
        '<parameter=command>',
        'create',
        '</parameter>',
        '<parameter=path>',
        'test_markup.py',
        '</parameter>',
        '<parameter=file_text>',
        `${MARKUP}</parameter>`,
        '</function>',
        '</tool_call>',
      ].join('\n');
      const fix = [
        '<tool_call>',
        '<function=edit>',
        '<parameter=command>str_replace</parameter>',
        '<parameter=path>calc.py</parameter>',
        '<parameter=old_str>',
        '        result -= item',
        '</parameter>',
        '<parameter=new_str>',
        '        result += item',
        '</parameter>',
        '</function>',
        '</tool_call>',
      ].join('\n');
      const call = (command: string): string =>
        `<tool_call>\n<function=bash>\n<parameter=command>\n${command}\n</parameter>\n</function>\n</tool_call>`;
      const { outcome, requests } = await agentRun(fx, [
        { answer: create },
        // the server stopped this one at the token limit: it looks whole, and runs nothing
        { answer: call('touch cut-by-server'), doneReason: 'length' },
        // this one ends inside its command: cut off, runs nothing
        { answer: '<tool_call>\n<function=bash>\n<parameter=command>\ntouch cut-in-text && python3 -m pyt' },
        { answer: fix },
        { answer: call('python3 -m pytest -q 2>&1 | tail -n 3; ls') },
        { answer: '<tool_call>\n<function=submit>\n</function>\n</tool_call>' },
      ]);
      const { state } = outcome;
      expect(state.status, explain(state)).toBe('stable');
      const traj = state.iterations[0]!.trajectory!;
      expect(traj.turns.map((t) => t.parsed)).toEqual([
        'actions',
        'malformed',
        'malformed',
        'actions',
        'actions',
        'actions',
      ]);
      expect(traj.steps.map((s) => s.tool)).toEqual(['edit', 'edit', 'bash', 'submit']);
      // nothing from inside the file ran, nor from the cut turns
      expect(traj.steps[2]!.observation).toMatch(/3 passed/);
      expect(traj.steps[2]!.observation).not.toMatch(/ran-from-inside|cut-by-server|cut-in-text/);
      // what the model was told after each cut turn (a nudge may follow it)
      const told = (k: number): string =>
        body(requests[k])
          .messages.slice(-2)
          .map((m) => m.content ?? '')
          .join('\n');
      expect(told(2)).toMatch(/cut off at the token limit.*none of the calls in it were run/);
      expect(told(3)).toMatch(/ends inside a tool call that never closed.*none of the calls in it were run/);
      // the file landed byte for byte on the delivered branch, and nothing else came with it
      const { execFileSync } = await import('node:child_process');
      const git = (...args: string[]): string =>
        execFileSync('git', ['-C', fx.repo.path, ...args], { encoding: 'utf8' });
      expect(git('show', `${state.branch!.name}:test_markup.py`)).toBe(MARKUP);
      const files = git('ls-tree', '-r', '--name-only', state.branch!.name).split('\n');
      expect(files.filter((f) => /ran-from-inside|cut-/.test(f))).toEqual([]);
    } finally {
      await fx.cleanup();
    }
  }, 600_000);

  it('agent.max_seconds is a deadline: a command gets only the time left, and a model request is aborted at it', async () => {
    await toolchainImage('python');
    const fx = await createToolchainFixture('python', 'agent-mode');
    try {
      const { outcome } = await agentRun(
        fx,
        [
          // iteration 1: a command far longer than the trajectory's time
          ...script([{ bash: 'sleep 60' }], 'native'),
          // iteration 2: a model that never answers
          { hang: true },
        ],
        { maxIterations: 2, agent: { max_seconds: 8 } },
      );
      const { state } = outcome;
      const [slow, silent] = state.iterations;
      expect(slow?.trajectory?.end?.reason, explain(state)).toBe('max_seconds');
      const step = slow!.trajectory!.steps[0]!;
      expect(step.timed_out).toBe(true);
      expect(step.observation).toContain('the time for this attempt (agent.max_seconds) ran out');
      expect(silent?.trajectory?.end).toMatchObject({
        reason: 'max_seconds',
        detail: expect.stringContaining('while the model was answering'),
      });
    } finally {
      await fx.cleanup();
    }
  }, 600_000);
});

/** A test file whose text is full of the call protocol's own markup: a whole sample call, closing tags in strings. */
const MARKUP = [
  'SAMPLE = """<tool_call>',
  '<function=bash>',
  '<parameter=command>',
  'touch ran-from-inside',
  '</parameter>',
  '</function>',
  '</tool_call>"""',
  'DOC = "end a value with </parameter>, the path with <parameter=path>, the call with </function>"',
  '',
  '',
  'def test_sample_is_text():',
  '    assert SAMPLE.count("</parameter>") == 1',
  '    assert "<parameter=path>" in DOC',
  '',
].join('\n');
