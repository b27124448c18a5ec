// An image's lock kept where the image goes: in its labels (`hammer-box.lock`, the canonical JSON,
// and `hammer-box.lock-digest`). A freshly built toolchain image or committed env image is probed,
// and the lock is put on it by a build of `FROM <id>` with the two labels (no layer is added), which
// takes its tag; an image is never relabelled after anything was made from it.
import { Readable } from 'node:stream';
import type Dockerode from 'dockerode';
import tar from 'tar-stream';
import { HammerError, throwIfAborted } from '../errors.js';
import { engineError, inspectImage } from './engine.js';
import { lockDigest, lockText, parseLock, type ImageLock } from './lock.js';
import { lockFromFacts, probeImage } from './lock-probe.js';
import { readProgress } from './progress.js';

/** The label keys of a lock. */
export const LOCK_LABELS = { lock: 'hammer-box.lock', digest: 'hammer-box.lock-digest' } as const;

/** The lock an image's labels hold, when they hold one whose digest label agrees with its text; null otherwise. */
export function lockOfLabels(labels: Readonly<Record<string, string>>): ImageLock | null {
  const text = labels[LOCK_LABELS.lock];
  if (text === undefined) return null;
  const lock = parseLock(text);
  if (!lock || labels[LOCK_LABELS.digest] !== lockDigest(lock)) return null;
  return lock;
}

/** What the image is, for its lock. */
export interface LockSubject {
  kind: ImageLock['kind'];
  /** Its content key (the hash its tag ends with). */
  key: string;
  /** What it was made from: the base image (toolchain images) or the toolchain image (env images). */
  from: ImageLock['from'];
  toolchain: string;
}

/**
 * Probe `id` (just built or committed as `tag`), put its lock on it and give it `tag`: the labelled
 * image's id and the lock.
 */
export async function attachLock(
  docker: Dockerode,
  image: { tag: string; id: string },
  subject: LockSubject,
  extraLabels: Readonly<Record<string, string>> = {},
  signal?: AbortSignal,
): Promise<{ id: string; lock: ImageLock }> {
  const lock = lockFromFacts(await probeImage(docker, image.id, signal), subject);
  const id = await relabel(
    docker,
    image,
    { ...extraLabels, [LOCK_LABELS.lock]: lockText(lock), [LOCK_LABELS.digest]: lockDigest(lock) },
    signal,
  );
  return { id, lock };
}

/** Build `FROM <id>` with `labels` (no layer), tagged `tag`; the new image's id. */
async function relabel(
  docker: Dockerode,
  image: { tag: string; id: string },
  labels: Readonly<Record<string, string>>,
  signal?: AbortSignal,
): Promise<string> {
  const what = `recording the lock of ${image.tag}`;
  throwIfAborted(signal, what);
  const pack = tar.pack();
  pack.entry({ name: 'Dockerfile', mode: 0o644, mtime: new Date(0) }, `FROM ${image.id}\n`);
  pack.finalize();
  let summary;
  try {
    const stream = await docker.buildImage(Readable.from(pack), {
      t: image.tag,
      labels,
      pull: false,
      rm: true,
      forcerm: true,
      version: '1',
      abortSignal: signal,
    });
    summary = await readProgress(stream, undefined, 10);
  } catch (err) {
    throw engineError(err, what, signal);
  }
  if (summary.error !== undefined)
    throw new HammerError('IMAGE_BUILD_FAILED', `${what}: ${summary.error}\n${summary.tail.join('\n')}`);
  const made = await inspectImage(docker, image.tag, signal);
  if (!made) throw new HammerError('IMAGE_BUILD_FAILED', `${what}: the engine has no ${image.tag} after it`);
  return made.id;
}
