// Agent mode: the host's own cost per trajectory step (the model's tool call parsed, the command run
// in the sandbox, its observation back in the next request) beside the same command spawned bare on
// the host, and how much of each request repeats the one before it (what a server's prompt cache
// reuses), before and after the history starts eliding. Real runs through run(), against a scripted
// Ollama server in this process that makes native tool calls and timestamps every request.
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { run } from '../src/api/run.js';
import { sharedPrefixLength } from '../src/context/index.js';
import { createDockerClient, DockerSandboxEngine } from '../src/sandbox/index.js';
import type { AgentStep, RunState } from '../src/state/run-state.js';
import { benchEnv, makeGitRepo, pythonProjectFiles, removeDir } from './fixtures.js';
import { heading, median, printFigure, sample } from './lib.js';

const execFileP = promisify(execFile);
const MODEL = 'bench-model';
const RUNS = 2;
/** Steps of each kind per run: bash with a short output, editor calls, then bash with a long output. */
const SHORT = 24;
const EDITS = 8;
const LONG = 16;
const SHORT_COMMAND = 'grep -n VALUE calc/counter.py';
/** A command whose output (about 2 KB) soon fills the history budget below. */
const LONG_COMMAND = 'seq 1 400';
/** The history budget in tokens (small, so elision starts within the run). */
const HISTORY_TOKENS = 3000;

interface Chat {
  /** performance.now() when the request arrived, and when its answer had been written. */
  at: number;
  answered: number;
  /** The request's messages as the server got them (JSON text). */
  messages: string;
}

/** Run the agent benchmarks and print their figures. */
export async function benchAgent(): Promise<void> {
  heading(
    `agent: own cost per step (${RUNS} runs via run(), python fixture; per run ${SHORT} x \`${SHORT_COMMAND}\`, ${EDITS} str_replace, ${LONG} x \`${LONG_COMMAND}\`, native tool calls)`,
  );
  const repo = await makeGitRepo(pythonProjectFiles());
  const scratch = await mkdtemp(join(tmpdir(), 'hb-bench-agent-'));
  const runIds: string[] = [];
  let chats: Chat[] = [];
  const server = await scriptedToolServer(
    (n) => turn(n),
    (c) => chats.push(c),
  );
  try {
    const directive = join(scratch, 'directive.md');
    await writeFile(directive, 'Look around calc/ and bump VALUE a few times.\n');
    const bareBefore = await bare(repo, SHORT_COMMAND, 20);
    const states: { state: RunState; chats: Chat[] }[] = [];
    for (let r = 0; r < RUNS; r++) {
      chats = [];
      server.reset();
      const { state } = await run({
        repo,
        directive,
        env: benchEnv(),
        flags: {
          tools: { test_command: 'false' },
          loop: { max_iterations: 1, mode: 'agent' },
          agent: { max_steps: 200, history_tokens: HISTORY_TOKENS },
          model: { provider: 'ollama', name: MODEL, url: server.url },
        },
      });
      runIds.push(state.run_id);
      const steps = state.iterations[0]?.trajectory?.steps.length ?? 0;
      if (steps !== SHORT + EDITS + LONG + 1)
        process.stdout.write(`WARNING: run ${state.run_id} made ${steps} tool calls (${state.reason_detail})\n`);
      states.push({ state, chats });
    }
    const bareShort = [...bareBefore, ...(await bare(repo, SHORT_COMMAND, 20))];
    const bareLong = await bare(repo, LONG_COMMAND, 40);
    printFigures(states, bareShort, bareLong, await spawnedByNode(repo, SHORT_COMMAND, 40));
  } finally {
    await server.close();
    await removeDir(repo);
    await removeDir(scratch);
    const left = await new DockerSandboxEngine({ docker: createDockerClient(benchEnv()) }).gc({ runIds });
    if (left.containers.length + left.volumes.length > 0)
      process.stdout.write(`WARNING: runs left ${left.containers.length} container(s) behind; removed now\n`);
  }
}

/** The scripted model's n-th call (1-based): short commands, edits, long commands, then submit. */
function turn(n: number): { name: string; arguments: Record<string, unknown> } {
  // a comment makes each command its own, so the stuck detector sees no repeat
  if (n <= SHORT) return { name: 'bash', arguments: { command: `${SHORT_COMMAND} # ${n}` } };
  if (n <= SHORT + EDITS) {
    const k = n - SHORT;
    return {
      name: 'edit',
      arguments: {
        command: 'str_replace',
        path: 'calc/counter.py',
        old_str: `VALUE = ${k - 1}`,
        new_str: `VALUE = ${k}`,
      },
    };
  }
  if (n <= SHORT + EDITS + LONG) return { name: 'bash', arguments: { command: `${LONG_COMMAND} # ${n}` } };
  return { name: 'submit', arguments: {} };
}

/**
 * The same command spawned bare on the host in the repository, `n` times (wall ms each): `sh -c`
 * started by a small perl process that times each one itself, so what is measured is the command
 * and its shell, not node's own fork (which copies all of node: see docs/performance.md).
 */
async function bare(repo: string, command: string, n: number): Promise<number[]> {
  const script =
    'use Time::HiRes qw(time); open(STDOUT, ">", "/dev/null"); for my $i (1..$ARGV[1]) { my $t = time; system("sh", "-c", $ARGV[0]); printf STDERR "%.3f\\n", 1000 * (time - $t); }';
  const { stderr } = await execFileP('perl', ['-e', script, command, String(n + 3)], { cwd: repo });
  return stderr.trim().split('\n').slice(3).map(Number);
}

