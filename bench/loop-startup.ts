// Loop benchmark (issue 3): the time from spawning the built `hammer-box run` to the model server's
// first request, on a 5,000-file 50 MB repo with the image cached, with the prepare phase split by
// the engine's own events.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { packageRoot } from '../src/paths.js';
import type { Iteration, RunState } from '../src/state/run-state.js';
import { RunStore } from '../src/state/store.js';
import { loadStateKey } from '../src/state/state-key.js';
import {
  benchEnv,
  DockerEventLog,
  git,
  largeRepoFiles,
  makeGitRepo,
  removeDir,
  safeJson,
  startScriptedOllama,
  type ScriptedOllama,
} from './fixtures.js';
import { heading, printFigure } from './lib.js';
import { callName } from './loop.js';

const execFileP = promisify(execFile);
const STARTUP_N = 5;
const ms = (iso: string): number => Date.parse(iso);

const RunJsonSchema = z.object({ run_id: z.string(), status: z.string(), reason: z.string().nullable() });

/** (b) Time from spawning the built CLI to the model server's first /api/chat, 5,000-file 50 MB repo, image cached. */
export async function benchStartup(runIds: string[], opts: { model: string }): Promise<void> {
  heading(
    `loop: \`hammer-box run\` to the first model request (5,000-file 50 MB repo, image cached, test command \`true\`)`,
  );
  const root = packageRoot();
  const cli = join(root, 'dist', 'cli', 'main.js');
  if (!existsSync(cli)) await execFileP('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: root });
  const made = performance.now();
  const repo = await makeGitRepo(largeRepoFiles(5000, 50 * 1024 ** 2), 'hb-bench-large-');
  // a real 5,000-file repository is packed (a clone, or git gc); a fresh commit leaves 5,000 loose objects
  await git(repo, ['gc', '--quiet']).catch(async (err: unknown) => {
    await removeDir(repo);
    throw err;
  });
  // started once nothing before it can fail: an open server would keep the bench from exiting
  const server = await startScriptedOllama(() => 'NO_CHANGES', opts.model);
  process.stdout.write(
    `(fixture repo generated and committed in ${((performance.now() - made) / 1000).toFixed(1)} s; one unmeasured warm-up run first)\n`,
  );
  const scratch = await mkdtemp(join(tmpdir(), 'hb-bench-startup-'));
  const store = new RunStore({ dir: join(repo, '.hammer'), key: await loadStateKey() });
  const rows: { total: number; state: RunState; spawnedAt: number }[] = [];
  const log = new DockerEventLog();
  try {
    const directive = join(scratch, 'directive.md');
    await writeFile(directive, 'Make sure pkg1/mod1/file1.py is tidy.\n');
    await log.start();
    for (let i = 0; i <= STARTUP_N; i++) {
      server.reset();
      const r = await oneStartup(cli, root, repo, directive, server, opts.model);
      const state = await store.read(r.runId);
      if (i > 0) rows.push({ total: r.firstChat - r.spawned, state, spawnedAt: r.spawnedAt });
    }
  } finally {
    // every run of this repo, also one whose --json never came
    runIds.push(...(await store.list().catch(() => ({ runs: [] }))).runs.map((s) => s.run_id));
    await log.stop();
    await server.close();
    await removeDir(repo);
    await removeDir(scratch);
  }
  const it1 = (s: RunState): Iteration | undefined => s.iterations.find((i) => i.n === 1);
  printFigure({ name: 'spawn -> first /api/chat', samples: rows.map((r) => r.total), targetMedian: 2000 });
  process.stdout.write(
    `    before: ${BEFORE.figure} (${BEFORE.where}); goal <= 2 s. Compare on a machine as idle as that one (see the load average above)\n`,
  );
  process.stdout.write('breakdown (on the path to the first request):\n');
  printFigure({
    name: '  node start, modules, config, repo checks (-> state created)',
    samples: rows.map((r) => ms(r.state.created_at) - r.spawnedAt),
  });
  printFigure({
    name: '  state created -> prepare (setup phase: image resolve, guarantees)',
    samples: rows.map((r) =>
      r.state.phases.prepare ? ms(r.state.phases.prepare.started_at) - ms(r.state.created_at) : Number.NaN,
    ),
  });
  printFigure({
    name: '  prepare (workbench, sandbox create+verify, copy in)',
    samples: rows.map((r) => r.state.phases.prepare?.duration_ms ?? Number.NaN),
  });
  const splits = rows.map((r) => prepareSplit(r.state, log));
  for (const [key, label] of Object.entries(SPLIT_LABELS)) {
    printFigure({ name: `    ${label}`, samples: splits.map((x) => x[key as keyof PrepareSplit]) });
  }
  printFigure({
    name: '  baseline (test run in the sandbox)',
    samples: rows.map((r) => r.state.phases.baseline?.duration_ms ?? Number.NaN),
  });
  printFigure({
    name: '  iteration 1 read_state (prompt from state and git)',
    samples: rows.map((r) => it1(r.state)?.phases.read_state?.duration_ms ?? Number.NaN),
  });
  process.stdout.write('off the path (starts after the baseline, while the prompt is built and the model answers):\n');
  if (!splits.every((x) => Number.isNaN(x.initDone)))
    printFigure({
      name: '  baseline end -> base commit made (host pack, its copy in, runner init)',
      samples: splits.map((x) => x.initDone),
    });
  if (splits.every((x) => Number.isNaN(x.init)))
    process.stdout.write(
      '    (not measured: the runner init goes through the resident runner, which the engine does not see as an exec)\n',
    );
  else printFigure({ name: '    of which the runner init exec', samples: splits.map((x) => x.init) });
}

/** The figure this section printed before the start was cut, and where it came from. */
const BEFORE = {
  figure: '3.56 s when the start was first measured, 1.81 s before the base pack (runner init then 0.79 s)',
  where: 'make bench on an idle 2-core machine, default runtime',
};

/** Where the prepare phase's time goes, from the engine's events for the run's container (epoch ms). */
interface PrepareSplit {
  toCreate: number;
  toStart: number;
  toCopied: number;
  rest: number;
  /** The runner's init exec: after the baseline, so not part of prepare. */
  init: number;
  /** From the baseline's end to the init exec's end: everything the sandbox's base commit costs. */
  initDone: number;
}

const SPLIT_LABELS: Record<Exclude<keyof PrepareSplit, 'init' | 'initDone'>, string> = {
  toCreate: 'phase start -> container created (volume, image inspect, create)',
  toStart: 'created -> started (verify before start)',
  toCopied: 'started -> repo extracted (verify after start, tar stream of the base)',
  rest: 'rest of prepare (after the extraction)',
};

function prepareSplit(s: RunState, log: DockerEventLog): PrepareSplit {
  const p = s.phases.prepare;
  const evs = log.of(s.sandbox?.container_id ?? '');
  const at = (pred: (a: string) => boolean): number => evs.find((e) => pred(e.action))?.at ?? Number.NaN;
  if (!p || evs.length === 0)
    return {
      toCreate: Number.NaN,
      toStart: Number.NaN,
      toCopied: Number.NaN,
      rest: Number.NaN,
      init: Number.NaN,
      initDone: Number.NaN,
    };
  const p0 = ms(p.started_at);
  const created = at((a) => a === 'create');
  const started = at((a) => a === 'start');
  const copied = at((a) => a === 'extract-to-dir');
  const initStart = evs.find((e) => e.action.startsWith('exec_start') && callName(e.action) === 'runner init');
  const initEnd = evs.find((e) => e.action === 'exec_die' && e.execId === initStart?.execId)?.at ?? Number.NaN;
  const init = initEnd - (initStart?.at ?? Number.NaN);
  const b = s.phases.baseline;
  const initDone = b ? initEnd - (ms(b.started_at) + b.duration_ms) : Number.NaN;
  const split = { toCreate: created - p0, toStart: started - created, toCopied: copied - started, init, initDone };
  return { ...split, rest: p.duration_ms - split.toCreate - split.toStart - split.toCopied };
}

/** Spawn `hammer-box run --json` and wait for it to end; returns when it was spawned and when the model was first asked. */
async function oneStartup(
  cli: string,
  cwd: string,
  repo: string,
  directive: string,
  server: ScriptedOllama,
  model: string,
) {
  let firstChat = Number.NaN;
  server.onChat = () => void (Number.isNaN(firstChat) && (firstChat = performance.now()));
  const args = [
    cli,
    'run',
    '--repo',
    repo,
    '--directive',
    directive,
    '--test-command',
    'true',
    '--max-iterations',
    '1',
    '--provider',
    'ollama',
    '--model',
    model,
    '--llm-url',
    server.url,
    '--json',
  ];
  const spawnedAt = Date.now();
  const spawned = performance.now();
  const child = spawn(process.execPath, args, { cwd, env: benchEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => void (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => void (stderr = (stderr + c).slice(-4000)));
  const code = await new Promise<number | null>((done, fail) => child.once('error', fail).once('close', done));
  server.onChat = undefined;
  const parsed = RunJsonSchema.safeParse(safeJson(stdout));
  if (!parsed.success || Number.isNaN(firstChat)) {
    throw new Error(
      `hammer-box run exited ${code} without ${parsed.success ? 'asking the model' : 'its --json result'}:\n${stderr}`,
    );
  }
  return { runId: parsed.data.run_id, spawned, spawnedAt, firstChat };
}
