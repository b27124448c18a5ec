// Loop benchmarks (issue 3): the loop's own cost per warm iteration beside the same iteration done
// bare on the host, then (loop-startup.ts) the time to the first model request. Runs are real (real
// sandbox, real git) through run(), against a scripted Ollama server that answers at once.
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { run } from '../src/api/run.js';
import { createDockerClient, DockerSandboxEngine } from '../src/sandbox/index.js';
import { ITERATION_PHASES, type Iteration, type IterationPhase, type RunState } from '../src/state/run-state.js';
import {
  benchEnv,
  counterPatch,
  DockerEventLog,
  git,
  makeGitRepo,
  pythonProjectFiles,
  removeDir,
  startScriptedOllama,
  type DockerEvent,
} from './fixtures.js';
import { heading, median, printFigure, sample } from './lib.js';
import { benchSandboxProcesses } from './loop-processes.js';
import { benchStartup } from './loop-startup.js';

const execFileP = promisify(execFile);
const RUNS = 4;
const ITERATIONS = 6;
// `false` rather than `true`: a passing test would end a run after its first patch; neither does any work.
const TEST_COMMAND = 'false';
const MODEL = 'bench-model';
/** The scripted model's answer time: far below a real model's, long enough for what overlaps it. */
const ANSWER_MS = 300;

const ms = (iso: string): number => Date.parse(iso);
const fenced = (patch: string): string => `Bump the counter.\n\n\`\`\`diff\n${patch}\`\`\`\n`;
const modelFlags = (url: string) => ({ provider: 'ollama', name: MODEL, url });

/** Run the loop benchmarks and print their figures. */
export async function benchLoop(): Promise<void> {
  await withRunCleanup(async (runIds) => {
    await benchOwnCost(runIds);
    await benchStartup(runIds, { model: MODEL });
  });
}

/** Only the own cost per iteration and the sandbox's processes (`make bench BENCH=iteration`), the loop section's first part. */
export async function benchLoopIteration(): Promise<void> {
  await withRunCleanup((runIds) => benchOwnCost(runIds));
}

/** Only the start figure (`make bench BENCH=startup`), the loop section's second part. */
export async function benchLoopStartup(): Promise<void> {
  await withRunCleanup((runIds) => benchStartup(runIds, { model: MODEL }));
}

/** Run `body`, then remove whatever the runs it names left on the engine (and say so). */
async function withRunCleanup(body: (runIds: string[]) => Promise<void>): Promise<void> {
  const runIds: string[] = [];
  try {
    await body(runIds);
  } finally {
    // every run removes its own sandbox; anything left is a bug, removed (and said) here
    const left = await new DockerSandboxEngine({ docker: createDockerClient(benchEnv()) }).gc({ runIds });
    if (left.containers.length + left.volumes.length > 0) {
      process.stdout.write(
        `WARNING: runs left ${left.containers.length} container(s) and ${left.volumes.length} volume(s) behind; removed now\n`,
      );
    }
  }
}

