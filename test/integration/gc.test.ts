// gc removes the container and volume of a run whose owner process was killed, leaves a live run's
// sandbox alone, and removes named runs on request; it also removes the network and proxy a killed
// dependency setup left behind.
import { spawn, type ChildProcess } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { isHammerError } from '../../src/errors.js';
import { ensureProxyImage } from '../../src/images/proxy-image.js';
import { openSetupNetwork, setupLabels } from '../../src/images/setup-network.js';
import { DockerSandboxEngine, LABELS, MANAGED_BY, pidAlive, type Sandbox } from '../../src/sandbox/index.js';
import { testEngine, testSpec } from './sandbox-fixtures.js';

const { docker, engine } = testEngine();
const cleanup: Sandbox[] = [];

async function exists(kind: 'container' | 'volume' | 'network', name: string): Promise<boolean> {
  try {
    await (kind === 'container'
      ? docker.getContainer(name).inspect()
      : kind === 'volume'
        ? docker.getVolume(name).inspect()
        : docker.getNetwork(name).inspect());
    return true;
  } catch {
    return false;
  }
}

async function volumeOf(sandbox: Sandbox): Promise<string> {
  const inspect = await docker.getContainer(sandbox.id).inspect();
  return inspect.Mounts[0]?.Name ?? '';
}

afterAll(async () => {
  for (const s of cleanup) await s.destroy();
});

describe('gc', () => {
  it('removes the sandbox of a run whose owner process was killed, and leaves a live run alone', async () => {
    // A real process owns the dead run: created with its pid, then SIGKILLed so it cannot clean up.
    const child: ChildProcess = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const pid = child.pid ?? 0;
    expect(pid).toBeGreaterThan(0);
    const childEngine = new DockerSandboxEngine({ docker, owner: () => ({ pid, host: hostname(), now: new Date() }) });
    const dead = await childEngine.create(await testSpec());
    const deadVolume = await volumeOf(dead);
    const live = await engine.create(await testSpec());
    cleanup.push(live);
    const liveVolume = await volumeOf(live);

    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    expect(pidAlive(pid)).toBe(false);

    const report = await engine.gc();
    const deadName = (await docker.listContainers({ all: true, filters: { id: [dead.id] } }))[0];
    expect(deadName).toBeUndefined();
    expect(report.volumes).toContain(deadVolume);
    expect(report.containers.some((c) => deadVolume.startsWith(c))).toBe(true);
    expect(await exists('container', dead.id)).toBe(false);
    expect(await exists('volume', deadVolume)).toBe(false);

    expect(await exists('container', live.id)).toBe(true);
    expect(await exists('volume', liveVolume)).toBe(true);
    expect(report.volumes).not.toContain(liveVolume);
    const still = await live.exec(['true'], { timeoutMs: 30_000 });
    expect(still.exitCode).toBe(0);
  });

  it('removes a volume of a dead run that never got its container', async () => {
    const name = `hammer-box-gc-orphan-${process.pid}`;
    await docker.createVolume({
      Name: name,
      Labels: {
        [LABELS.managedBy]: MANAGED_BY,
        [LABELS.runId]: 'orphan',
        [LABELS.ownerPid]: '999999999',
        [LABELS.ownerHost]: hostname(),
        [LABELS.created]: new Date().toISOString(),
      },
    });
    const report = await engine.gc();
    expect(report.volumes).toContain(name);
    expect(await exists('volume', name)).toBe(false);
  });

  it('removes the runs it is given by id, owner alive or not', async () => {
    const spec = await testSpec();
    const sandbox = await engine.create(spec);
    const volume = await volumeOf(sandbox);
    const report = await engine.gc({ runIds: [spec.runId] });
    expect(report.volumes).toEqual([volume]);
    expect(report.containers).toHaveLength(1);
    expect(await exists('container', sandbox.id)).toBe(false);
    // A sandbox whose container is gone is broken: a typed error, not a result.
    const err = await sandbox.exec(['true'], { timeoutMs: 30_000 }).catch((e: unknown) => e);
    expect(isHammerError(err, 'SANDBOX_BROKEN')).toBe(true);
    await sandbox.destroy(); // a second removal finds nothing and succeeds
  });

  it("removes the network and proxy of a setup whose process was killed, and leaves a live setup's alone", async () => {
    const proxyImage = await ensureProxyImage(docker);
    const child: ChildProcess = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const pid = child.pid ?? 0;
    expect(pid).toBeGreaterThan(0);
    const open = (owner?: { pid: number; host: string; now: Date }) =>
      openSetupNetwork(docker, {
        proxyImage: proxyImage.id,
        hosts: ['registry.npmjs.org'],
        hostEnv: {},
        ...(owner ? { owner } : {}),
      });
    const killed = await open({ pid, host: hostname(), now: new Date() });
    const live = await open();
    try {
      expect(setupLabels()['hammer-box.purpose']).toBe('env-setup');
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      expect(pidAlive(pid)).toBe(false);

      const report = await engine.gc();
      expect(report.networks).toContain(killed.name);
      expect(report.containers).toContain(`${killed.name}-proxy`);
      expect(await exists('network', killed.name)).toBe(false);
      expect(await exists('container', `${killed.name}-proxy`)).toBe(false);

      expect(report.networks).not.toContain(live.name);
      expect(await exists('network', live.name)).toBe(true);
      expect(await exists('container', `${live.name}-proxy`)).toBe(true);
    } finally {
      await killed.close();
      await live.close();
    }
  });
});
