// Rootful Podman behind its Docker-compatible API (where Podman is installed, as from Debian's
// `apt-get install podman catatonit`): what its inspect reports for a container made with the
// sandbox's create options (the forms hammer-box's verifier does not map yet), doctor's FAIL, and a
// run refused before it writes any state. Podman gets its own storage and socket under a temp dir.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctor } from '../../src/api/doctor.js';
import { run } from '../../src/api/run.js';
import { isHammerError } from '../../src/errors.js';
import {
  containerCreateOptions,
  createDockerClient,
  verifyHardening,
  type SandboxSpec,
} from '../../src/sandbox/index.js';
import { createPythonFixture, type PythonFixture } from '../helpers/python-fixture.js';
import { modelFlags, runIdsIn, testEnv } from './run-support.js';

const available =
  process.getuid?.() === 0 &&
  spawnSync('podman', ['--version']).status === 0 &&
  spawnSync('test', ['-x', '/usr/libexec/podman/catatonit']).status === 0;

// `make test PODMAN=1` (CI) requires Podman: a machine without it fails here instead of skipping
const required = process.env['HAMMER_PODMAN'] === 'required';

let dir: string;
let service: ChildProcess | undefined;
let env: NodeJS.ProcessEnv;

/** Podman's storage under the temp dir (vfs: no overlay mounts left behind). */
function storage(): string[] {
  return ['--root', join(dir, 'root'), '--runroot', join(dir, 'run'), '--storage-driver', 'vfs'];
}

function podman(args: string[], input?: Buffer): string {
  const r = spawnSync('podman', [...storage(), ...args], { input });
  if (r.status !== 0) throw new Error(`podman ${args.join(' ')}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

beforeAll(async () => {
  if (!available && required)
    throw new Error('PODMAN=1 requires rootful Podman with /usr/libexec/podman/catatonit: run `make podman`');
  if (!available) return;
  dir = await mkdtemp(join(tmpdir(), 'hb-podman-'));
  const socket = join(dir, 'podman.sock');
  service = spawn('podman', [...storage(), 'system', 'service', '--time=0', `unix://${socket}`], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    if (
      await access(socket).then(
        () => true,
        () => false,
      )
    )
      break;
    await sleep(100);
  }
  env = testEnv({ DOCKER_HOST: `unix://${socket}` });
  // a two-file image: the host's dash as /bin/sh and sleep, with their libraries
  const rootfs = join(dir, 'rootfs');
  const script = `set -e; mkdir -p "$1/bin" "$1/tmp" "$1/workspace"; cp /usr/bin/dash "$1/bin/sh"; cp /usr/bin/sleep "$1/bin/sleep"
for l in $( (ldd /usr/bin/dash; ldd /usr/bin/sleep) | grep -o '/[^ ]*' | sort -u); do mkdir -p "$1$(dirname "$l")"; cp -L "$l" "$1$l"; done
tar -C "$1" -c .`;
  const tar = spawnSync('bash', ['-c', script, 'mk', rootfs], { maxBuffer: 64 * 1024 * 1024 });
  if (tar.status !== 0) throw new Error(tar.stderr.toString());
  podman(['import', '--change', 'ENV PATH=/bin', '-', 'localhost/hb-mini:1'], tar.stdout);
}, 120_000);

afterAll(async () => {
  if (service && service.exitCode === null) {
    const exited = new Promise((resolve) => service!.once('exit', resolve));
    service.kill('SIGTERM');
    await exited;
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!available && !required)('rootful Podman behind its Docker-compatible API', () => {
  it("reports the sandbox's hardening in forms the verifier does not map yet", async () => {
    const docker = createDockerClient(env);
    const spec: SandboxSpec = {
      image: 'localhost/hb-mini:1',
      runId: 'podman-probe',
      user: '10001:10001',
      env: { HOME: '/tmp' },
      limits: {
        memoryBytes: 256 * 1024 * 1024,
        nanoCpus: 1e9,
        pidsLimit: 64,
        tmpBytes: 16 * 1024 * 1024,
        workspaceBytes: 0,
        nofile: 1024,
        runtime: '',
      },
    };
    const names = { container: 'hb-podman-probe', volume: 'hb-podman-probe-ws' };
    await docker.createVolume({ Name: names.volume });
    const container = await docker.createContainer(containerCreateOptions(spec, names, {}));
    try {
      const missing = verifyHardening(await container.inspect(), {
        spec,
        volumeName: names.volume,
        imageEnvKeys: ['PATH'],
      });
      // each is a form of what was asked for, not its absence; runs refuse Podman until each is mapped
      expect(missing).toEqual(
        expect.arrayContaining([
          'CapDrop ALL',
          `ulimit nofile ${spec.limits.nofile}`,
          'ulimit core 0',
          'no bind mounts',
          'environment from the allowlist only (unexpected: TERM, container)',
        ]),
      );
    } finally {
      await container.remove({ force: true });
      await docker.getVolume(names.volume).remove();
    }
  });

  it('doctor FAILs the engine, naming Podman and why', async () => {
    const report = await doctor({ env });
    const engine = report.checks.find((c) => c.name === 'engine');
    expect(engine?.status).toBe('fail');
    expect(engine?.detail).toMatch(/^Podman \d+\.\d+\.\d+ .*hammer-box does not verify its sandbox hardening/);
    expect(engine?.hint).toMatch(/^run hammer-box against Docker Engine/);
    expect(report.ok).toBe(false);
  });

  it('a run refuses before it writes any state, with a hint that is not resume', async () => {
    let fx: PythonFixture | undefined;
    try {
      fx = await createPythonFixture();
      const err: unknown = await run({
        repo: fx.repo.path,
        directive: fx.directive,
        env,
        flags: modelFlags({ url: 'http://127.0.0.1:9' }),
      }).then(
        () => new Error('the run resolved'),
        (e: unknown) => e,
      );
      if (!isHammerError(err)) throw err;
      expect(err.code).toBe('SANDBOX_HARDENING');
      expect(err.message).toMatch(/^the engine is Podman /);
      expect(err.hint).toMatch(/^run hammer-box against Docker Engine/);
      expect(err.hint).not.toContain('resume');
      expect(await runIdsIn(fx.repo.path)).toEqual([]);
    } finally {
      await fx?.cleanup();
    }
  });
});