/** (a) The loop's own cost per iteration: everything but the model's generation and the test command's own time. */
async function benchOwnCost(runIds: string[]): Promise<void> {
  heading(
    `loop: own cost per iteration (${RUNS} runs x ${ITERATIONS} iterations via run(), python fixture, test command \`${TEST_COMMAND}\`)`,
  );
  const server = await startScriptedOllama((n) => fenced(counterPatch(n)), MODEL, ANSWER_MS);
  const repo = await makeGitRepo(pythonProjectFiles());
  const scratch = await mkdtemp(join(tmpdir(), 'hb-bench-loop-'));
  const log = new DockerEventLog();
  try {
    const directive = join(scratch, 'directive.md');
    await writeFile(directive, 'Bump VALUE in calc/counter.py by one.\n');
    // the reference is sampled before the runs and after them, so both see the machine as it was
    const bareBefore = await bareIterations(scratch, BARE_N / 2);
    await log.start();
    const states: RunState[] = [];
    for (let r = 0; r < RUNS; r++) {
      server.reset();
      const flags = {
        tools: { test_command: TEST_COMMAND },
        loop: { max_iterations: ITERATIONS },
        model: modelFlags(server.url),
      };
      const { state } = await run({ repo, directive, env: benchEnv(), flags });
      runIds.push(state.run_id);
      const applied = state.iterations.filter((i) => i.outcome === 'applied').length;
      if (state.reason !== 'max_iterations' || applied !== ITERATIONS) {
        process.stdout.write(
          `WARNING: run ${state.run_id} ended ${state.status}/${state.reason} with ${applied}/${ITERATIONS} patches applied\n`,
        );
      }
      states.push(state);
    }
    await log.stop();
    const bare = [...bareBefore, ...(await bareIterations(scratch, BARE_N / 2))];
    printOwnCost(states, bare, log.events);
    await benchSandboxProcesses();
  } finally {
    await log.stop();
    await server.close();
    await removeDir(repo);
    await removeDir(scratch);
  }
}

/** Samples of the bare reference (half before the runs, half after). */
const BARE_N = 40;

/** The reference: one iteration bare on the host (git apply --check, git apply, git add + commit, the test command). */
async function bareIterations(scratch: string, n: number): Promise<number[]> {
  const repo = await makeGitRepo(pythonProjectFiles());
  const patch = join(scratch, 'bare.patch');
  let i = 0;
  try {
    return await sample(n, async () => {
      i += 1;
      await writeFile(patch, counterPatch(i));
      await git(repo, ['apply', '--check', patch]);
      await git(repo, ['apply', patch]);
      await git(repo, ['add', '-A']);
      await git(repo, ['commit', '--quiet', '--no-verify', '-m', `hammer: iteration ${i} - bump the counter`]);
      await execFileP('sh', ['-c', TEST_COMMAND], { cwd: repo }).catch(() => undefined);
    });
  } finally {
    await removeDir(repo);
  }
}

function printOwnCost(states: RunState[], bare: number[], events: DockerEvent[]): void {
  const phase = (it: Iteration, p: IterationPhase): number => it.phases[p]?.duration_ms ?? 0;
  const testOwn = (it: Iteration): number => it.test?.duration_ms ?? 0;
  const phaseSum = (it: Iteration): number => ITERATION_PHASES.reduce((t, p) => t + phase(it, p), 0);
  const rows = states.flatMap((s) =>
    s.iterations.filter((it) => it.outcome === 'applied').map((it) => ({ s, it, wall: iterationWall(s, it) })),
  );
  const warm = rows.filter((r) => r.it.n > 1);
  const cold = rows.filter((r) => r.it.n === 1);
  const reference = { name: 'bare on the host: apply --check, apply, add+commit, sh -c false', samples: bare };
  const of = (f: (r: (typeof rows)[number]) => number, set = warm): number[] => set.map(f);

  process.stdout.write('(iteration 1 of each run is left out as cold; "warm" = iterations 2..6)\n');
  process.stdout.write(
    `(the scripted model answers after ${ANSWER_MS} ms, where a real one takes seconds: what hammer-box does while it waits, the sandbox's reset, is not own cost)\n`,
  );
  printFigure({
    name: 'own cost, warm (sum of phases - generate - test cmd)',
    samples: of((r) => phaseSum(r.it) - phase(r.it, 'generate') - testOwn(r.it)),
    reference,
    targetMedian: 150,
  });
  printFigure({
    name: 'own cost, warm (iteration wall - generate - test cmd)',
    samples: of((r) => r.wall - phase(r.it, 'generate') - testOwn(r.it)),
    reference,
    targetMedian: 150,
  });
  // `false` does no work, so this bounds the own cost from above whatever test.duration_ms holds
  printFigure({
    name: 'upper bound, warm (iteration wall - generate)',
    samples: of((r) => r.wall - phase(r.it, 'generate')),
    reference,
    targetMedian: 150,
  });
  printFigure({
    name: 'for context: own cost of iteration 1 (phases)',
    samples: of((r) => phaseSum(r.it) - phase(r.it, 'generate') - testOwn(r.it), cold),
  });

  process.stdout.write('per phase, warm iterations:\n');
  for (const p of ITERATION_PHASES) {
    if (p === 'test') {
      printFigure({
        name: '  test phase - test.duration_ms (overhead outside it)',
        samples: of((r) => phase(r.it, 'test') - testOwn(r.it)),
      });
      printFigure({ name: '  test.duration_ms (the command, as recorded)', samples: of((r) => testOwn(r.it)) });
    } else {
      const label = p === 'generate' ? '  generate (scripted server; excluded from own cost)' : `  ${p}`;
      printFigure({ name: label, samples: of((r) => phase(r.it, p)) });
    }
  }
  printFigure({
    name: '  between phases (state and artifact writes, events)',
    samples: of((r) => r.wall - phaseSum(r.it)),
  });

  printDockerCalls(
    warm.map((r) => ({
      container: r.s.sandbox?.container_id ?? '',
      from: ms(r.it.started_at),
      to: ms(r.it.started_at) + r.wall,
    })),
    events,
  );
  printFigure({
    name: 'for context: prepare phase (workbench, sandbox, copy in, init)',
    samples: states.map((s) => s.phases.prepare?.duration_ms ?? Number.NaN),
  });
  printFigure({
    name: 'for context: baseline phase',
    samples: states.map((s) => s.phases.baseline?.duration_ms ?? Number.NaN),
  });
}

