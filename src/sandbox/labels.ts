// The labels that own a sandbox's lifecycle: who made it, for which run, and which process holds it.
import { hostname } from 'node:os';

/** Label keys set on every sandbox container and volume. */
export const LABELS = {
  managedBy: 'hammer-box.managed-by',
  runId: 'hammer-box.run-id',
  created: 'hammer-box.created',
  ownerPid: 'hammer-box.owner-pid',
  ownerHost: 'hammer-box.owner-host',
} as const;

/** The value of the managed-by label; `gc` only ever touches objects carrying it. */
export const MANAGED_BY = 'hammer-box';

/** Who owns a sandbox: the process and host that created it, and when. */
export interface Owner {
  pid: number;
  host: string;
  now: Date;
}

/** The current process as owner. */
export function currentOwner(now = new Date()): Owner {
  return { pid: process.pid, host: hostname(), now };
}

/** The full label set for a run's container and volume (extra labels first, ours win). */
export function sandboxLabels(runId: string, owner: Owner, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...extra,
    [LABELS.managedBy]: MANAGED_BY,
    [LABELS.runId]: runId,
    [LABELS.created]: owner.now.toISOString(),
    [LABELS.ownerPid]: String(owner.pid),
    [LABELS.ownerHost]: owner.host,
  };
}
