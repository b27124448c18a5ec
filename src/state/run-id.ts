// Run ids: a UTC timestamp to the second plus random base32, so ids sort by start time and two
// runs started in the same second still differ.
import { randomBytes as cryptoRandomBytes } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** What a run id looks like: 20261122T140501Z-k3b7qa. */
export const RUN_ID_PATTERN = /^\d{8}T\d{6}Z-[a-z2-7]{6}$/;

/** A new run id from the clock and a source of random bytes. */
export function newRunId(now: Date = new Date(), randomBytes: (n: number) => Uint8Array = cryptoRandomBytes): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const bytes = randomBytes(6);
  let suffix = '';
  for (let i = 0; i < 6; i++) suffix += BASE32[(bytes[i] ?? 0) & 31];
  return `${stamp}-${suffix}`;
}

/** True when `id` has the shape of a run id (and so is safe to use as a file name). */
export function isRunId(id: string): boolean {
  return RUN_ID_PATTERN.test(id);
}
