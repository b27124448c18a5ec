// The images hammer-box manages, found by label, with when and by which runs they were last used.
import type Dockerode from 'dockerode';
import { z } from 'zod';
import { throwIfAborted } from '../errors.js';
import { engineError } from './engine.js';
import { BASE_TAG, IMAGE_LABELS, MANAGED_BY } from './labels.js';
import type { ImageUsage } from './usage.js';

const imageSummarySchema = z.object({
  Id: z.string(),
  RepoTags: z.array(z.string()).nullish(),
  Size: z.number(),
  Created: z.number(),
  Labels: z.record(z.string(), z.string()).nullish(),
});

/** One hammer-box image, as `images list` shows it. */
export interface ManagedImage {
  /** A tag naming it (the first hammer-box/ tag), or the id when untagged. */
  tag: string;
  id: string;
  sizeBytes: number;
  created: Date;
  /** The toolchain it was built for; 'base' for the base image. */
  toolchain: string;
  /** The toolchain's version (toolchain and env images built since versions were recorded). */
  version?: string;
  /** base, toolchain image, or env image (toolchain + a repository's dependencies). */
  kind: 'base' | 'toolchain' | 'env';
  /** For env images: the id of the toolchain image it was committed from. */
  parentId?: string;
  /** When a run last used it, and which runs did (newest first); empty when never recorded. */
  lastUsed: Date | null;
  runs: string[];
}

/** List hammer-box's images: every image with the managed-by label, plus the base image. Newest first. */
export async function listImages(
  docker: Dockerode,
  options: { signal?: AbortSignal; usage?: ImageUsage } = {},
): Promise<ManagedImage[]> {
  throwIfAborted(options.signal, 'listing images');
  let raw: unknown;
  try {
    raw = await docker.listImages({ all: false, abortSignal: options.signal });
  } catch (err) {
    throw engineError(err, 'listing images', options.signal);
  }
  const images = z.array(imageSummarySchema).parse(raw);
  const usage = options.usage ?? {};
  const out: ManagedImage[] = [];
  for (const img of images) {
    const tags = img.RepoTags ?? [];
    const labels = img.Labels ?? {};
    const managed = labels[IMAGE_LABELS.managedBy] === MANAGED_BY;
    const isBase = tags.includes(BASE_TAG);
    if (!managed && !isBase) continue;
    const parentId = labels['hammer-box.toolchain-image'];
    const version = labels[IMAGE_LABELS.toolchainVersion];
    const used = usage[img.Id];
    out.push({
      tag: isBase ? BASE_TAG : (tags.find((t) => t.startsWith('hammer-box/')) ?? img.Id),
      id: img.Id,
      sizeBytes: img.Size,
      created: new Date(img.Created * 1000),
      toolchain: isBase ? 'base' : (labels[IMAGE_LABELS.toolchain] ?? 'unknown'),
      kind: isBase ? 'base' : labels['hammer-box.env-hash'] !== undefined ? 'env' : 'toolchain',
      ...(version && !isBase ? { version } : {}),
      ...(parentId ? { parentId } : {}),
      lastUsed: used ? new Date(used.last_used) : null,
      runs: used ? used.runs.map((r) => r.run_id) : [],
    });
  }
  return out.sort((a, b) => b.created.getTime() - a.created.getTime() || a.tag.localeCompare(b.tag));
}
