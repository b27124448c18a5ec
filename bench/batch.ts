// `hammer-box batch` at scale: 32 fixture tasks through runBatch() (the API behind the command) with a
// scripted model, at --jobs 1, 4 and 8: wall time, throughput, failures, anything left on the engine,
// and the host's cost per task (CPU and wall) beside a single run() of the same task. Then, when
// HAMMER_KUBECONFIG names a cluster, the same batch on it beside Docker in the same run.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBatch } from '../src/batch/batch.js';
import type { Report } from '../src/batch/report-schema.js';
import { run } from '../src/api/run.js';
import { createDockerClient, DockerSandboxEngine } from '../src/sandbox/index.js';
import {
  benchEnv,
  counterPatch,
  makeGitRepo,
  pythonProjectFiles,
  removeDir,
  startScriptedOllama,
  type ScriptedOllama,
} from './fixtures.js';
import { heading, median, printFigure } from './lib.js';

const TASKS = 32;
const LEVELS = [1, 4, 8];
const MODEL = 'bench-model';
/** How long the scripted model takes per answer (a real one takes seconds). */
const ANSWER_MS = 300;
const SINGLE_RUNS = 3;
const DIRECTIVE = 'Set VALUE in calc/counter.py to 1.\n';
// fails at the base (VALUE = 0), passes once the model's patch is in
const TEST_COMMAND = 'python3 -c "import calc.counter as c; raise SystemExit(0 if c.VALUE == 1 else 1)"';
const fenced = (patch: string): string => `Set it.\n\n\`\`\`diff\n${patch}\`\`\`\n`;

/** CPU milliseconds (user + system) this process used while `work` ran, and the wall milliseconds. */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; cpuMs: number; wallMs: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await work();
  const cpu = process.cpuUsage(cpu0);
  return { result, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - t0 };
}

/** Run the batch benchmark and print its figures. */
export async function benchBatch(): Promise<void> {
  heading(
    `batch: ${TASKS} tasks via runBatch() at --jobs ${LEVELS.join(', ')} (python fixture, 1 iteration each, a scripted model answering in ${ANSWER_MS} ms, --model-jobs = --jobs)`,
  );
  const engine = new DockerSandboxEngine({ docker: createDockerClient(benchEnv()) });
  const repo = await makeGitRepo(pythonProjectFiles());
  const server: ScriptedOllama = await startScriptedOllama(() => fenced(counterPatch(1)), MODEL, ANSWER_MS);
  const work = await mkdtemp(join(tmpdir(), 'hb-bench-batch-'));
  const flags = {
    model: { provider: 'ollama', name: MODEL, url: server.url, retries: 0 },
    tools: { test_command: TEST_COMMAND },
    loop: { max_iterations: 2 },
  };
  try {
    const tasksFile = join(work, 'tasks.jsonl');
    const lines = Array.from({ length: TASKS }, (_, i) =>
      JSON.stringify({ id: `task-${String(i + 1).padStart(2, '0')}`, repo, commit: 'main', directive: DIRECTIVE }),
    );
    await writeFile(tasksFile, `${lines.join('\n')}\n`);

    // the reference: the same task as one run() in the repository, warm (one unmeasured run first)
    const single = { cpuMs: [] as number[], wallMs: [] as number[] };
    for (let i = 0; i <= SINGLE_RUNS; i++) {
      const m = await measured(() =>
        run({ repo, directiveText: DIRECTIVE, directive: 'bench', env: benchEnv(), flags }),
      );
      if (m.result.state.status !== 'stable')
        process.stdout.write(
          `    single run ${m.result.state.run_id}: ${m.result.state.status}/${m.result.state.reason}\n`,
        );
      await engine.gc({ runIds: [m.result.state.run_id] });
      if (i === 0) continue;
      single.cpuMs.push(m.cpuMs);
      single.wallMs.push(m.wallMs);
    }

    let dockerAtClusterJobs: { wallMs: number; walls: number[] } | undefined;
    for (const jobs of LEVELS) {
      const out = join(work, `out-${jobs}`);
      const m = await measured(() =>
        runBatch({
          tasksFile,
          out,
          jobs,
          modelJobs: jobs,
          taskTimeoutS: 600,
          resume: false,
          retry: [],
          env: benchEnv(),
          flags,
          version: 'bench',
        }),
      );
      const report: Report = m.result.report;
      const runIds = report.tasks.flatMap((t) => t.attempts.flatMap((a) => (a.run_id ? [a.run_id] : [])));
      const left = await engine.gc({ runIds });
      const failures = report.tasks.filter((t) => t.status !== 'stable');
      const walls = report.tasks.flatMap((t) => t.attempts.map((a) => a.wall_ms));
      process.stdout.write(
        `--jobs ${jobs}: wall ${(m.wallMs / 1000).toFixed(1).padStart(5)} s, throughput ${((TASKS / m.wallMs) * 60_000).toFixed(1)} tasks/min, ` +
          `failures ${failures.length}, leftovers ${left.containers.length} container(s) ${left.volumes.length} volume(s)\n`,
      );
      for (const f of failures.slice(0, 3))
        process.stdout.write(
          `    failure: ${f.id}: ${f.status} ${f.attempts.at(-1)?.error?.message ?? f.attempts.at(-1)?.reason ?? ''}\n`,
        );
      printFigure({
        name: `  host CPU per task (--jobs ${jobs})`,
        samples: [m.cpuMs / TASKS],
        reference: { name: 'one run() of the task', samples: single.cpuMs },
      });
      printFigure({
        name: `  task wall time (--jobs ${jobs})`,
        samples: walls,
        reference: { name: 'one run() of the task', samples: single.wallMs },
      });
      process.stdout.write(
        `  batch wall per task ${(m.wallMs / TASKS / 1000).toFixed(2)} s vs one run() ${(median(single.wallMs) / 1000).toFixed(2)} s: ratio ${(m.wallMs / TASKS / median(single.wallMs)).toFixed(2)}x\n`,
      );
      if (jobs === CLUSTER_JOBS) dockerAtClusterJobs = { wallMs: m.wallMs, walls };
    }
    await clusterLeg(work, tasksFile, flags, dockerAtClusterJobs);
  } finally {
    await server.close();
    await removeDir(work);
    await removeDir(repo);
  }
}

