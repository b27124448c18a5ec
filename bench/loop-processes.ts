// Processes the sandbox starts per loop iteration (a deterministic figure, beside the loop's own
// cost): the runner operations of one iteration (the reset sent ahead while the model answers, then
// the step: check, apply, commit and the test command `false`) driven through SandboxRepo on a real
// sandbox, counted by the pids the sandbox's own pid namespace hands out between two probes (each
// probe is one `sh` through the resident runner; pids are handed out in order, under runc and gVisor).
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bootstrapBase, ensureToolchainImage } from '../src/images/index.js';
import { SandboxRepo } from '../src/loop/sandbox-repo.js';
import { BASE_SANDBOX_ENV } from '../src/loop/sandbox-spec.js';
import { createDockerClient, DockerSandboxEngine, type Sandbox } from '../src/sandbox/index.js';
import { benchEnv, benchRuntime, counterPatch, pythonProjectFiles } from './fixtures.js';
import { median } from './lib.js';

const ITERATIONS = 6;

/** Print how many processes the sandbox starts per iteration: the reset ahead, the step, and both. */
export async function benchSandboxProcesses(): Promise<void> {
  const client = createDockerClient(benchEnv());
  const engine = new DockerSandboxEngine({ docker: client });
  await bootstrapBase(client);
  const image = (await ensureToolchainImage(client, 'python')).tag;
  // the tree as the loop copies it in: the files, no .git
  const scratch = await mkdtemp(join(tmpdir(), 'hb-bench-procs-'));
  for (const [name, content] of Object.entries(pythonProjectFiles())) {
    await mkdir(dirname(join(scratch, name)), { recursive: true });
    await writeFile(join(scratch, name), content);
  }
  let sandbox: Sandbox | undefined;
  try {
    sandbox = await engine.create({
      image,
      runId: `bench-${randomBytes(4).toString('hex')}`,
      user: '10001:10001',
      env: { ...BASE_SANDBOX_ENV },
      limits: {
        memoryBytes: 1024 ** 3,
        nanoCpus: 1e9,
        pidsLimit: 256,
        tmpBytes: 64 * 1024 ** 2,
        workspaceBytes: 256 * 1024 ** 2,
        nofile: 4096,
        runtime: benchRuntime(),
      },
    });
    await sandbox.copyIn({ kind: 'dir', path: scratch });
    const repo = new SandboxRepo(sandbox, { execTimeoutMs: 120_000, maxOutputBytes: 1024 * 1024 });
    let head = (await repo.init()).commit;
    const box = sandbox;
    // the pid the next process gets; the probe itself is one process (sh, whose echo is a builtin)
    const nextPid = async (): Promise<number> =>
      Number((await box.exec(['sh', '-c', 'echo $$'], { timeoutMs: 60_000 })).stdout.text.trim()) + 1;
    const resets: number[] = [];
    const steps: number[] = [];
    for (let n = 1; n <= ITERATIONS + 1; n++) {
      // as the loop does: the reset goes ahead while the model answers, the step follows
      const p0 = await nextPid();
      repo.resetAhead(head);
      // the reset's command is queued a moment later: the probe goes after it
      await new Promise((done) => setImmediate(done));
      const p1 = await nextPid();
      const r = await repo.step(
        head,
        `iter-${n}.patch`,
        [{ flags: [], patch: counterPatch(n) }],
        `hammer: iteration ${n}`,
        { command: 'false', timeoutMs: 60_000 },
      );
      const p2 = await nextPid();
      if (r.kind !== 'applied') throw new Error(`iteration ${n}: the step was refused: ${r.message}`);
      head = r.commit;
      // iteration 1 has no reset ahead (nothing ran yet): left out, as the loop section leaves it out
      if (n === 1) continue;
      resets.push(p1 - p0 - 1);
      steps.push(p2 - p1 - 1);
    }
    const both = resets.map((r, i) => r + steps[i]!);
    process.stdout.write(
      `sandbox processes per warm iteration (pids handed out, n=${both.length}): ${median(both)} (the reset ahead ${median(resets)}, the step ${median(steps)}: check, apply, commit, test \`false\`)\n`,
    );
  } finally {
    await sandbox?.destroy();
    await rm(scratch, { recursive: true, force: true });
  }
}
