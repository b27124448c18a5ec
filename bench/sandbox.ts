// Sandbox benchmarks: a warm exec round trip (through the resident runner, and one exec per command), and create + verify + copy in a 5,000-file, 50 MB
// repo, each beside the docker CLI doing the same. Everything created here is destroyed here.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { bootstrapBase, ensureToolchainImage } from '../src/images/index.js';
import { createDockerClient, DockerSandboxEngine, type Sandbox, type SandboxSpec } from '../src/sandbox/index.js';
import { benchRuntime } from './fixtures.js';
import { heading, median, printFigure, sample } from './lib.js';

const run = promisify(execFile);
const docker = (...args: string[]) => run('docker', args, { maxBuffer: 16 * 1024 * 1024 });
/** `docker run` flags for the runtime the benchmarks use, so the CLI reference runs on it too. */
const runtimeFlags = (): string[] => (benchRuntime() ? ['--runtime', benchRuntime()] : []);

/** A repo-like tree: `files` files spread over directories, `bytes` in total (incompressible content). */
async function makeRepo(root: string, files: number, bytes: number): Promise<void> {
  const per = Math.floor(bytes / files);
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, `pkg${i % 50}`, `mod${i % 7}`);
    if (i < 350) await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `file${i}.py`), randomBytes(per));
  }
}

function spec(image: string): SandboxSpec {
  return {
    image,
    runId: `bench-${randomBytes(4).toString('hex')}`,
    user: '10001:10001',
    env: { HOME: '/tmp', LANG: 'C.UTF-8' },
    limits: {
      memoryBytes: 1024 ** 3,
      nanoCpus: 1e9,
      pidsLimit: 256,
      tmpBytes: 64 * 1024 ** 2,
      workspaceBytes: 256 * 1024 ** 2,
      nofile: 4096,
      runtime: benchRuntime(),
    },
  };
}

/** Time `fn` n times after one warm-up; the cleanup it returns runs untimed. */
async function timedWithCleanup(n: number, fn: () => Promise<() => Promise<unknown>>): Promise<number[]> {
  await (
    await fn()
  )();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const cleanup = await fn();
    out.push(performance.now() - t0);
    await cleanup();
  }
  return out;
}

/** The python toolchain image; the base image when the toolchain cannot be planned from here. */
async function benchImage(client: ReturnType<typeof createDockerClient>): Promise<string> {
  const base = await bootstrapBase(client);
  try {
    return (await ensureToolchainImage(client, 'python')).tag;
  } catch (err) {
    process.stderr.write(
      `bench: python toolchain image unavailable (${err instanceof Error ? err.message : String(err)}); using ${base.tag}\n`,
    );
    return base.tag;
  }
}

/** Run the sandbox benchmarks and print their figures. */
export async function benchSandbox(): Promise<void> {
  const client = createDockerClient();
  const engine = new DockerSandboxEngine({ docker: client });
  const image = await benchImage(client);
  const made: Sandbox[] = [];
  const cliContainers: string[] = [];
  const repoDir = await mkdtemp(path.join(tmpdir(), 'hb-bench-repo-'));
  try {
    heading('sandbox: warm exec round trip of `true`');
    const sandbox = await engine.create(spec(image));
    made.push(sandbox);
    const ours = await sample(50, () => sandbox.exec(['true'], { timeoutMs: 30_000 }), 3);
    const hostTrue = await sample(50, () => run('true', []), 3);
    printFigure({
      name: 'sandbox.exec(["true"]), resident runner',
      samples: ours,
      reference: { name: 'true spawned on the host (the work itself)', samples: hostTrue },
      targetMedian: Math.round(5 + median(hostTrue)),
    });
    // the fallback for images that cannot run the resident: one docker exec per command
    const perExec = await new DockerSandboxEngine({ docker: client, resident: false }).create(spec(image));
    made.push(perExec);
    const oneExec = await sample(30, () => perExec.exec(['true'], { timeoutMs: 30_000 }), 3);
    const cliExec = await sample(20, () => docker('exec', '-u', '10001:10001', sandbox.id, 'true'), 2);
    printFigure({
      name: 'sandbox.exec(["true"]), one exec per command',
      samples: oneExec,
      reference: { name: 'docker exec <id> true (CLI)', samples: cliExec },
      targetMedian: 60,
    });
    await perExec.destroy();
    const cliRun = await sample(
      5,
      () => docker('run', '--rm', ...runtimeFlags(), '--network', 'none', image, 'true'),
      1,
    );
    printFigure({ name: 'for context: docker run --rm <image> true (CLI)', samples: cliRun });
    await sandbox.destroy();

    heading('sandbox: create + start + verify + copy in a 5,000-file, 50 MB repo');
    await makeRepo(repoDir, 5000, 50 * 1024 * 1024);
    // Only creation and the copy are timed; removal happens after the clock stops, on both sides.
    const create = await timedWithCleanup(7, async () => {
      const s = await engine.create(spec(image));
      made.push(s);
      await s.copyIn({ kind: 'dir', path: repoDir });
      return () => s.destroy();
    });
    const cli = await timedWithCleanup(7, async () => {
      const { stdout } = await docker(
        'run',
        '-d',
        ...runtimeFlags(),
        '--network',
        'none',
        '--label',
        'hammer-box.bench=1',
        image,
        'sleep',
        'infinity',
      );
      const id = stdout.trim();
      cliContainers.push(id);
      await docker('cp', `${repoDir}/.`, `${id}:/workspace`);
      return async () => void (await docker('rm', '-f', id));
    });
    printFigure({
      name: 'engine.create + copyIn(dir)',
      samples: create,
      reference: { name: 'docker run -d + docker cp (CLI)', samples: cli },
      targetMedian: 1500,
    });
  } finally {
    for (const s of made) await s.destroy().catch(() => undefined);
    for (const id of cliContainers) await docker('rm', '-f', id).catch(() => undefined);
    await rm(repoDir, { recursive: true, force: true });
  }
}
