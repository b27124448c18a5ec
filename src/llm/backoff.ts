// How long to wait before the next attempt.

/** First retry waits about this long; each next one doubles. */
export const BACKOFF_BASE_MS = 250;
/** No single wait is longer than this (a server's Retry-After included). */
export const BACKOFF_CAP_MS = 30_000;

/** Delay before retry number `retry` (0 for the first): 250 ms * 2^retry, jittered into its upper half. */
export function backoffDelay(retry: number, random: () => number): number {
  const full = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(full / 2 + (full / 2) * r);
}

/** A Retry-After header (seconds or an HTTP date) in milliseconds, capped; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  let ms: number | undefined;
  if (/^\d+(\.\d+)?$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (!Number.isNaN(at)) ms = Math.max(0, at - nowMs);
  }
  return ms === undefined ? undefined : Math.min(BACKOFF_CAP_MS, ms);
}
