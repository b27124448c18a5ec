// A real sandbox is what it promises: no network (DNS and the host's bridge gateway unreachable,
// only lo), not root, no capabilities, no new privileges, read-only root, capped /tmp, no host
// environment; and a container without the hardening is refused.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isHammerError } from '../../src/errors.js';
import { containerCreateOptions, verifyHardening, type Sandbox, type SandboxSpec } from '../../src/sandbox/index.js';
import { testEngine, testSpec } from './sandbox-fixtures.js';

const { docker, engine } = testEngine();
const canaryName = `HB_CANARY_${randomBytes(4).toString('hex')}`;
const canaryValue = `canary-${randomBytes(8).toString('hex')}`;
let spec: SandboxSpec;
let sandbox: Sandbox;

const sh = async (script: string) => sandbox.exec(['bash', '-c', script], { timeoutMs: 30_000 });

beforeAll(async () => {
  process.env[canaryName] = canaryValue;
  spec = await testSpec();
  sandbox = await engine.create(spec);
});
afterAll(async () => {
  delete process.env[canaryName];
  await sandbox?.destroy();
});

describe('sandbox isolation', () => {
  it('cannot resolve names', async () => {
    const r = await sh('getent hosts example.com');
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout.text).toBe('');
  });

  it("cannot connect to a port listening on the host's bridge gateway", async () => {
    const network = z
      .object({
        IPAM: z.object({
          Config: z.array(z.object({ Gateway: z.string().optional(), Subnet: z.string().optional() })),
        }),
      })
      .parse(await docker.getNetwork('bridge').inspect());
    // Some engines leave Gateway out of the default bridge's IPAM; the gateway is then the subnet's first address.
    const ipv4 = network.IPAM.Config.find((c) => /^\d+\.\d+\.\d+\.\d+/.test(c.Gateway ?? c.Subnet ?? ''));
    const gateway = ipv4?.Gateway ?? ipv4?.Subnet?.replace(/\.\d+\/\d+$/, '.1');
    expect(gateway).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    let connections = 0;
    const server: Server = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
    const port = z.object({ port: z.number() }).parse(server.address()).port;
    try {
      const r = await sh(`timeout 5 bash -c 'echo hi > /dev/tcp/${gateway}/${port}' && echo CONNECTED`);
      expect(r.exitCode).not.toBe(0);
      expect(r.stdout.text).not.toContain('CONNECTED');
      expect(r.stderr.text).toMatch(/unreachable|refused|timed out|No route/i);
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it('has only the loopback interface', async () => {
    const r = await sh('ls /sys/class/net');
    expect(r.stdout.text.trim().split(/\s+/)).toEqual(['lo']);
  });

  it('runs as a non-root user with no effective capabilities and no new privileges', async () => {
    const r = await sh('id -u; grep -E "^(CapEff|CapPrm|NoNewPrivs):" /proc/self/status');
    const [uid, ...status] = r.stdout.text.trim().split('\n');
    expect(Number(uid)).not.toBe(0);
    expect(status.find((l) => l.startsWith('CapEff:'))).toMatch(/^CapEff:\s+0{16}$/);
    expect(status.find((l) => l.startsWith('CapPrm:'))).toMatch(/^CapPrm:\s+0{16}$/);
    expect(status.find((l) => l.startsWith('NoNewPrivs:'))).toMatch(/^NoNewPrivs:\s+1$/);
  });

  it('keeps Docker’s default seccomp profile', async () => {
    const r = await sh('grep "^Seccomp:" /proc/self/status');
    expect(r.stdout.text).toMatch(/^Seccomp:\s+2$/m);
  });

  it('cannot write to the root filesystem', async () => {
    const r = await sh('touch /hammer-box-was-here && echo WROTE');
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr.text).toMatch(/Read-only file system/);
  });

  it('can write /tmp and /workspace, but /tmp is size-capped and not executable', async () => {
    const ok = await sh('echo hi > /tmp/a && cat /tmp/a && echo hi > /workspace/b && cat /workspace/b');
    expect(ok.stdout.text).toBe('hi\nhi\n');
    const full = await sh('head -c 32000000 /dev/zero > /tmp/big; echo "rc=$?"; rm -f /tmp/big');
    expect(full.stdout.text).toBe('rc=1\n');
    expect(full.stderr.text).toMatch(/No space left on device/);
    const exec = await sh('printf "#!/bin/sh\\necho ran\\n" > /tmp/x.sh && chmod +x /tmp/x.sh && /tmp/x.sh');
    expect(exec.exitCode).not.toBe(0);
    expect(exec.stdout.text).not.toContain('ran');
  });

  it('sees none of the host environment', async () => {
    expect(process.env[canaryName]).toBe(canaryValue);
    const r = await sandbox.exec(['env'], { timeoutMs: 30_000 });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.text).not.toContain(canaryName);
    expect(r.stdout.text).not.toContain(canaryValue);
    expect(r.stdout.text).toContain('LANG=C.UTF-8');
  });

  it('the created container passes verification', async () => {
    const imageEnv =
      z
        .object({ Config: z.object({ Env: z.array(z.string()).nullish() }) })
        .parse(await docker.getImage(spec.image).inspect()).Config.Env ?? [];
    const inspect: unknown = await docker.getContainer(sandbox.id).inspect();
    const volumeName =
      z.object({ Mounts: z.array(z.object({ Name: z.string() })) }).parse(inspect).Mounts[0]?.Name ?? '';
    expect(
      verifyHardening(inspect, { spec, volumeName, imageEnvKeys: imageEnv.map((e) => e.split('=')[0] ?? '') }),
    ).toEqual([]);
  });
});