/** The batch's --jobs on a cluster, and the Docker figure at that level it is printed beside. */
const CLUSTER_JOBS = 4;

/**
 * The same batch on the cluster HAMMER_KUBECONFIG names (HAMMER_KUBE_CONTEXT, HAMMER_KUBE_NAMESPACE,
 * HAMMER_KUBE_REGISTRY as for `make test-kubernetes`), at --jobs CLUSTER_JOBS, beside Docker's; the
 * fixture repository is hammer-box's own, so it runs trusted where the cluster cannot prove "no
 * network". Says so when no cluster is named.
 */
async function clusterLeg(
  work: string,
  tasksFile: string,
  flags: Record<string, unknown>,
  docker: { wallMs: number; walls: number[] } | undefined,
): Promise<void> {
  const kubeconfig = process.env['HAMMER_KUBECONFIG'];
  if (!kubeconfig || !docker) {
    process.stdout.write(
      `batch on a cluster: not measured (no cluster: HAMMER_KUBECONFIG names none; make bench BENCH=batch HAMMER_KUBECONFIG=~/.kube/config measures it beside Docker)\n`,
    );
    return;
  }
  const kubernetes = {
    kubeconfig,
    ...(process.env['HAMMER_KUBE_CONTEXT'] ? { context: process.env['HAMMER_KUBE_CONTEXT'] } : {}),
    ...(process.env['HAMMER_KUBE_NAMESPACE'] ? { namespace: process.env['HAMMER_KUBE_NAMESPACE'] } : {}),
    ...(process.env['HAMMER_KUBE_REGISTRY'] ? { registry: process.env['HAMMER_KUBE_REGISTRY'] } : {}),
  };
  const m = await measured(() =>
    runBatch({
      tasksFile,
      out: join(work, 'out-cluster'),
      jobs: CLUSTER_JOBS,
      modelJobs: CLUSTER_JOBS,
      taskTimeoutS: 900,
      resume: false,
      retry: [],
      env: benchEnv(),
      flags: { ...flags, sandbox: { engine: 'kubernetes', trusted_repo: true }, kubernetes },
      version: 'bench',
    }),
  );
  const report: Report = m.result.report;
  const failures = report.tasks.filter((t) => t.status !== 'stable');
  const walls = report.tasks.flatMap((t) => t.attempts.map((a) => a.wall_ms));
  const perMin = (wallMs: number): number => (TASKS / wallMs) * 60_000;
  process.stdout.write(
    `cluster --jobs ${CLUSTER_JOBS}: wall ${(m.wallMs / 1000).toFixed(1)} s, throughput ${perMin(m.wallMs).toFixed(1)} tasks/min vs Docker ${perMin(docker.wallMs).toFixed(1)} tasks/min: ratio ${(perMin(m.wallMs) / perMin(docker.wallMs)).toFixed(2)}x, failures ${failures.length}\n`,
  );
  for (const f of failures.slice(0, 3))
    process.stdout.write(
      `    failure: ${f.id}: ${f.status} ${f.attempts.at(-1)?.error?.message ?? f.attempts.at(-1)?.reason ?? ''}\n`,
    );
  printFigure({
    name: `  task wall time on the cluster (--jobs ${CLUSTER_JOBS})`,
    samples: walls,
    reference: { name: `the same on Docker (--jobs ${CLUSTER_JOBS})`, samples: docker.walls },
  });
}
