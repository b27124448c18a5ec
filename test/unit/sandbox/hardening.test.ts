import { describe, expect, it } from 'vitest';
import { containerCreateOptions, isLoopbackIpv6Refusal, volumeCreateOptions } from '../../../src/sandbox/hardening.js';
import { sandboxLabels } from '../../../src/sandbox/labels.js';
import type { SandboxSpec } from '../../../src/sandbox/types.js';
import { KEEPER_USER, parseSandboxUser } from '../../../src/sandbox/user.js';

const spec: SandboxSpec = {
  image: 'hammer-box/python:abc',
  runId: 'run-1',
  user: '10001:10002',
  env: { LANG: 'C.UTF-8' },
  limits: {
    memoryBytes: 2 ** 31,
    nanoCpus: 1.5e9,
    pidsLimit: 256,
    tmpBytes: 2 ** 28,
    workspaceBytes: 2 ** 31,
    nofile: 4096,
    runtime: '',
  },
};
const labels = sandboxLabels('run-1', { pid: 42, host: 'h', now: new Date('2025-01-01T00:00:00Z') });
const names = { container: 'c', volume: 'v' };

describe('containerCreateOptions', () => {
  const o = containerCreateOptions(spec, names, labels);
  const h = o.HostConfig ?? {};

  it('has no network, no capabilities, no new privileges, and keeps the default seccomp/AppArmor', () => {
    expect(h.NetworkMode).toBe('none');
    expect(h.CapDrop).toEqual(['ALL']);
    expect(h.CapAdd).toBeUndefined();
    expect(h.SecurityOpt).toEqual(['no-new-privileges:true']);
    expect(h.Privileged).toBe(false);
  });

  it('has the loopback interface only: localhost from the engine, ::1 kept, a name server where nothing answers', () => {
    // a disabled network would leave the image's empty /etc/hosts: localhost would not resolve
    expect(o.NetworkDisabled).toBeUndefined();
    expect(h.Dns).toEqual(['127.0.0.1']);
    expect(h.DnsSearch).toEqual(['.']);
    expect(h.Sysctls).toEqual({ 'net.ipv6.conf.lo.disable_ipv6': '0' });
    expect(containerCreateOptions(spec, names, labels, { ipv6Loopback: false }).HostConfig?.Sysctls).toBeUndefined();
  });

  it('tells a start refused for a kernel without IPv6 from other failures', () => {
    expect(
      isLoopbackIpv6Refusal(
        'OCI runtime create failed: write sysctl key net.ipv6.conf.lo.disable_ipv6: open /proc/sys/net/ipv6/conf/lo/disable_ipv6: no such file or directory',
      ),
    ).toBe(true);
    expect(isLoopbackIpv6Refusal('OCI runtime create failed: unable to start container process')).toBe(false);
  });

  it('is read-only with a size-capped noexec /tmp and exactly one mount: the workspace volume', () => {
    expect(h.ReadonlyRootfs).toBe(true);
    expect(h.Tmpfs).toEqual({ '/tmp': `rw,noexec,nosuid,nodev,size=${2 ** 28},mode=1777` });
    expect(h.Mounts).toEqual([{ Type: 'volume', Source: 'v', Target: '/workspace', ReadOnly: false }]);
    expect(h.Binds).toBeUndefined();
    expect(o.WorkingDir).toBe('/workspace');
  });

  it("under gVisor the engine limit counts host tasks: gVisor's own and about ten a process, so gVisor can still start its threads", () => {
    const runsc = containerCreateOptions({ ...spec, limits: { ...spec.limits, runtime: 'runsc' } }, names, labels);
    // 256 processes: 128 tasks of gVisor's own and 10 a process (a limit of 256 host tasks stopped
    // gVisor itself at about 25 processes: its runtime exits with status 2 when it cannot start a thread)
    expect(runsc.HostConfig?.PidsLimit).toBe(128 + 10 * 256);
  });

  it('sets the limits: pids, memory without swap, cpus, nofile, no core dumps, init, no restart', () => {
    expect(h.PidsLimit).toBe(256);
    expect(h.Memory).toBe(2 ** 31);
    expect(h.MemorySwap).toBe(2 ** 31);
    expect(h.NanoCpus).toBe(1.5e9);
    expect(h.Ulimits).toEqual([
      { Name: 'nofile', Soft: 4096, Hard: 4096 },
      { Name: 'core', Soft: 0, Hard: 0 },
    ]);
    expect(h.Init).toBe(true);
    expect(h.RestartPolicy).toEqual({ Name: 'no', MaximumRetryCount: 0 });
    expect(h.Runtime).toBeUndefined();
    expect(
      containerCreateOptions({ ...spec, limits: { ...spec.limits, runtime: 'runsc' } }, names, labels).HostConfig
        ?.Runtime,
    ).toBe('runsc');
  });

  it('idles as the keeper user, takes its environment only from the spec, and carries the labels', () => {
    expect(o.Cmd).toEqual(['sleep', 'infinity']);
    expect(o.User).toBe(KEEPER_USER);
    expect(o.Tty).toBe(false);
    expect(o.Env).toEqual(['LANG=C.UTF-8']);
    expect(o.Labels).toEqual({
      'hammer-box.managed-by': 'hammer-box',
      'hammer-box.run-id': 'run-1',
      'hammer-box.created': '2025-01-01T00:00:00.000Z',
      'hammer-box.owner-pid': '42',
      'hammer-box.owner-host': 'h',
    });
  });

  it('refuses a root or malformed user', () => {
    expect(() => containerCreateOptions({ ...spec, user: '0:0' }, names, labels)).toThrow(/root/);
    expect(() => containerCreateOptions({ ...spec, user: 'sandbox' }, names, labels)).toThrow(/uid:gid/);
    expect(parseSandboxUser('10001:10002')).toEqual({ uid: 10001, gid: 10002 });
  });
});

describe('volumeCreateOptions', () => {
  it('is a size-capped tmpfs owned by the sandbox user when workspaceBytes > 0', () => {
    expect(volumeCreateOptions(spec, 'v', labels)).toEqual({
      Name: 'v',
      Driver: 'local',
      DriverOpts: { type: 'tmpfs', device: 'tmpfs', o: `size=${2 ** 31},uid=10001,gid=10002,mode=0755` },
      Labels: labels,
    });
  });

  it('is a plain local volume when uncapped', () => {
    expect(volumeCreateOptions({ ...spec, limits: { ...spec.limits, workspaceBytes: 0 } }, 'v', labels)).toEqual({
      Name: 'v',
      Driver: 'local',
      Labels: labels,
    });
  });
});