describe('verification refuses what is not hardened', () => {
  it('flags a container created outside the engine without CapDrop, read-only root or no-new-privileges', async () => {
    const volumeName = `hammer-box-verify-${randomBytes(4).toString('hex')}`;
    const options = containerCreateOptions(
      spec,
      { container: `${volumeName}-c`, volume: volumeName },
      { 'hammer-box.test': 'verify' },
    );
    const host = options.HostConfig ?? {};
    const weakened = {
      ...options,
      HostConfig: {
        ...host,
        CapDrop: [],
        SecurityOpt: [],
        ReadonlyRootfs: false,
        NetworkMode: 'bridge',
        Binds: ['/etc:/host-etc:ro'],
      },
    };
    const container = await docker.createContainer(weakened);
    try {
      const missing = verifyHardening(await container.inspect(), { spec, volumeName, imageEnvKeys: ['PATH'] });
      expect(missing).toEqual(
        expect.arrayContaining([
          'CapDrop ALL',
          'no-new-privileges',
          'read-only root filesystem',
          'NetworkMode none',
          'no bind mounts',
        ]),
      );
    } finally {
      await container.remove({ force: true, v: true });
      await docker
        .getVolume(volumeName)
        .remove()
        .catch(() => undefined);
    }
  });

  it('the engine refuses a sandbox the engine did not limit, and removes what it created', async () => {
    // Docker takes a pids limit of 0 as "unlimited": the inspect shows no limit, so verification must fail closed.
    const weak = await testSpec({}, { pidsLimit: 0 });
    const err = await engine.create(weak).catch((e: unknown) => e);
    expect(isHammerError(err, 'SANDBOX_HARDENING')).toBe(true);
    expect((err as Error).message).toMatch(/^sandbox is missing: .*PidsLimit 0/);
    const left = await docker.listContainers({ all: true, filters: { label: [`hammer-box.run-id=${weak.runId}`] } });
    const volumes = await docker.listVolumes({ filters: { label: [`hammer-box.run-id=${weak.runId}`] } });
    expect(left).toEqual([]);
    expect(volumes.Volumes ?? []).toEqual([]);
  });

  it('an unknown image is IMAGE_MISSING and leaves nothing behind', async () => {
    const err = await engine
      .create(await testSpec({ image: 'hammer-box/does-not-exist:never' }))
      .catch((e: unknown) => e);
    expect(isHammerError(err, 'IMAGE_MISSING')).toBe(true);
  });

  it('a root user is refused before anything is created', async () => {
    const err = await engine.create(await testSpec({ user: '0:0' })).catch((e: unknown) => e);
    expect(isHammerError(err)).toBe(true);
  });
});
