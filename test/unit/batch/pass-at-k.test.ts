// pass@k: the unbiased estimator against its definition, and the mean over tasks.
import { describe, expect, it } from 'vitest';
import { passAtK, passAtKs } from '../../../src/batch/pass-at-k.js';

function binom(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

describe('passAtK', () => {
  it('is 1 - C(n-c, k) / C(n, k)', () => {
    for (let n = 1; n <= 12; n++)
      for (let c = 0; c <= n; c++)
        for (let k = 1; k <= n; k++) {
          const want = n - c < k ? 1 : 1 - binom(n - c, k) / binom(n, k);
          expect(passAtK(n, c, k)).toBeCloseTo(want, 12);
        }
  });

  it('is c/n at k = 1, and 0 or 1 at the ends', () => {
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 12);
    expect(passAtK(5, 0, 5)).toBe(0);
    expect(passAtK(5, 1, 5)).toBe(1);
  });

  it('refuses k > n and counts out of range', () => {
    expect(() => passAtK(2, 1, 3)).toThrow(RangeError);
    expect(() => passAtK(2, 3, 1)).toThrow(RangeError);
  });
});

describe('passAtKs', () => {
  it('averages over the tasks with at least k attempts', () => {
    expect(
      passAtKs([
        { n: 2, c: 1 },
        { n: 1, c: 0 },
        { n: 1, c: 1 },
      ]),
    ).toEqual([
      { k: 1, value: (0.5 + 0 + 1) / 3, tasks: 3 },
      { k: 2, value: 1, tasks: 1 },
    ]);
    expect(passAtKs([])).toEqual([{ k: 1, value: null, tasks: 0 }]);
  });
});
