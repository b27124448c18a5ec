// A ChatSession on a fake sandbox (a work tree in memory) and a scripted model: read-only mode
// refuses edits and puts back what commands change, a stopped answer is recorded and settled, /undo
// takes back the messages and the files, /test runs the failing tests first, a resumed conversation
// gets its change back (checked against its sealed hash), and each exchange is recorded.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatSession, type ChatSessionDeps } from '../../../src/chat/session.js';
import { resolveConfig } from '../../../src/config/resolve.js';
import { HammerError } from '../../../src/errors.js';
import type { GenerateRequest, GenerateResult, ModelProvider } from '../../../src/llm/types.js';
import type { SandboxRepo } from '../../../src/loop/sandbox-repo.js';
import type { ExecResult, WorkspaceFileResult } from '../../../src/sandbox/types.js';
import { ConversationStore } from '../../../src/state/conversation-store.js';
import { TEST_STATE_KEY } from '../../helpers/state-key.js';
import { conversation } from './fixtures.js';

const BASE = 'f'.repeat(40);

/** A work tree in memory with the runner ops the session and the agent's tools use. */
class FakeRepo {
  readonly sandbox = { workdir: '/workspace' };
  readonly base = new Map<string, string>([['calc.py', 'result -= item\n']]);
  tree = new Map(this.base);
  readonly commands: string[] = [];
  tests: string[] = [];
  /** What a command does to the tree, and prints. */
  onShell: (command: string, tree: Map<string, string>) => string = () => '';
  testExit = 1;

  async shell(
    command: string,
    cwd: string,
    _t: number,
    signal?: AbortSignal,
  ): Promise<{ result: ExecResult; cwd: string }> {
    this.commands.push(command);
    if (command.startsWith('sleep')) {
      if (signal?.aborted) throw new HammerError('ABORTED', 'command was interrupted');
      await new Promise((_r, reject) =>
        signal?.addEventListener('abort', () => reject(new HammerError('ABORTED', 'command was interrupted')), {
          once: true,
        }),
      );
    }
    const out = this.onShell(command, this.tree);
    return { result: exec(0, out), cwd };
  }
  async settle(): Promise<void> {}
  async openFile(path: string): Promise<WorkspaceFileResult> {
    const text = this.tree.get(path);
    return text === undefined
      ? { kind: 'missing' }
      : { kind: 'file', mode: 0o644, size: text.length, content: Buffer.from(text) };
  }
  async writeFile(path: string, content: Buffer): Promise<WorkspaceFileResult> {
    this.tree.set(path, content.toString());
    return { kind: 'done' };
  }
  /** The change as a fake diff: one `diff --git` line and the content (JSON) per changed path. */
  async candidate(): Promise<Buffer | null> {
    const paths = [...new Set([...this.base.keys(), ...this.tree.keys()])].sort();
    const changed = paths.filter((p) => this.base.get(p) !== this.tree.get(p));
    if (changed.length === 0) return null;
    return Buffer.from(
      changed.map((p) => `diff --git a/${p} b/${p}\n${JSON.stringify(this.tree.get(p) ?? null)}\n`).join(''),
    );
  }
  async restore(commit: string, change: Buffer | null): Promise<boolean> {
    expect(commit).toBe(BASE);
    this.tree = new Map(this.base);
    const lines = change?.toString().split('\n') ?? [];
    for (let i = 0; i + 1 < lines.length; i += 2) {
      const path = /^diff --git a\/(\S+)/.exec(lines[i]!)![1]!;
      const content = JSON.parse(lines[i + 1]!) as string | null;
      if (content === null) this.tree.delete(path);
      else this.tree.set(path, content);
    }
    return true;
  }
  async test(command: string): Promise<ExecResult> {
    this.tests.push(command);
    this.tree.set('.pytest_cache', 'x');
    this.tree.set('calc.py', 'overwritten by a test\n');
    return exec(
      this.testExit,
      this.testExit === 0 ? '2 passed\n' : 'FAILED test_calc.py::test_total - assert -6 == 6\n1 failed, 1 passed\n',
    );
  }
}

function exec(exitCode: number, stdout: string): ExecResult {
  const text = (t: string): ExecResult['stdout'] => ({ text: t, totalBytes: t.length, droppedBytes: 0 });
  return { exitCode, stdout: text(stdout), stderr: text(''), durationMs: 5, timedOut: false };
}