/** Wall time of an iteration: from its start to the next iteration's start (or delivery, after the last). */
function iterationWall(s: RunState, it: Iteration): number {
  const next = s.iterations.find((i) => i.n === it.n + 1)?.started_at ?? s.phases.deliver?.started_at;
  return next ? ms(next) - ms(it.started_at) : Number.NaN;
}

/** Docker execs and archive calls per warm iteration, and what one iteration asked for. */
function printDockerCalls(windows: { container: string; from: number; to: number }[], events: DockerEvent[]): void {
  if (events.length === 0) {
    process.stdout.write('docker calls per iteration: no engine events seen (docker events unavailable?)\n');
    return;
  }
  const per = windows.map((w) => events.filter((e) => e.container === w.container && e.at >= w.from && e.at < w.to));
  if (per.every((list) => list.length === 0)) {
    process.stdout.write(
      'docker calls per warm iteration: none (every command goes through the resident runner, over the one exec it started with)\n',
    );
    return;
  }
  const execs = per.map((list) => list.filter((e) => e.action.startsWith('exec_start')).length);
  const archives = per.map(
    (list) => list.filter((e) => e.action === 'extract-to-dir' || e.action === 'archive-path').length,
  );
  process.stdout.write(
    `docker calls per warm iteration: median ${median(execs)} execs, ${median(archives)} archive transfers (n=${per.length})\n`,
  );
  const example = (per.find((list) => list.length > 0) ?? []).filter((e) => e.action !== 'exec_die');
  process.stdout.write(`  one iteration, in order: ${example.map((e) => callName(e.action)).join(', ')}\n`);
}

/** A short name for an engine event: the runner op, the command's first words, or the archive call. */
export function callName(action: string): string {
  if (!action.startsWith('exec_start')) return action;
  // the runner script travels in argv before `hammer-runner <op>`, and may mention it itself
  const at = action.lastIndexOf(' hammer-runner ');
  if (at >= 0) return `runner ${action.slice(at + ' hammer-runner '.length).split(/\s/, 1)[0]}`;
  return `exec ${action.slice('exec_start: '.length).trim().split(/\s+/).slice(0, 3).join(' ').slice(0, 40)}`;
}
