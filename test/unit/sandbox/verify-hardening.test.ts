// The verifier against a real inspect result (captured from a sandbox on Docker 20.10), and
// against that result with each hardening property taken away.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SandboxSpec } from '../../../src/sandbox/types.js';
import { verifyHardening } from '../../../src/sandbox/verify-hardening.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the engine's inspect document, edited freely per case
type Json = Record<string, any>;
const real: Json = JSON.parse(readFileSync(new URL('./fixtures/sandbox-inspect.json', import.meta.url), 'utf8'));
const volumeName: string = real.Mounts[0].Name;
const spec: SandboxSpec = {
  image: real.Config.Image,
  runId: 'fixture-run',
  user: '10001:10001',
  env: { HOME: '/tmp', LANG: 'C.UTF-8' },
  limits: {
    memoryBytes: 536870912,
    nanoCpus: 1e9,
    pidsLimit: 128,
    tmpBytes: 16777216,
    workspaceBytes: 268435456,
    nofile: 1024,
    runtime: '',
  },
};
const expectation = { spec, volumeName, imageEnvKeys: ['PATH', 'PYTHONDONTWRITEBYTECODE'] };

/** The real inspect with one change applied to a deep copy. */
function weakened(change: (i: Json) => void): Json {
  const copy: Json = structuredClone(real);
  change(copy);
  return copy;
}

describe('verifyHardening', () => {
  it('accepts the real sandbox', () => {
    expect(verifyHardening(real, expectation)).toEqual([]);
  });

  const cases: Array<[string, (i: Json) => void, RegExp]> = [
    ['network', (i) => (i.HostConfig.NetworkMode = 'bridge'), /NetworkMode none/],
    ['capdrop', (i) => (i.HostConfig.CapDrop = null), /CapDrop ALL/],
    ['capadd', (i) => (i.HostConfig.CapAdd = ['SYS_ADMIN']), /no added capabilities/],
    ['nnp', (i) => (i.HostConfig.SecurityOpt = []), /no-new-privileges/],
    ['privileged', (i) => (i.HostConfig.Privileged = true), /not privileged/],
    ['seccomp', (i) => i.HostConfig.SecurityOpt.push('seccomp=unconfined'), /seccomp and AppArmor/],
    ['apparmor', (i) => i.HostConfig.SecurityOpt.push('apparmor:unconfined'), /seccomp and AppArmor/],
    ['apparmor profile', (i) => (i.AppArmorProfile = 'unconfined'), /AppArmor profile/],
    ['root user', (i) => (i.Config.User = '0:0'), /non-root user/],
    ['no user', (i) => (i.Config.User = ''), /non-root user/],
    ['rw root', (i) => (i.HostConfig.ReadonlyRootfs = false), /read-only root/],
    ['tmp', (i) => (i.HostConfig.Tmpfs = { '/tmp': 'rw' }), /tmpfs at \/tmp/],
    ['pids', (i) => (i.HostConfig.PidsLimit = 0), /PidsLimit/],
    ['swap', (i) => (i.HostConfig.MemorySwap = -1), /MemorySwap/],
    ['memory', (i) => ((i.HostConfig.Memory = 0), (i.HostConfig.MemorySwap = 0)), /Memory ==/],
    ['cpus', (i) => (i.HostConfig.NanoCpus = 0), /NanoCpus/],
    ['nofile', (i) => (i.HostConfig.Ulimits = [{ Name: 'core', Soft: 0, Hard: 0 }]), /nofile/],
    ['core', (i) => (i.HostConfig.Ulimits = [{ Name: 'nofile', Soft: 1024, Hard: 1024 }]), /core 0/],
    ['init', (i) => (i.HostConfig.Init = null), /Init/],
    ['restart', (i) => (i.HostConfig.RestartPolicy = { Name: 'always', MaximumRetryCount: 0 }), /RestartPolicy no/],
    ['binds', (i) => (i.HostConfig.Binds = ['/:/host']), /no bind mounts/],
    [
      'docker socket',
      (i) => i.Mounts.push({ Type: 'bind', Source: '/var/run/docker.sock', Destination: '/var/run/docker.sock' }),
      /docker socket/,
    ],
    [
      'bind mount',
      (i) => i.HostConfig.Mounts.push({ Type: 'bind', Source: '/etc', Target: '/etc2' }),
      /only the workspace volume/,
    ],
    ['other volume', (i) => (i.Mounts[0].Name = 'someone-else'), /exactly one mount/],
    ['pid host', (i) => (i.HostConfig.PidMode = 'host'), /PidMode not host/],
    ['devices', (i) => (i.HostConfig.Devices = [{ PathOnHost: '/dev/kvm' }]), /no devices/],
    [
      'env leak',
      (i) => i.Config.Env.push('AWS_SECRET_ACCESS_KEY=x'),
      /allowlist only \(unexpected: AWS_SECRET_ACCESS_KEY\)/,
    ],
    [
      // an engine may list its environment in map order (Podman does): the message is sorted, never random
      'env leak in map order',
      (i) => i.Config.Env.push('container=podman', 'TERM=xterm'),
      /allowlist only \(unexpected: TERM, container\)/,
    ],
    ['env changed', (i) => (i.Config.Env[0] = 'HOME=/root'), /differs: HOME/],
    ['labels', (i) => delete i.Config.Labels['hammer-box.owner-pid'], /label hammer-box.owner-pid/],
    ['run id', (i) => (i.Config.Labels['hammer-box.run-id'] = 'other'), /label hammer-box.run-id/],
    ['tty', (i) => (i.Config.Tty = true), /Tty false/],
  ];
  it.each(cases)('flags a missing %s', (_name, change, message) => {
    const missing = verifyHardening(weakened(change), expectation);
    expect(missing.join('\n')).toMatch(message);
  });

  it('checks the runtime when one is asked for', () => {
    expect(
      verifyHardening(real, { ...expectation, spec: { ...spec, limits: { ...spec.limits, runtime: 'runsc' } } }),
      // a runc container's limit in process units is not the one gVisor needs (128 + 10 per process)
    ).toEqual(['PidsLimit 1408', 'runtime runsc']);
  });

  it('refuses what it cannot read', () => {
    expect(verifyHardening({ nothing: true }, expectation)).toHaveLength(1);
    expect(verifyHardening(null, expectation)[0]).toMatch(/inspect result/);
  });
});
