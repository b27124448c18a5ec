// Which sandboxes belong to dead runs (pure), and removing them by label: a run's containers and
// volumes, and what a killed dependency setup left (its container, proxy and network).
import type Dockerode from 'dockerode';
import { z } from 'zod';
import { sandboxFailure, isNotFound } from './docker-errors.js';
import { removeVolume } from './docker-sandbox.js';
import { LABELS, MANAGED_BY } from './labels.js';
import type { GcReport } from './types.js';

/** How gc decides a run is dead. */
export interface Liveness {
  host: string;
  /** True while the process exists (on this host). */
  isPidAlive: (pid: number) => boolean;
  /** Runs to remove whatever their owner's state. */
  runIds?: string[];
}

/** True when the labels name a run that is over: listed in runIds, or owned by a process of this host that is gone. */
export function isDeadRun(labels: Record<string, string>, live: Liveness): boolean {
  if (labels[LABELS.managedBy] !== MANAGED_BY) return false;
  const runId = labels[LABELS.runId];
  if (live.runIds !== undefined) return runId !== undefined && live.runIds.includes(runId);
  const pid = Number(labels[LABELS.ownerPid]);
  // Another host's runs are not ours to judge; neither is a label we cannot read.
  if (labels[LABELS.ownerHost] !== live.host || !Number.isSafeInteger(pid) || pid <= 0) return false;
  return !live.isPidAlive(pid);
}

/** Whether a process exists: signal 0 throws ESRCH when it does not (EPERM means it exists, not ours). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return !(err instanceof Error && 'code' in err && err.code === 'ESRCH');
  }
}

const ContainerListSchema = z.array(
  z.object({
    Id: z.string(),
    Names: z.array(z.string()).nullish(),
    Labels: z.record(z.string(), z.string()).nullish(),
  }),
);
const NetworkListSchema = z.array(
  z.object({ Id: z.string(), Name: z.string(), Labels: z.record(z.string(), z.string()).nullish() }),
);
const VolumeListSchema = z.object({
  Volumes: z.array(z.object({ Name: z.string(), Labels: z.record(z.string(), z.string()).nullish() })).nullish(),
});

/** Remove the containers (running or not), volumes and networks of dead runs; return what was removed. */
export async function collectGarbage(docker: Dockerode, live: Liveness, signal?: AbortSignal): Promise<GcReport> {
  const filters = { label: [`${LABELS.managedBy}=${MANAGED_BY}`] };
  const opt = signal ? { abortSignal: signal } : {};
  let containers: z.infer<typeof ContainerListSchema>;
  let volumes: z.infer<typeof VolumeListSchema>;
  let networks: z.infer<typeof NetworkListSchema>;
  try {
    containers = ContainerListSchema.parse(await docker.listContainers({ all: true, filters, ...opt }));
    volumes = VolumeListSchema.parse(await docker.listVolumes({ filters, ...opt }));
    networks = NetworkListSchema.parse(await docker.listNetworks({ filters, ...opt }));
  } catch (err) {
    throw sandboxFailure(err, 'listing sandboxes', signal);
  }
  const report: GcReport = { containers: [], volumes: [], networks: [] };
  for (const c of containers) {
    if (!isDeadRun(c.Labels ?? {}, live)) continue;
    try {
      // v: the anonymous volumes a setup container writes go with it
      await docker.getContainer(c.Id).remove({ force: true, v: true, ...opt });
    } catch (err) {
      if (!isNotFound(err)) throw sandboxFailure(err, `removing container ${c.Id}`, signal);
    }
    report.containers.push(c.Names?.[0]?.replace(/^\//, '') ?? c.Id);
  }
  for (const v of volumes.Volumes ?? []) {
    if (!isDeadRun(v.Labels ?? {}, live)) continue;
    await removeVolume(docker, v.Name, signal);
    report.volumes.push(v.Name);
  }
  // networks last: a setup network can go once its proxy and setup containers are gone
  for (const n of networks) {
    if (!isDeadRun(n.Labels ?? {}, live)) continue;
    try {
      await docker.getNetwork(n.Id).remove(opt);
    } catch (err) {
      if (isNotFound(err)) continue;
      throw sandboxFailure(err, `removing network ${n.Name}`, signal);
    }
    report.networks.push(n.Name);
  }
  return report;
}
