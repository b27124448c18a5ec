// What a hardened sandbox is, as Docker create options: pure, so every knob is unit-tested.
import type Dockerode from 'dockerode';
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

/** Options to create the hardened, idle, network-less container of a sandbox. */
export function containerCreateOptions(
  spec: SandboxSpec,
  names: { container: string; volume: string },
  labels: Record<string, string>,
): Dockerode.ContainerCreateOptions {
  parseSandboxUser(spec.user);
  const l = spec.limits;
  const hostConfig: Dockerode.HostConfig = {
    NetworkMode: 'none',
    CapDrop: ['ALL'],
    SecurityOpt: [NO_NEW_PRIVILEGES],
    Privileged: false,
    ReadonlyRootfs: true,
    Tmpfs: { '/tmp': tmpMountOptions(l.tmpBytes) },
    PidsLimit: l.pidsLimit,
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
    NetworkDisabled: true,
    Labels: labels,
    HostConfig: hostConfig,
  };
}
