// The images hammer-box manages, found by label.
import type Dockerode from 'dockerode';
import { z } from 'zod';
import { throwIfAborted } from '../errors.js';
import { engineError } from './engine.js';
import { BASE_TAG, IMAGE_LABELS, MANAGED_BY } from './labels.js';

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
}

/** List hammer-box's images: every image with the managed-by label, plus the base image. Newest first. */
export async function listImages(docker: Dockerode, options: { signal?: AbortSignal } = {}): Promise<ManagedImage[]> {
  throwIfAborted(options.signal, 'listing images');
  let raw: unknown;
  try {
    raw = await docker.listImages({ all: false, abortSignal: options.signal });
  } catch (err) {
    throw engineError(err, 'listing images', options.signal);
  }
  const images = z.array(imageSummarySchema).parse(raw);
  const out: ManagedImage[] = [];
  for (const img of images) {
    const tags = img.RepoTags ?? [];
    const labels = img.Labels ?? {};
    const managed = labels[IMAGE_LABELS.managedBy] === MANAGED_BY;
    const isBase = tags.includes(BASE_TAG);
    if (!managed && !isBase) continue;
    out.push({
      tag: isBase ? BASE_TAG : (tags.find((t) => t.startsWith('hammer-box/')) ?? img.Id),
      id: img.Id,
      sizeBytes: img.Size,
      created: new Date(img.Created * 1000),
      toolchain: isBase ? 'base' : (labels[IMAGE_LABELS.toolchain] ?? 'unknown'),
    });
  }
  return out.sort((a, b) => b.created.getTime() - a.created.getTime() || a.tag.localeCompare(b.tag));
}
