// Generators shared by the benchmarks: git repositories in temp dirs (removed by the caller), a
// scripted Ollama server answering at once, a clean environment for hammer-box, and a log of the
// engine's exec and archive events.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';

const exec = promisify(execFile);

/** Git with no system or global config and a fixed identity, so repos are the same on every machine. */
export function benchGitEnv(): NodeJS.ProcessEnv {
  return {
    ...benchEnv(),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Bench',
    GIT_AUTHOR_EMAIL: 'bench@example.com',
    GIT_COMMITTER_NAME: 'Bench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
  };
}

/** The OCI runtime the benchmarks' sandboxes get: `make bench RUNTIME=runsc` (gVisor), else the engine's default (""). */
export function benchRuntime(): string {
  return process.env['HAMMER_BENCH_RUNTIME'] ?? '';
}

/** The process environment without the developer's HAMMER_*, OLLAMA_HOST and GIT_* settings (the bench runtime goes in). */
export function benchEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('HAMMER_') || k.startsWith('GIT_') || k === 'OLLAMA_HOST') continue;
    env[k] = v;
  }
  if (benchRuntime()) env['HAMMER_RUNTIME'] = benchRuntime();
  return env;
}

/** Run git in `cwd`; returns stdout. */
export async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await exec('git', args, { cwd, env: benchGitEnv(), maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** A git repository in a temp dir with one commit on main holding `files`; returns its path. */
export async function makeGitRepo(files: Record<string, string | Buffer>, prefix = 'hb-bench-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await git(dir, ['init', '--quiet', '--template=', '--initial-branch=main']);
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), content);
  }
  // no automatic gc: one left running in the background would race a caller's own `git gc`
  await git(dir, ['-c', 'gc.auto=0', 'add', '--all']);
  await git(dir, ['-c', 'gc.auto=0', 'commit', '--quiet', '--no-verify', '-m', 'base']);
  return dir;
}

/** Remove a temp repo (or any temp dir). */
export function removeDir(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

/** The small python project the loop benchmark edits: a module with a counter and a test. */
export function pythonProjectFiles(): Record<string, string> {
  return {
    'README.md': '# calc\n\nA tiny calculator.\n',
    'calc/__init__.py': '',
    'calc/counter.py': counterSource(0),
    'calc/ops.py': 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n',
    'tests/test_ops.py':
      'from calc.ops import add, sub\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n',
  };
}

function counterSource(value: number): string {
  return `"""How many times the loop touched this file."""\n\nVALUE = ${value}\n\n\ndef value():\n    return VALUE\n`;
}

/** The patch that moves calc/counter.py from VALUE = n-1 to VALUE = n (applies after patches 1..n-1). */
export function counterPatch(n: number): string {
  return [
    'diff --git a/calc/counter.py b/calc/counter.py',
    '--- a/calc/counter.py',
    '+++ b/calc/counter.py',
    '@@ -1,6 +1,6 @@',
    ' """How many times the loop touched this file."""',
    ' ',
    `-VALUE = ${n - 1}`,
    `+VALUE = ${n}`,
    ' ',
    ' ',
    ' def value():',
    '',
  ].join('\n');
}

/** Files of a repo-like tree: `count` python-looking text files, `bytes` in total, over nested dirs. */
export function largeRepoFiles(count: number, bytes: number): Record<string, string> {
  const per = Math.floor(bytes / count);
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    // random base64 lines as comments: text like source, but not compressible away
    const body = randomBytes(Math.ceil((per * 3) / 4))
      .toString('base64')
      .slice(0, per);
    files[`pkg${i % 50}/mod${i % 7}/file${i}.py`] = `${body.replace(/(.{76})/g, '# $1\n')}\n`;
  }
  return files;
}

/** A scripted Ollama server: every /api/chat gets the next answer at once, as NDJSON. */
export interface ScriptedOllama {
  /** http://127.0.0.1:<port> */
  url: string;
  /** /api/chat requests received since the last reset. */
  chats: number;
  /** Called when a /api/chat request has arrived (before it is answered). */
  onChat: (() => void) | undefined;
  /** Start counting again (a new run). */
  reset(): void;
  close(): Promise<void>;
}

