// The model asks with a provider tool call, then fixes the bug, end to end through the built CLI
// (real engine, real git, a scripted model server on each wire): the server is offered the tools,
// the call comes back as tool_calls (OpenAI: argument fragments over several events), the next
// request carries the tool message with the module's content, the run reaches stable, the state
// records the call, and `replay` plays the run back identically without the model.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunState } from '../../src/state/run-state.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import {
  answerWith,
  BUGGY_CALC,
  createPythonFixture,
  FIX_PATCH,
  type PythonFixture,
} from '../helpers/python-fixture.js';
import { readState, testEnv } from './run-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

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

type Sent = { role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string; tool_name?: string };
const messagesOf = (server: ModelServer, i: number): Sent[] =>
  (server.chatRequests()[i]?.body as { messages: Sent[] }).messages;

describe.each(['openai', 'ollama'] as const)(
  'run (%s): the model asks with a tool call, then fixes the bug',
  (wire) => {
    let fx: PythonFixture;
    let server: ModelServer;
    let result: CliResult;
    let state: RunState;

    beforeAll(async () => {
      if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build it first with 'make build'.`);
      await toolchainImage('python');
      fx = await createPythonFixture();
      server = await startModelServer({
        script: [
          { toolCalls: [{ name: 'read_file', arguments: { path: 'calc.py' } }], content: 'Let me read the module.' },
          { answer: answerWith(FIX_PATCH) },
        ],
      });
      result = await cli([
        'run',
        '--repo',
        fx.repo.path,
        '--directive',
        fx.directive,
        '--provider',
        wire,
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

    it('offers the tools, answers the call with a tool message holding the file, and reaches stable', () => {
      expect(result.code, result.stderr).toBe(0);
      expect(state.status).toBe('stable');
      expect(state.iterations).toHaveLength(1);
      const [first, second] = server.chatRequests().map((r) => r.body as { tools?: { function: { name: string } }[] });
      expect(server.chatRequests()).toHaveLength(2);
      expect(first?.tools?.map((t) => t.function.name)).toEqual(['read_file', 'search']);
      expect(second?.tools?.map((t) => t.function.name)).toEqual(['read_file', 'search']);
      const sent = messagesOf(server, 1);
      expect(sent.slice(0, 2)).toEqual(messagesOf(server, 0));
      expect(sent[2]).toMatchObject({ role: 'assistant', content: 'Let me read the module.' });
      expect(sent[2]!.tool_calls).toHaveLength(1);
      const tool = sent[3]!;
      expect(tool.role).toBe('tool');
      if (wire === 'openai') expect(tool.tool_call_id).toBe('call_test_0');
      else expect(tool.tool_name).toBe('read_file');
      expect(tool.content).toContain('## calc.py');
      expect(tool.content).toContain(BUGGY_CALC.replace(/\n$/, ''));
      expect(sent).toHaveLength(4);
    });

    it('records that the request came as a tool call, with the call beside the answer', async () => {
      const ask = state.iterations[0]!.asks![0]!;
      expect(state.iterations[0]!.asks).toHaveLength(1);
      expect(ask.items).toEqual([
        {
          kind: 'read',
          target: 'calc.py',
          via: 'tool_call',
          outcome: 'shown',
          lines: expect.any(String),
          chars: expect.any(Number),
        },
      ]);
      const dir = join(fx.repo.path, '.hammer', 'runs', state.run_id);
      const calls = JSON.parse(await readFile(join(dir, ask.tool_calls_artifact!), 'utf8')) as {
        name: string;
        arguments: string;
      }[];
      expect(calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([['read_file', { path: 'calc.py' }]]);
      expect(await readFile(join(dir, ask.answer_artifact), 'utf8')).toBe('Let me read the module.');
      const show = await cli(['runs', 'show', state.run_id, '--repo', fx.repo.path]);
      expect(show.code, show.stderr).toBe(0);
      expect(show.stdout).toContain('asked (1) with tool calls: read calc.py (shown');
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
      const dirOf = (id: string) => join(fx.repo.path, '.hammer', 'runs', id);
      const [a, b] = [again.iterations[0]!.asks![0]!, state.iterations[0]!.asks![0]!];
      expect(await readFile(join(dirOf(doc.run_id), a.reply_artifact), 'utf8')).toBe(
        await readFile(join(dirOf(state.run_id), b.reply_artifact), 'utf8'),
      );
      expect(await readFile(join(dirOf(doc.run_id), a.tool_calls_artifact!), 'utf8')).toBe(
        await readFile(join(dirOf(state.run_id), b.tool_calls_artifact!), 'utf8'),
      );
      const tree = (ref: string): Promise<string> => fx.repo.git(['rev-parse', `refs/heads/${ref}^{tree}`]);
      expect(await tree(doc.branch)).toBe(await tree(state.branch!.name));
    });
  },
);

describe('run: a model without tool support falls back to the text format, once, with a notice', () => {
  let fx: PythonFixture;
  let server: ModelServer;
  let result: CliResult;
  let state: RunState;

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build it first with 'make build'.`);
    await toolchainImage('python');
    fx = await createPythonFixture();
    server = await startModelServer({
      script: [
        { status: 400, body: { error: 'registry.ollama.ai/library/test-model:latest does not support tools' } },
        { answer: 'READ calc.py' },
        { answer: answerWith(FIX_PATCH) },
      ],
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

  it('asks again without tools, never offers them again, and the text request is answered', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(state.status).toBe('stable');
    expect(server.chatRequests().map((r) => 'tools' in (r.body as object))).toEqual([true, false, false]);
    expect(result.stderr).toContain('refused tool calls');
    expect(state.iterations[0]!.asks![0]!.items[0]).toMatchObject({ kind: 'read', target: 'calc.py' });
    expect(state.iterations[0]!.asks![0]!.items[0]).not.toHaveProperty('via');
    expect(messagesOf(server, 2)[3]).toMatchObject({ role: 'user' });
  });
});
