// Checks a container's inspect result against the hardening a sandbox must have. Pure: the inspect
// JSON is outside data, parsed with zod; the answer is the list of what is missing (empty = hardened).
import { z } from 'zod';
import { NO_NEW_PRIVILEGES, WORKDIR } from './hardening.js';
import { hostPidsLimit } from './host-pids.js';
import { LABELS, MANAGED_BY } from './labels.js';
import type { SandboxSpec } from './types.js';
import { KEEPER_USER } from './user.js';

const strings = z.array(z.string()).nullish();

const InspectSchema = z.object({
  AppArmorProfile: z.string().nullish(),
  Config: z.object({
    User: z.string().nullish(),
    Env: strings,
    Labels: z.record(z.string(), z.string()).nullish(),
    Tty: z.boolean().nullish(),
  }),
  HostConfig: z.object({
    NetworkMode: z.string().nullish(),
    CapAdd: strings,
    CapDrop: strings,
    SecurityOpt: strings,
    Privileged: z.boolean().nullish(),
    ReadonlyRootfs: z.boolean().nullish(),
    Tmpfs: z.record(z.string(), z.string()).nullish(),
    PidsLimit: z.number().nullish(),
    Memory: z.number().nullish(),
    MemorySwap: z.number().nullish(),
    NanoCpus: z.number().nullish(),
    Ulimits: z.array(z.object({ Name: z.string(), Soft: z.number(), Hard: z.number() })).nullish(),
    Init: z.boolean().nullish(),
    RestartPolicy: z.object({ Name: z.string().nullish() }).nullish(),
    Binds: strings,
    Mounts: z
      .array(z.object({ Type: z.string().nullish(), Source: z.string().nullish(), Target: z.string().nullish() }))
      .nullish(),
    VolumesFrom: strings,
    Devices: z.array(z.unknown()).nullish(),
    PidMode: z.string().nullish(),
    IpcMode: z.string().nullish(),
    UTSMode: z.string().nullish(),
    UsernsMode: z.string().nullish(),
    Runtime: z.string().nullish(),
  }),
  Mounts: z
    .array(
      z.object({
        Type: z.string().nullish(),
        Name: z.string().nullish(),
        Source: z.string().nullish(),
        Destination: z.string().nullish(),
      }),
    )
    .nullish(),
});

/** What the verifier compares the inspect result with. */
export interface HardeningExpectation {
  spec: SandboxSpec;
  /** The sandbox's workspace volume: the one and only mount allowed. */
  volumeName: string;
  /** Environment keys the image itself sets (PATH, ...); with spec.env they are the allowlist. */
  imageEnvKeys: string[];
}

const UNCONFINED = /^(seccomp|apparmor)[=:]unconfined$/;
const NNP = new Set([NO_NEW_PRIVILEGES, 'no-new-privileges', 'no-new-privileges=true']);