/** The same command spawned from node (execFile), as the other sections' references are. */
function spawnedByNode(repo: string, command: string, n: number): Promise<number[]> {
  return sample(n, () => execFileP('sh', ['-c', command], { cwd: repo }), 3);
}

function printFigures(
  runs: { state: RunState; chats: Chat[] }[],
  bareShort: number[],
  bareLong: number[],
  byNode: number[],
): void {
  // step k's own cost: from the end of the answer that made the call to the arrival of the request
  // that carries its observation (request k+1 of the trajectory; request 1 is the task)
  const rows = runs.flatMap(({ state, chats }) =>
    (state.iterations[0]?.trajectory?.steps ?? [])
      .filter((s) => s.tool !== 'submit' && chats[s.turn] !== undefined)
      .map((s) => ({ step: s, cost: chats[s.turn]!.at - chats[s.turn - 1]!.answered })),
  );
  // the first step of a run waits for the sandbox's reset to the head: left out as cold
  const warm = rows.filter((r) => r.step.k > 1);
  const of = (pick: (s: AgentStep) => boolean, f: (r: (typeof rows)[number]) => number): number[] =>
    warm.filter((r) => pick(r.step)).map(f);
  const short = (s: AgentStep): boolean => s.tool === 'bash' && s.action.startsWith(SHORT_COMMAND);
  const long = (s: AgentStep): boolean => s.tool === 'bash' && s.action.startsWith(LONG_COMMAND);
  const edit = (s: AgentStep): boolean => s.tool === 'edit';
  process.stdout.write("(each run's first step waits for the reset of the work tree: left out as cold)\n");
  printFigure({
    name: `bash step, \`${SHORT_COMMAND}\` (parsed -> next request)`,
    samples: of(short, (r) => r.cost),
    reference: { name: 'the same command spawned bare on the host (sh -c)', samples: bareShort },
  });
  printFigure({ name: '  for context: the same command spawned by node (execFile)', samples: byNode });
  const overShort = of(short, (r) => r.cost).map((c) => c - median(bareShort));
  printFigure({
    name: '  the step less the bare command (goal: median <= 10 ms)',
    samples: overShort,
    targetMedian: 10,
  });
  printFigure({
    name: '  of which the command in the sandbox (exec, as the host timed it)',
    samples: of(short, (r) => r.step.command_ms ?? 0),
  });
  printFigure({
    name: '  of which the tool around it (cwd, observation)',
    samples: of(short, (r) => r.step.duration_ms - (r.step.command_ms ?? 0)),
  });
  printFigure({
    name: '  of which the loop (parse, record, history, request)',
    samples: of(short, (r) => r.cost - r.step.duration_ms),
  });
  printFigure({
    name: `bash step, \`${LONG_COMMAND}\` (~2 KB of output)`,
    samples: of(long, (r) => r.cost),
    reference: { name: 'the same command spawned bare on the host (sh -c)', samples: bareLong },
  });
  printFigure({ name: 'editor step, str_replace (read, gates, write back)', samples: of(edit, (r) => r.cost) });

  // prefix share: characters of request k's messages that request k-1 sent first, over request k's;
  // per run, split where the history first elided an observation
  const before: number[] = [];
  const after: number[] = [];
  for (const { state, chats } of runs) {
    const turns = state.iterations[0]?.trajectory?.turns ?? [];
    let elided = false;
    chats.slice(1).forEach((c, i) => {
      elided ||= (turns[i + 1]?.elided ?? 0) > 0;
      (elided ? after : before).push((100 * sharedPrefixLength(chats[i]!.messages, c.messages)) / c.messages.length);
    });
  }
  process.stdout.write(
    `prompt prefix share per request (the request's messages as JSON, against the request before it; history budget ${HISTORY_TOKENS} tokens):\n`,
  );
  printFigure({ name: '  until old observations are elided (goal: >= 90%)', samples: before, unit: '%' });
  process.stdout.write(
    `    minimum ${Math.min(...before).toFixed(1)} %: ${Math.min(...before) >= 90 ? 'met' : 'NOT met'}\n`,
  );
  if (after.length > 0) printFigure({ name: '  from the first elision on', samples: after, unit: '%' });
}

/** A scripted Ollama server answering each chat with the n-th native tool call; every chat is timestamped. */
async function scriptedToolServer(
  call: (n: number) => { name: string; arguments: Record<string, unknown> },
  onChat: (c: Chat) => void,
): Promise<{ url: string; reset(): void; close(): Promise<void> }> {
  let n = 0;
  const server = createServer((req, res) => {
    const at = performance.now();
    void body(req).then((text) => {
      if (req.url === '/api/tags') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ models: [{ name: MODEL }] }));
        return;
      }
      if (req.method !== 'POST' || req.url !== '/api/chat') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      n += 1;
      const messages = JSON.stringify((JSON.parse(text) as { messages?: unknown }).messages ?? []);
      const c = call(n);
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(
        `${JSON.stringify({ model: MODEL, message: { role: 'assistant', content: '', tool_calls: [{ function: c }] }, done: false })}\n`,
      );
      res.end(
        `${JSON.stringify({ model: MODEL, message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: Math.ceil(messages.length / 4), eval_count: 20 })}\n`,
        () => onChat({ at, answered: performance.now(), messages }),
      );
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reset: () => void (n = 0),
    close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
  };
}

async function body(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString('utf8');
}