/** A model that answers from a script; a `slow` answer waits until the request is aborted. */
function model(script: (Partial<GenerateResult> | 'slow')[]) {
  const requests: GenerateRequest[] = [];
  const provider: ModelProvider = {
    name: 'ollama',
    model: 'test-model',
    generate: async (req) => {
      requests.push(req);
      const next = script.shift();
      if (next === undefined) throw new Error('no more answers');
      if (next === 'slow')
        return new Promise((_r, reject) =>
          req.signal?.addEventListener(
            'abort',
            () => reject(new HammerError('ABORTED', 'the model request was interrupted')),
            { once: true },
          ),
        );
      return {
        text: '',
        model: 'test-model',
        durationMs: 1,
        firstTokenMs: 1,
        attempts: 1,
        promptTokens: 10,
        completionTokens: 2,
        ...next,
      };
    },
    check: async () => ({ reachable: true, modelPresent: true, detail: '' }),
    close: async () => undefined,
  };
  return { provider, requests };
}

const call = (name: string, args: Record<string, unknown>, id = 'c1'): Partial<GenerateResult> => ({
  text: '',
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});
const FIX = { command: 'str_replace', path: 'calc.py', old_str: 'result -= item', new_str: 'result += item' };

let dir: string;
let store: ConversationStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hb-session-'));
  store = new ConversationStore({ dir: join(dir, '.hammer'), key: TEST_STATE_KEY });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function session(script: (Partial<GenerateResult> | 'slow')[], repo = new FakeRepo()) {
  const m = model(script);
  const { config } = await resolveConfig({ env: {} });
  const deps: ChatSessionDeps = {
    provider: m.provider,
    store,
    repo: repo as unknown as SandboxRepo,
    base: BASE,
    config: { ...config, edits: { ...config.edits, syntax_gate: false } },
    testCommand: 'python3 -m pytest -q',
    now: () => new Date('2026-11-26T12:00:00Z'),
  };
  const s = await ChatSession.start(deps, conversation());
  return { s, repo, deps, ...m };
}

