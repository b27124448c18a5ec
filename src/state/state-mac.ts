// The seal on a state file: an HMAC-SHA256 of the file's exact bytes under the user's state key,
// written as the file's first member ("mac"), so the file stays plain JSON. Pure.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The prefix of the seal's value (names the algorithm, so it can change one day). */
export const MAC_ALGORITHM = 'hmac-sha256';

const SEAL_LINE = /^\{\n {2}"mac": "([a-z0-9-]+):([0-9a-f]{64})",\n/;

function macOf(key: Uint8Array, body: string): string {
  return createHmac('sha256', key).update(body, 'utf8').digest('hex');
}

/** Seal `body` (JSON text of an object, as JSON.stringify(v, null, 2) writes it): the same text with the MAC first. */
export function sealState(body: string, key: Uint8Array): string {
  if (!body.startsWith('{\n')) throw new Error('sealState: not the JSON text of an object');
  return `{\n  "mac": "${MAC_ALGORITHM}:${macOf(key, body)}",\n${body.slice(2)}`;
}

/** What opening a sealed file found: the body the MAC covers, or why the file is not trusted. */
export type Opened = { ok: true; body: string } | { ok: false; reason: 'unsealed' | 'mismatch' };

/** Check the seal of a state file's text under `key`; returns the body (without the seal) when it verifies. */
export function openSealedState(text: string, key: Uint8Array): Opened {
  const m = SEAL_LINE.exec(text);
  if (!m || m[1] !== MAC_ALGORITHM) return { ok: false, reason: 'unsealed' };
  const body = `{\n${text.slice(m[0].length)}`;
  const want = Buffer.from(macOf(key, body), 'hex');
  const got = Buffer.from(m[2] ?? '', 'hex');
  return want.length === got.length && timingSafeEqual(want, got)
    ? { ok: true, body }
    : { ok: false, reason: 'mismatch' };
}

/** The body of a state file's text with the seal line removed, unverified (for tools that only inspect). */
export function unsealedBody(text: string): string {
  const m = SEAL_LINE.exec(text);
  return m ? `{\n${text.slice(m[0].length)}` : text;
}
