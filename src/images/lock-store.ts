// The locks this machine has seen for each image key, in the user's state directory: the first
// lock recorded for a key is its reference, so an image rebuilt (after a prune, or on an engine
// that lost it) or imported under the same key whose lock differs is reported as a drift, naming
// what changed, never taken for the same environment.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../state/atomic-write.js';
import { diffLocks, ImageLockSchema, lockDigest, normalizeLock, type ImageLock } from './lock.js';
import { imageUsagePath } from './usage.js';

/** Locks kept per key (the reference and the newest others). */
const MAX_PER_KEY = 10;

const entrySchema = z.object({ digest: z.string(), image_id: z.string(), at: z.string(), lock: ImageLockSchema });
const fileSchema = z.object({ locks: z.array(entrySchema) });

/** One lock seen for a key. */
export type LockEntry = z.infer<typeof entrySchema>;

/** The directory: $XDG_STATE_HOME/hammer-box/locks, beside the image usage file. */
export function lockStoreDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(dirname(imageUsagePath(env)), 'locks');
}

function fileOf(dir: string, tag: string): string {
  return join(dir, `${tag.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
}

/** The locks seen for an image's tag, the reference first. */
export async function readLocks(dir: string, tag: string): Promise<LockEntry[]> {
  try {
    const parsed = fileSchema.safeParse(JSON.parse(await readFile(fileOf(dir, tag), 'utf8')));
    return parsed.success ? parsed.data.locks.map((e) => ({ ...e, lock: normalizeLock(e.lock) })) : [];
  } catch {
    return [];
  }
}

/**
 * Record that the image `imageId`, tagged `tag`, has `lock`; the lines saying how it differs from
 * the key's reference lock (empty when it is the same, or the first seen).
 */
export async function recordLock(
  dir: string,
  tag: string,
  imageId: string,
  lock: ImageLock,
  at: Date,
): Promise<string[]> {
  const entries = await readLocks(dir, tag);
  const digest = lockDigest(lock);
  const reference = entries[0];
  if (!entries.some((e) => e.digest === digest)) {
    const next = [...entries, { digest, image_id: imageId, at: at.toISOString(), lock }];
    const kept = next.length > MAX_PER_KEY ? [next[0]!, ...next.slice(-(MAX_PER_KEY - 1))] : next;
    await mkdir(dir, { recursive: true });
    await writeFileAtomic(fileOf(dir, tag), `${JSON.stringify({ locks: kept }, null, 2)}\n`);
  }
  return reference && reference.digest !== digest ? diffLocks(reference.lock, lock) : [];
}
