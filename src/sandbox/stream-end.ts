// Small promise helpers around streams and time for the exec path.
import type { Duplex } from 'node:stream';

/** Resolves when the stream has ended or closed; rejects on its error. */
export function streamEnd(stream: Duplex): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.readableEnded || stream.destroyed) return resolve();
    stream.once('end', () => resolve());
    stream.once('close', () => resolve());
    stream.once('error', reject);
  });
}

/** True when `p` settles within `ms`, false otherwise (the promise keeps running). */
export async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      p.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Wait `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