/** Every hardening property the inspected container lacks, as human-readable strings (empty when hardened). */
export function verifyHardening(inspect: unknown, expect: HardeningExpectation): string[] {
  const parsed = InspectSchema.safeParse(inspect);
  if (!parsed.success)
    return [`an inspect result hammer-box can read (${parsed.error.issues[0]?.message ?? 'invalid'})`];
  const { Config: c, HostConfig: h } = parsed.data;
  const l = expect.spec.limits;
  const out: string[] = [];
  const need = (ok: boolean, what: string): void => {
    if (!ok) out.push(what);
  };

  need(h.NetworkMode === 'none', 'NetworkMode none');
  need(
    (h.CapDrop ?? []).some((cap) => cap.toUpperCase() === 'ALL'),
    'CapDrop ALL',
  );
  need((h.CapAdd ?? []).length === 0, 'no added capabilities');
  need(
    (h.SecurityOpt ?? []).some((o) => NNP.has(o)),
    'no-new-privileges',
  );
  need(h.Privileged !== true, 'not privileged');
  need(
    !(h.SecurityOpt ?? []).some((o) => UNCONFINED.test(o)),
    "Docker's default seccomp and AppArmor profiles (no unconfined)",
  );
  need(parsed.data.AppArmorProfile !== 'unconfined', 'AppArmor profile not unconfined');
  need(isNonRootUser(c.User), 'a non-root user');
  need(c.User === KEEPER_USER, `the keeper user ${KEEPER_USER}`);
  need(h.ReadonlyRootfs === true, 'read-only root filesystem');
  need(/(^|,)size=\d+/.test(h.Tmpfs?.['/tmp'] ?? ''), 'a size-limited tmpfs at /tmp');
  need(h.PidsLimit === hostPidsLimit(l) && l.pidsLimit > 0, `PidsLimit ${hostPidsLimit(l)}`);
  need(
    (h.Memory ?? 0) > 0 && h.Memory === h.MemorySwap && h.Memory === l.memoryBytes,
    `Memory == MemorySwap == ${l.memoryBytes}`,
  );
  need((h.NanoCpus ?? 0) > 0 && h.NanoCpus === l.nanoCpus, `NanoCpus ${l.nanoCpus}`);
  const ulimit = (name: string) => (h.Ulimits ?? []).find((u) => u.Name === name);
  const nofile = ulimit('nofile');
  need(nofile?.Soft === l.nofile && nofile.Hard === l.nofile, `ulimit nofile ${l.nofile}`);
  const core = ulimit('core');
  need(core?.Soft === 0 && core.Hard === 0, 'ulimit core 0');
  need(h.Init === true, 'Init (zombies reaped)');
  need((h.RestartPolicy?.Name ?? 'no') === 'no' || h.RestartPolicy?.Name === '', 'RestartPolicy no');
  need((h.Binds ?? []).length === 0, 'no bind mounts');
  need((h.VolumesFrom ?? []).length === 0, 'no VolumesFrom');
  need((h.Devices ?? []).length === 0, 'no devices');
  for (const [key, mode] of [
    ['PidMode', h.PidMode],
    ['IpcMode', h.IpcMode],
    ['UTSMode', h.UTSMode],
    ['UsernsMode', h.UsernsMode],
  ] as const) {
    need(mode !== 'host', `${key} not host`);
  }
  const hostMounts = h.Mounts ?? [];
  need(
    hostMounts.every((m) => m.Type === 'volume' && m.Source === expect.volumeName && m.Target === WORKDIR),
    `only the workspace volume ${expect.volumeName} at ${WORKDIR}`,
  );
  const mounts = parsed.data.Mounts ?? [];
  need(
    mounts.length === 1 &&
      mounts[0]?.Type === 'volume' &&
      mounts[0].Name === expect.volumeName &&
      mounts[0].Destination === WORKDIR,
    `exactly one mount: the workspace volume ${expect.volumeName} at ${WORKDIR}`,
  );
  const everything = [
    ...(h.Binds ?? []),
    ...hostMounts.flatMap((m) => [m.Source ?? '', m.Target ?? '']),
    ...mounts.flatMap((m) => [m.Source ?? '', m.Destination ?? '']),
  ];
  need(!everything.some((p) => p.includes('docker.sock')), 'no docker socket');
  if (l.runtime) need(h.Runtime === l.runtime, `runtime ${l.runtime}`);
  need(c.Tty !== true, 'Tty false');

  const allowed = new Set([...Object.keys(expect.spec.env), ...expect.imageEnvKeys]);
  const env = c.Env ?? [];
  // sorted: an engine may list its environment in map order (Podman does), and the message must not vary
  const foreign = env
    .map((e) => e.split('=', 1)[0] ?? '')
    .filter((k) => !allowed.has(k))
    .sort();
  need(foreign.length === 0, `environment from the allowlist only (unexpected: ${foreign.join(', ')})`);
  const envMap = new Map(env.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
  const wrong = Object.entries(expect.spec.env)
    .filter(([k, v]) => envMap.get(k) !== v)
    .map(([k]) => k);
  need(wrong.length === 0, `environment as specified (differs: ${wrong.join(', ')})`);

  const labels = c.Labels ?? {};
  need(labels[LABELS.managedBy] === MANAGED_BY, `label ${LABELS.managedBy}=${MANAGED_BY}`);
  need(labels[LABELS.runId] === expect.spec.runId, `label ${LABELS.runId}`);
  for (const key of [LABELS.created, LABELS.ownerPid, LABELS.ownerHost]) need(Boolean(labels[key]), `label ${key}`);
  return out;
}

/** True for a numeric or named user that is not root (uid 0). */
function isNonRootUser(user: string | null | undefined): boolean {
  if (!user) return false;
  const name = user.split(':', 1)[0] ?? '';
  return name !== '' && name !== 'root' && !/^0+$/.test(name);
}
