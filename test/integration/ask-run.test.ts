// The model asks to see more, then fixes the bug, end to end through the built CLI (real engine, real
// git, a scripted model server): its first answer is qwen3-coder's XML tool call written into the
// content, its second a bare JSON search; each is answered from the repository's tree, the run
// reaches stable, the state, the artifacts and `runs show` record what was asked and shown, and
// `replay` plays the run back identically without the model.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunState } from '../../src/state/run-state.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { answerWith, createPythonFixture, FIX_PATCH, type PythonFixture } from '../helpers/python-fixture.js';
import { readState, testEnv } from './run-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** qwen3-coder's shape: the call in the content, no opening <tool_call>. */
const ASK_READ =
  'Let me look at the code first.\n\n<function=read_file>\n<parameter=path>\nhelpers/rates.py\n</parameter>\n<parameter=start_line>\n2\n</parameter>\n<parameter=end_line>\n3\n</parameter>\n</function>\n</tool_call>\n';
/** A bare JSON call. */
const ASK_SEARCH = '{"name": "search", "arguments": {"query": "result -= item"}}';
const RATES = '"""Rates."""\nRATE_SECRET_MARKER = 7\nOTHER = 8\nTAIL_NOT_ASKED = 9\n';

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      cwd: ROOT,
      env: testEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const messagesOf = (server: ModelServer, i: number): { role: string; content: string }[] =>
  (server.chatRequests()[i]?.body as { messages: { role: string; content: string }[] }).messages;

describe('run: the model asks for a file and a search, then fixes the bug', () => {
  let fx: PythonFixture;
  let server: ModelServer;
  let result: CliResult;
  let state: RunState;

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build it first with 'make build'.`);
    await toolchainImage('python');
    fx = await createPythonFixture({ 'helpers/rates.py': RATES });
    server = await startModelServer({
      script: [{ answer: ASK_READ }, { answer: ASK_SEARCH }, { answer: answerWith(FIX_PATCH) }],
    });
    result = await cli([
      'run',
      '--repo',
      fx.repo.path,
      '--directive',
      fx.directive,
      '--provider',
      'ollama',
      '--model',
      'test-model',
      '--llm-url',
      server.url,
      '--max-iterations',
      '2',
      '--json',
    ]);
    const doc = JSON.parse(result.stdout) as { run_id: string };
    state = await readState(fx.repo.path, doc.run_id);
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    await fx?.cleanup();
  });

  it('teaches asking, answers each request from the tree as the next message, and reaches stable in one iteration', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(state.status).toBe('stable');
    expect(state.iterations).toHaveLength(1);
    expect(server.chatRequests()).toHaveLength(3);
    const first = messagesOf(server, 0);
    expect(first[0]!.content).toContain('READ src/calc.py:120-180');
    const second = messagesOf(server, 1);
    expect(second.slice(0, 2)).toEqual(first);
    expect(second[2]).toEqual({ role: 'assistant', content: ASK_READ });
    expect(second[3]!.role).toBe('user');
    expect(second[3]!.content).toContain('## helpers/rates.py:2-3');
    expect(second[3]!.content).toContain('[lines 2-3 of 4]\nRATE_SECRET_MARKER = 7\nOTHER = 8\n');
    expect(second[3]!.content).not.toContain('TAIL_NOT_ASKED');
    const third = messagesOf(server, 2);
    expect(third[4]).toEqual({ role: 'assistant', content: ASK_SEARCH });
    expect(third[5]!.content).toContain('calc.py:');
    expect(third[5]!.content).toContain('result -= item');
    expect(third[5]!.content).toContain('(request 2 of at most 3 this iteration)');
  });

  it('records the asks in the state and the artifacts, and shows them in runs show', async () => {
    const it1 = state.iterations[0]!;
    expect(it1.asks).toHaveLength(2);
    expect(it1.asks![0]!.items).toEqual([
      { kind: 'read', target: 'helpers/rates.py', outcome: 'shown', lines: '2-3', chars: expect.any(Number) },
    ]);
    expect(it1.asks![1]!.items[0]).toMatchObject({
      kind: 'search',
      target: 'result -= item',
      outcome: 'shown',
      hits: 1,
    });
    const dir = join(fx.repo.path, '.hammer', 'runs', state.run_id);
    expect(await readFile(join(dir, it1.asks![0]!.answer_artifact), 'utf8')).toBe(ASK_READ);
    expect(await readFile(join(dir, it1.asks![0]!.reply_artifact), 'utf8')).toBe(messagesOf(server, 1)[3]!.content);
    expect(it1.context?.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'helpers/rates.py', reason: 'asked', shown: 'regions', lines: '2-3' }),
      ]),
    );
    const show = await cli(['runs', 'show', state.run_id, '--repo', fx.repo.path]);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('asked (1): read helpers/rates.py (shown, lines 2-3)');
    expect(show.stdout).toContain('asked (2): search "result -= item" (shown, 1 hits)');
    expect(show.stdout).toMatch(/helpers\/rates\.py \(asked: the model asked for it; lines 2-3; \d+ chars\)/);
  });

  it('replays identically without the model', async () => {
    const before = server.requests.length;
    const replay = await cli(['replay', state.run_id, '--repo', fx.repo.path, '--json']);
    expect(replay.code, replay.stderr).toBe(0);
    expect(server.requests.length).toBe(before);
    const doc = JSON.parse(replay.stdout) as { run_id: string; status: string; branch: string };
    expect(doc.status).toBe('stable');
    const again = await readState(fx.repo.path, doc.run_id);
    const strip = (s: RunState) =>
      s.iterations.map((i) => ({ asks: i.asks?.map((a) => a.items), patch: i.patch?.hash, context: i.context }));
    expect(strip(again)).toEqual(strip(state));
    const tree = (ref: string): Promise<string> => fx.repo.git(['rev-parse', `refs/heads/${ref}^{tree}`]);
    expect(await tree(doc.branch)).toBe(await tree(state.branch!.name));
    const dirOf = (id: string) => join(fx.repo.path, '.hammer', 'runs', id);
    for (const [a, b] of again.iterations[0]!.asks!.map((x, i) => [x, state.iterations[0]!.asks![i]!] as const)) {
      expect(await readFile(join(dirOf(doc.run_id), a.reply_artifact), 'utf8')).toBe(
        await readFile(join(dirOf(state.run_id), b.reply_artifact), 'utf8'),
      );
    }
  });
});