describe('ChatSession', () => {
  it('answers in words after its tool calls, and records the exchange with the change after it', async () => {
    const { s, repo, requests } = await session([call('edit', FIX), { text: 'Fixed line 1.' }]);
    const { exchange } = await s.ask('fix it');
    expect(exchange).toMatchObject({ n: 1, answer: 'Fixed line 1.', end: { reason: 'answered' }, turns: 2 });
    expect(exchange.steps.map((x) => `${x.action} ${x.outcome}`)).toEqual(['str_replace calc.py ok']);
    expect(exchange.change).toMatchObject({ files: ['calc.py'], artifact: 'exchange-01.patch' });
    expect(repo.tree.get('calc.py')).toBe('result += item\n');
    // the second request answered the call and went on
    expect(requests[1]!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    const saved = await store.read(s.conversation.id);
    expect(saved.exchanges).toHaveLength(1);
    expect(saved.messages.at(-1)).toEqual({ role: 'assistant', content: 'Fixed line 1.' });
  });

  it('read-only mode refuses edits and puts back what a command changed', async () => {
    const repo = new FakeRepo();
    repo.onShell = (command, tree) => {
      if (command.includes('sed')) tree.set('calc.py', 'changed by sed\n');
      return 'ok\n';
    };
    const { s, requests } = await session(
      [call('edit', FIX), call('bash', { command: 'sed -i x calc.py' }, 'c2'), { text: 'Change -= to +=.' }],
      repo,
    );
    await s.setMode('plan');
    const { exchange } = await s.ask('fix it');
    expect(exchange.mode).toBe('plan');
    expect(exchange.steps.map((x) => x.outcome)).toEqual(['refused', 'ok']);
    expect(exchange.steps[0]!.observation).toMatch(/read-only mode/);
    expect(exchange.steps[1]!.observation).toContain('was undone');
    expect(repo.tree).toEqual(repo.base);
    // the model was told about the mode with the message
    expect(requests[0]!.messages.at(-1)!.content).toMatch(/^\[Read-only mode/);
    // back in code mode the model hears so, and may edit
    await s.setMode('code');
    expect(s.mode).toBe('code');
  });

  it('a stopped answer is recorded as interrupted and the next message says so; a stopped command is settled', async () => {
    const { s, requests } = await session(['slow', call('bash', { command: 'sleep 100' }), 'slow', { text: 'ok' }]);
    const stop = new AbortController();
    const asked = s.ask('explain', { signal: stop.signal });
    setImmediate(() => stop.abort());
    expect((await asked).exchange.end.reason).toBe('interrupted');
    const second = new AbortController();
    const running = s.ask('run it', { signal: second.signal, on: (e) => e.type === 'step_started' && second.abort() });
    const r = await running;
    expect(r.exchange.end.reason).toBe('interrupted');
    expect(r.error).toBeUndefined();
    // the call that was stopped is answered, so the next request is well formed
    const third = new AbortController();
    const going = s.ask('go on', { signal: third.signal, on: (e) => e.type === 'thinking' && third.abort() });
    setImmediate(() => third.abort());
    await going;
    const last = requests.at(-1)!.messages;
    expect(last.at(-2)).toMatchObject({ role: 'tool', content: '(stopped by the person before this call ran)' });
    expect(last.at(-1)!.content).toContain('[The person stopped your previous answer.]');
    expect(last.at(-1)!.content).toContain('go on');
    expect(s.conversation.exchanges.map((e) => e.end.reason)).toEqual(['interrupted', 'interrupted', 'interrupted']);
  });

  it('/undo takes back the last exchange: its messages and its change', async () => {
    const repo = new FakeRepo();
    repo.onShell = (command, tree) => {
      if (command === 'touch new.py') tree.set('new.py', '');
      return '';
    };
    const { s } = await session(
      [call('edit', FIX), { text: 'one' }, call('bash', { command: 'touch new.py' }), { text: 'two' }],
      repo,
    );
    await s.ask('first');
    const afterFirst = new Map(repo.tree);
    await s.ask('second');
    expect(repo.tree.has('new.py')).toBe(true);
    const undone = await s.undo();
    expect(undone?.n).toBe(2);
    expect(repo.tree).toEqual(afterFirst);
    expect(s.conversation.exchanges).toHaveLength(1);
    expect(s.conversation.messages.at(-1)).toEqual({ role: 'assistant', content: 'one' });
    expect(await s.undo()).toMatchObject({ n: 1 });
    expect(repo.tree).toEqual(repo.base);
    expect(await s.undo()).toBeNull();
  });

  it('/test runs the failing tests first next time, and undoes what the tests changed', async () => {
    const { s, repo } = await session([]);
    const first = await s.test();
    expect(first.exit_code).toBe(1);
    expect(first.parsed?.failing.map((t) => t.id)).toEqual(['test_calc.py::test_total']);
    expect(repo.tree).toEqual(repo.base);
    repo.testExit = 0;
    const second = await s.test();
    expect(repo.tests).toEqual([
      'python3 -m pytest -q',
      'python3 -m pytest -q test_calc.py::test_total',
      'python3 -m pytest -q',
    ]);
    expect(second.focus?.command).toBe('python3 -m pytest -q test_calc.py::test_total');
    expect(s.conversation.last_test?.exit_code).toBe(0);
  });

  it('a resumed conversation gets its recorded change back, unless the diff was changed', async () => {
    const { s, deps } = await session([call('edit', FIX), { text: 'done' }]);
    await s.ask('fix');
    const recorded = await store.read(s.conversation.id);
    const fresh = new FakeRepo();
    const { session: again, warning } = await ChatSession.resume(
      { ...deps, repo: fresh as unknown as SandboxRepo },
      recorded,
    );
    expect(warning).toBeNull();
    expect(fresh.tree.get('calc.py')).toBe('result += item\n');
    expect(again.conversation.exchanges).toHaveLength(1);
    await writeFile(join(store.artifactsDir(recorded.id), 'exchange-01.patch'), 'diff --git a/evil b/evil\n"x"\n');
    await expect(
      ChatSession.resume({ ...deps, repo: new FakeRepo() as unknown as SandboxRepo }, recorded),
    ).rejects.toMatchObject({
      code: 'STATE_INVALID',
    });
  });

  it('refuses a message over the size a conversation keeps', async () => {
    const { s } = await session([]);
    await expect(s.ask('x'.repeat(70_000))).rejects.toMatchObject({ code: 'USAGE' });
  });
});
