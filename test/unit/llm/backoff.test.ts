import { describe, expect, it } from 'vitest';
import { BACKOFF_CAP_MS, backoffDelay, parseRetryAfter } from '../../../src/llm/backoff.js';

describe('backoffDelay', () => {
  it('doubles from 250 ms and jitters within the upper half', () => {
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, () => 0.999999))).toEqual([250, 500, 1000, 2000]);
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, () => 0))).toEqual([125, 250, 500, 1000]);
    const mid = backoffDelay(2, () => 0.5);
    expect(mid).toBe(750);
  });
  it('never exceeds the cap', () => {
    expect(backoffDelay(30, () => 1)).toBe(BACKOFF_CAP_MS);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, capped', () => {
    expect(parseRetryAfter('2', 0)).toBe(2000);
    expect(parseRetryAfter('0.5', 0)).toBe(500);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('99999', 0)).toBe(BACKOFF_CAP_MS);
  });
  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
  });
});
