// What an image archive (`docker save`'s format, as `images export` writes it) holds, read before
// anything of it is loaded, and whether it is a consistent set of hammer-box images: only
// hammer-box's tags; each image's id is the digest of its config; each toolchain or env image's
// key is the hash its tag ends with and its lock agrees with its digest label; and every image it
// was made from (the base under a toolchain image, the toolchain image under an env image) is the
// exact image, by id, that the archive or the engine holds. Pure but for reading the stream.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import tar from 'tar-stream';
import { z } from 'zod';
import { HammerError } from '../errors.js';
import { BASE_TAG, IMAGE_LABELS } from './labels.js';
import type { ImageLock } from './lock.js';
import { lockOfLabels, LOCK_LABELS } from './lock-label.js';

/** The largest manifest or image config read from an archive. */
const MAX_JSON_BYTES = 4 * 1024 * 1024;
/** The most images an archive may hold. */
const MAX_IMAGES = 64;

/** One image of an archive. */
export interface ArchivedImage {
  /** sha256:<digest of its config>, the id the engine gives it. */
  id: string;
  tags: string[];
  labels: Record<string, string>;
  /** Its lock, when its labels hold a valid one. */
  lock: ImageLock | null;
}

const manifestSchema = z
  .array(z.object({ Config: z.string(), RepoTags: z.array(z.string()).nullish(), Layers: z.array(z.string()) }))
  .max(MAX_IMAGES);
const configSchema = z.object({
  config: z.object({ Labels: z.record(z.string(), z.string()).nullish() }).nullish(),
});

/** Read an archive's manifest and image configs (the layers are skipped): its images. */
export async function readArchive(stream: Readable): Promise<ArchivedImage[]> {
  const extract = tar.extract();
  const jsons = new Map<string, Buffer>();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, entry, next) => {
      const name = header.name.replace(/^\.\//, '');
      const wanted = name === 'manifest.json' || /^(?:blobs\/sha256\/)?[0-9a-f]{64}(?:\.json)?$/.test(name);
      if (!wanted || header.type !== 'file' || (header.size ?? 0) > MAX_JSON_BYTES) {
        entry.on('end', next).resume();
        return;
      }
      const chunks: Buffer[] = [];
      entry.on('data', (c: unknown) => void chunks.push(Buffer.from(c as Uint8Array)));
      entry.on('end', () => {
        jsons.set(name, Buffer.concat(chunks));
        next();
      });
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
    stream.on('error', reject);
  });
  stream.pipe(extract);
  await done.catch((err: unknown) => {
    throw new HammerError('IMAGE_IMPORT', 'the file is not an image archive (docker save format)', { cause: err });
  });
  const manifestText = jsons.get('manifest.json');
  if (!manifestText) throw new HammerError('IMAGE_IMPORT', 'the archive has no manifest.json: not an image archive');
  let manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(manifestText.toString('utf8')));
  } catch (err) {
    throw new HammerError('IMAGE_IMPORT', "the archive's manifest.json is not docker save's", { cause: err });
  }
  return manifest.map((m) => {
    const config = jsons.get(m.Config);
    if (!config) throw new HammerError('IMAGE_IMPORT', `the archive lacks the config ${m.Config}`);
    const parsed = configSchema.safeParse(JSON.parse(config.toString('utf8')));
    if (!parsed.success) throw new HammerError('IMAGE_IMPORT', `the config ${m.Config} is not an image config`);
    const labels = parsed.data.config?.Labels ?? {};
    return {
      id: `sha256:${createHash('sha256').update(config).digest('hex')}`,
      tags: m.RepoTags ?? [],
      labels,
      lock: lockOfLabels(labels),
    };
  });
}

/** The tag forms an archive may carry: hammer-box's toolchain and env images, and the base. */
const TOOLCHAIN_TAG = /^hammer-box\/([a-z][a-z0-9]*):([0-9a-f]{12})$/;
const ENV_TAG = /^hammer-box\/([a-z][a-z0-9]*)-env:([0-9a-f]{12})$/;

/**
 * The problems that make an archive's images unfit to import (empty: fit). `engineIds` are the ids
 * the engine holds already (an image's parent may be there instead of in the archive).
 */
export function checkArchive(images: readonly ArchivedImage[], engineIds: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const ids = new Set([...images.map((i) => i.id), ...engineIds]);
  for (const img of images) {
    if (img.tags.length === 0) problems.push(`${short(img.id)} has no tag`);
    for (const tag of img.tags) {
      if (tag === BASE_TAG) continue;
      const t = TOOLCHAIN_TAG.exec(tag);
      const e = ENV_TAG.exec(tag);
      if (!t && !e) {
        problems.push(`${tag} is not a hammer-box image (only hammer-box/<toolchain>, <toolchain>-env and the base)`);
        continue;
      }
      const key = (t ?? e)![2]!;
      const label = t ? img.labels[IMAGE_LABELS.contextHash] : img.labels['hammer-box.env-hash'];
      if (label !== key) problems.push(`${tag}: its key label (${label ?? 'none'}) is not its tag's ${key}`);
      if (img.labels[LOCK_LABELS.lock] !== undefined && img.lock === null)
        problems.push(`${tag}: its lock does not match its lock digest label`);
      if (!img.lock) {
        problems.push(`${tag}: no lock (made before hammer-box recorded locks: export it again after a rebuild)`);
        continue;
      }
      if (img.lock.key !== key) problems.push(`${tag}: its lock is of key ${img.lock.key}`);
      if (img.lock.kind !== (t ? 'toolchain' : 'env')) problems.push(`${tag}: its lock is of a ${img.lock.kind} image`);
      if (!ids.has(img.lock.from.id))
        problems.push(
          `${tag}: it was made from ${img.lock.from.ref} ${short(img.lock.from.id)}, which neither the archive nor the engine holds`,
        );
      if (e && img.labels['hammer-box.toolchain-image'] !== img.lock.from.id)
        problems.push(`${tag}: its toolchain image label is not the image its lock was made from`);
    }
  }
  return problems;
}

function short(id: string): string {
  return id.replace(/^sha256:/, '').slice(0, 12);
}