/** Start a scripted Ollama server on 127.0.0.1; `answer(n)` gives the text for the run's n-th chat. */
export async function startScriptedOllama(
  answer: (n: number) => string,
  model = 'bench-model',
  /** How long each chat takes to answer (a real model takes seconds). */
  answerMs = 0,
): Promise<ScriptedOllama> {
  const state: ScriptedOllama = {
    url: '',
    chats: 0,
    onChat: undefined,
    reset: () => void (state.chats = 0),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
  const server = createServer((req, res) => {
    void drain(req).then(() => {
      if (req.url === '/api/tags') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ models: [{ name: model }] }));
        return;
      }
      if (req.method !== 'POST' || req.url !== '/api/chat') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      state.chats += 1;
      state.onChat?.();
      const text = answer(state.chats);
      const reply = (): void => {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.write(`${JSON.stringify({ model, message: { role: 'assistant', content: text }, done: false })}\n`);
        res.end(
          `${JSON.stringify({ model, message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 100, eval_count: 20 })}\n`,
        );
      };
      if (answerMs > 0) setTimeout(reply, answerMs);
      else reply();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // keep-alive sockets must not hold the process open after close()
  const close = state.close;
  state.close = () => (server.closeAllConnections(), close());
  return state;
}

async function drain(req: IncomingMessage): Promise<void> {
  for await (const chunk of req) void chunk;
}

/** A container event the engine recorded: create, start, an exec (with its command), an archive transfer, ... */
export interface DockerEvent {
  container: string;
  /** `exec_start: <argv>`, `exec_die`, `extract-to-dir`, `create`, `start`, ... */
  action: string;
  /** The exec's id, for exec events. */
  execId: string | undefined;
  /** Epoch milliseconds. */
  at: number;
}

const DockerEventSchema = z.object({
  Action: z.string(),
  Actor: z.object({ ID: z.string(), Attributes: z.record(z.string(), z.string()).nullish() }),
  timeNano: z.number(),
});

/** The container events the benchmarks look at by default. */
export const DEFAULT_EVENTS = [
  'create',
  'start',
  'exec_start',
  'exec_die',
  'extract-to-dir',
  'archive-path',
  'destroy',
] as const;

/** Records the engine's container events (all containers; filter by id after) between start() and stop(). */
export class DockerEventLog {
  readonly events: DockerEvent[] = [];
  private child: ChildProcess | undefined;

  constructor(private readonly kinds: readonly string[] = DEFAULT_EVENTS) {}

  /** Start listening (`docker events`); resolves once the CLI has had time to subscribe. */
  async start(): Promise<void> {
    const filters = ['type=container', ...this.kinds.map((k) => `event=${k}`)].flatMap((f) => ['--filter', f]);
    const child = spawn('docker', ['events', ...filters, '--format', '{{json .}}'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    this.child = child;
    let buf = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buf += chunk;
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const line of lines) {
        const parsed = DockerEventSchema.safeParse(safeJson(line));
        if (!parsed.success) continue;
        const e = parsed.data;
        this.events.push({
          container: e.Actor.ID,
          action: e.Action,
          execId: e.Actor.Attributes?.execID,
          at: e.timeNano / 1e6,
        });
      }
    });
    await new Promise<void>((done, fail) => child.once('spawn', done).once('error', fail));
    await new Promise((done) => setTimeout(done, 300));
  }

  /** Events of one container, in order. */
  of(container: string): DockerEvent[] {
    return this.events.filter((e) => e.container === container).sort((a, b) => a.at - b.at);
  }

  /** Stop listening (idempotent); events already seen stay. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    // let the last events arrive before the CLI goes
    await new Promise((done) => setTimeout(done, 300));
    child.kill('SIGTERM');
    await exited;
  }
}

/** JSON.parse, or undefined when the text is not JSON. */
export function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
