// Images as artifacts: `images export` writes hammer-box's images (each env image with the
// toolchain image and base under it) to one archive in docker save's format, and `images import`
// loads one after checking it (archive-check.ts): a CI job on a fresh runner gets the exact images
// an earlier job built, and reaches its first model request without building anything.
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type Dockerode from 'dockerode';
import { HammerError, throwIfAborted } from '../errors.js';
import { checkArchive, readArchive, type ArchivedImage } from './archive-check.js';
import { engineError, inspectImage } from './engine.js';
import { BASE_TAG } from './labels.js';
import { diffLocks, lockDigest } from './lock.js';
import { lockOfLabels } from './lock-label.js';
import { recordLock } from './lock-store.js';
import { readProgress } from './progress.js';

/** One image written to an archive. */
export interface ExportedImage {
  tag: string;
  id: string;
  /** Its lock's digest (none for the base). */
  lock: string | null;
}

/**
 * The images to export for `refs`: each one, the toolchain image an env image was committed from,
 * and the base every toolchain image is built FROM (a run plans its toolchain image's key from the
 * base's id, so the base must travel too). IMAGE_MISSING for a ref the engine lacks.
 */
export async function exportSet(
  docker: Dockerode,
  refs: readonly string[],
  signal?: AbortSignal,
): Promise<ExportedImage[]> {
  const out = new Map<string, ExportedImage>();
  const add = async (ref: string): Promise<void> => {
    const img = await inspectImage(docker, ref, signal);
    if (!img)
      throw new HammerError('IMAGE_MISSING', `the engine has no image ${ref}`, {
        hint: "see 'hammer-box images list'",
      });
    if (out.has(img.id)) return;
    const lock = lockOfLabels(img.labels);
    if (ref !== BASE_TAG && img.labels['hammer-box.managed-by'] !== 'hammer-box')
      throw new HammerError('USAGE', `${ref} is not a hammer-box image: only hammer-box's images are exported`);
    out.set(img.id, { tag: ref, id: img.id, lock: lock ? lockDigest(lock) : null });
    if (ref === BASE_TAG) return;
    if (!lock)
      throw new HammerError('IMAGE_MISSING', `${ref} has no lock (it was built before hammer-box recorded locks)`, {
        hint: `remove it ('docker rmi ${ref}') and let the next run or 'hammer-box images build' make it again, with its lock`,
      });
    // an env image's toolchain image is found by id; its tag is the one a run looks for
    const from = lock.kind === 'toolchain' ? BASE_TAG : await tagOf(docker, lock.from.id, lock.from.ref, signal);
    await add(from);
  };
  for (const ref of refs) await add(ref);
  return [...out.values()];
}

/** A tag of the image `id` (the one recorded when it still names it). */
async function tagOf(docker: Dockerode, id: string, recorded: string, signal?: AbortSignal): Promise<string> {
  const byTag = await inspectImage(docker, recorded, signal);
  if (byTag?.id === id) return recorded;
  throw new HammerError(
    'IMAGE_MISSING',
    `the image ${recorded} (${id.slice(7, 19)}) that an env image was made from is gone`,
    {
      hint: 'rebuild it (a run does), then export again',
    },
  );
}

/** Write the images to `file` (through a temporary file, renamed into place when complete). */
export async function exportImages(
  docker: Dockerode,
  images: readonly ExportedImage[],
  file: string,
  signal?: AbortSignal,
): Promise<void> {
  throwIfAborted(signal, 'exporting images');
  const tmp = `${file}.partial-${process.pid}`;
  try {
    // GET /images/get?names=...: dockerode has it, its type definitions do not
    const engine = docker as unknown as { getImages(opts: object): Promise<NodeJS.ReadableStream> };
    const stream = await engine.getImages({ names: images.map((i) => i.tag), abortSignal: signal });
    await pipeline(stream, createWriteStream(tmp, { mode: 0o600 }), { signal });
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw engineError(err, `exporting images to ${file}`, signal);
  }
}

/** What an import did. */
export interface ImportReport {
  images: { tag: string; id: string; lock: string | null; replaced: string | null }[];
  /** Per tag the engine held already with another image: how the locks differ. */
  drift: { tag: string; was: string; differences: string[] }[];
}

/**
 * Check `file` and load it: IMAGE_IMPORT naming every problem when it is not a consistent set of
 * hammer-box images (nothing is loaded then). A tag the engine held with another image is replaced,
 * and reported with how its lock differed; each lock is recorded in `lockStore`.
 */
export async function importImages(
  docker: Dockerode,
  file: string,
  options: { lockStore?: string; signal?: AbortSignal } = {},
): Promise<ImportReport> {
  const { signal } = options;
  throwIfAborted(signal, 'importing images');
  const images = await readArchive(createReadStream(file));
  const engineIds = new Set<string>();
  const before = new Map<string, { id: string; labels: Record<string, string> }>();
  for (const img of images) {
    if (img.lock && (await inspectImage(docker, img.lock.from.id, signal))) engineIds.add(img.lock.from.id);
    for (const tag of img.tags) {
      const had = await inspectImage(docker, tag, signal);
      if (had) before.set(tag, { id: had.id, labels: had.labels });
    }
  }
  const problems = checkArchive(images, engineIds);
  if (problems.length > 0)
    throw new HammerError('IMAGE_IMPORT', `${file} was not imported: ${problems.slice(0, 10).join('; ')}`, {
      hint: "import only archives 'hammer-box images export' wrote (of images with locks)",
    });
  await load(docker, file, signal);
  const report: ImportReport = { images: [], drift: [] };
  for (const img of images) {
    const loaded = await inspectImage(docker, img.id, signal);
    if (!loaded) throw new HammerError('IMAGE_IMPORT', `the engine loaded ${file} but has no ${img.id}`);
    for (const tag of img.tags) {
      const was = before.get(tag);
      const replaced = was && was.id !== img.id ? was.id : null;
      report.images.push({ tag, id: img.id, lock: img.lock ? lockDigest(img.lock) : null, replaced });
      if (replaced && was) {
        const old = lockOfLabels(was.labels);
        report.drift.push({
          tag,
          was: replaced,
          differences: old && img.lock ? diffLocks(old, img.lock) : ['the image it replaced has no lock'],
        });
      }
      if (img.lock && options.lockStore)
        await recordLock(options.lockStore, tag, img.id, img.lock, new Date()).catch(() => []);
    }
  }
  return report;
}

/** docker load of the file, following its progress to the end. */
async function load(docker: Dockerode, file: string, signal?: AbortSignal): Promise<void> {
  let summary;
  try {
    const stream = await docker.loadImage(createReadStream(file), { quiet: true, abortSignal: signal });
    summary = await readProgress(stream, undefined, 10);
  } catch (err) {
    throw engineError(err, `loading ${file}`, signal);
  }
  if (summary.error !== undefined) throw new HammerError('IMAGE_IMPORT', `loading ${file}: ${summary.error}`);
}

export type { ArchivedImage };
