// `images prune`: remove old hammer-box images by the plan in prune-plan.ts, after asking the
// engine which images live sandboxes run from.
import type Dockerode from 'dockerode';
import { z } from 'zod';
import { engineError, statusCodeOf } from './engine.js';
import { IMAGE_LABELS, MANAGED_BY } from './labels.js';
import { listImages, type ManagedImage } from './list.js';
import { planPrune, type KeepReason, type PrunePolicy } from './prune-plan.js';
import type { ImageUsage } from './usage.js';

/** What prune did. */
export interface PruneResult {
  removed: ManagedImage[];
  kept: { image: ManagedImage; reason: KeepReason | 'engine-refused'; detail?: string }[];
  /** Bytes freed (an estimate: env images count only what they add to their toolchain image). */
  freedBytes: number;
}

const containerSchema = z.array(z.object({ ImageID: z.string().optional(), Image: z.string().optional() }));

/** Image ids running hammer-box containers use: those are never removed. */
export async function imagesInUse(docker: Dockerode, signal?: AbortSignal): Promise<Set<string>> {
  let raw: unknown;
  try {
    raw = await docker.listContainers({
      all: false,
      filters: { label: [`${IMAGE_LABELS.managedBy}=${MANAGED_BY}`] },
      abortSignal: signal,
    });
  } catch (err) {
    throw engineError(err, 'listing running sandboxes', signal);
  }
  return new Set(containerSchema.parse(raw).flatMap((c) => [c.ImageID, c.Image].filter((x): x is string => !!x)));
}

/** Remove hammer-box images the policy does not keep (dryRun: only report; toolchain: only that toolchain's images, env images included). */
export async function pruneImages(
  docker: Dockerode,
  policy: PrunePolicy,
  options: { usage?: ImageUsage; dryRun?: boolean; toolchain?: string; signal?: AbortSignal } = {},
): Promise<PruneResult> {
  const listed = await listImages(docker, {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.usage ? { usage: options.usage } : {}),
  });
  // an env image carries its toolchain's label, so one toolchain's images are a closed family
  const images = options.toolchain === undefined ? listed : listed.filter((i) => i.toolchain === options.toolchain);
  const inUse = await imagesInUse(docker, options.signal);
  const byId = new Map(images.map((i) => [i.id, i]));
  const plan = planPrune(
    images.map((i) => ({
      ...i,
      sizeBytes:
        i.kind === 'env' && i.parentId
          ? Math.max(0, i.sizeBytes - (byId.get(i.parentId)?.sizeBytes ?? 0))
          : i.sizeBytes,
    })),
    policy,
    inUse,
  );
  const result: PruneResult = {
    removed: [],
    kept: plan.keep.map((k) => ({ image: byId.get(k.image.id)!, reason: k.reason })),
    freedBytes: 0,
  };
  for (const p of plan.remove) {
    const img = byId.get(p.id)!;
    if (!options.dryRun) {
      try {
        // by id, so every tag of it goes; never forced, so the engine still refuses an image a container uses
        await docker.getImage(img.id).remove({ ...(options.signal ? { abortSignal: options.signal } : {}) });
      } catch (err) {
        if (statusCodeOf(err) === 409 || statusCodeOf(err) === 404) {
          result.kept.push({
            image: img,
            reason: 'engine-refused',
            detail: err instanceof Error ? err.message.split('\n')[0]! : String(err),
          });
          continue;
        }
        throw engineError(err, `removing ${img.tag}`, options.signal);
      }
    }
    result.removed.push(img);
    result.freedBytes += p.sizeBytes;
  }
  return result;
}
