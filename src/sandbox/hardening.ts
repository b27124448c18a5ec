// What a hardened sandbox is, as Docker create options: pure, so every knob is unit-tested.
import type Dockerode from 'dockerode';
import { hostPidsLimit } from './host-pids.js';
import type { SandboxSpec } from './types.js';
import { KEEPER_USER, parseSandboxUser } from './user.js';

/** Where the repo copy lives inside every sandbox. */
export const WORKDIR = '/workspace';

/** The only security option we add; Docker's default seccomp and AppArmor profiles stay in force. */
export const NO_NEW_PRIVILEGES = 'no-new-privileges:true';

/** The /tmp tmpfs mount options for a size in bytes. */
export function tmpMountOptions(tmpBytes: number): string {
  return `rw,noexec,nosuid,nodev,size=${tmpBytes},mode=1777`;
}

/** Container environment as Docker's KEY=value list, from the spec only (nothing from the host). */
export function envList(env: Record<string, string>): string[] {
  return Object.entries(env).map(([k, v]) => `${k}=${v}`);
}

/** Options to create the workspace volume: tmpfs-backed and size-capped when workspaceBytes > 0. */
export function volumeCreateOptions(
  spec: SandboxSpec,
  name: string,
  labels: Record<string, string>,
): Dockerode.VolumeCreateOptions {
  const { uid, gid } = parseSandboxUser(spec.user);
  if (spec.limits.workspaceBytes > 0) {
    return {
      Name: name,
      Driver: 'local',
      DriverOpts: {
        type: 'tmpfs',
        device: 'tmpfs',
        o: `size=${spec.limits.workspaceBytes},uid=${uid},gid=${gid},mode=0755`,
      },
      Labels: labels,
    };
  }
  return { Name: name, Driver: 'local', Labels: labels };
}

/** The sysctl that gives the loopback interface `::1` (the engine turns IPv6 off in a network-less container). */
export const LOOPBACK_IPV6_SYSCTL = 'net.ipv6.conf.lo.disable_ipv6';

/**
 * The name server the sandbox's resolv.conf names: loopback, where nothing answers, so a name
 * lookup fails at once (and the host's own resolver addresses and search domains stay out).
 */
export const SANDBOX_NAMESERVER = '127.0.0.1';

/** True when the engine refused to start a container because its kernel has no IPv6 (the loopback sysctl is missing). */
export function isLoopbackIpv6Refusal(message: string): boolean {
  return message.includes(LOOPBACK_IPV6_SYSCTL.replace(/\./g, '/')) || message.includes(LOOPBACK_IPV6_SYSCTL);
}

/**
 * Options to create the hardened, idle, network-less container of a sandbox. It has the loopback
 * interface only: `localhost` resolves (the engine writes /etc/hosts for network mode none; a
 * disabled network would leave the image's empty one), 127.0.0.1 and, with `ipv6Loopback` (default
 * true; false on a kernel without IPv6), ::1 can be bound and connected to; no name server answers.
 */
export function containerCreateOptions(
  spec: SandboxSpec,
  names: { container: string; volume: string },
  labels: Record<string, string>,
  options: { ipv6Loopback?: boolean } = {},
): Dockerode.ContainerCreateOptions {
  parseSandboxUser(spec.user);
  const l = spec.limits;
  const hostConfig: Dockerode.HostConfig = {
    NetworkMode: 'none',
    Dns: [SANDBOX_NAMESERVER],
    DnsSearch: ['.'],
    ...(options.ipv6Loopback === false ? {} : { Sysctls: { [LOOPBACK_IPV6_SYSCTL]: '0' } }),
    CapDrop: ['ALL'],
    SecurityOpt: [NO_NEW_PRIVILEGES],
    Privileged: false,
    ReadonlyRootfs: true,
    Tmpfs: { '/tmp': tmpMountOptions(l.tmpBytes) },
    PidsLimit: hostPidsLimit(l),
    Memory: l.memoryBytes,
    MemorySwap: l.memoryBytes,
    NanoCpus: l.nanoCpus,
    Ulimits: [
      { Name: 'nofile', Soft: l.nofile, Hard: l.nofile },
      { Name: 'core', Soft: 0, Hard: 0 },
    ],
    Init: true,
    RestartPolicy: { Name: 'no', MaximumRetryCount: 0 },
    Mounts: [{ Type: 'volume', Source: names.volume, Target: WORKDIR, ReadOnly: false }],
    ...(l.runtime ? { Runtime: l.runtime } : {}),
  };
  return {
    name: names.container,
    Image: spec.image,
    // The keeper idles as its own user so that killing every sandbox-user process never stops the container.
    Cmd: ['sleep', 'infinity'],
    Entrypoint: [],
    User: KEEPER_USER,
    Env: envList(spec.env),
    WorkingDir: WORKDIR,
    Tty: false,
    OpenStdin: false,
    AttachStdin: false,
    AttachStdout: false,
    AttachStderr: false,
    Labels: labels,
    HostConfig: hostConfig,
  };
}
