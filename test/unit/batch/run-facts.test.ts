// What a batch keeps of a run: iterations and patches, the model's time and tokens in both modes.
import { describe, expect, it } from 'vitest';
import { attemptRunOf, runEndOf } from '../../../src/batch/run-facts.js';
import { iteration, makeState, testRecord, trajectory } from '../state/make-state.js';

describe('attemptRunOf', () => {
  it("sums the answers' time and tokens, counting finished iterations and applied patches", () => {
    const s = makeState({
      status: 'failed',
      reason: 'max_iterations',
      iterations: [
        iteration(1, 'applied', { patch: 'a', test: testRecord(1) }),
        iteration(2, 'rejected', { patch: 'b' }),
        { ...iteration(3, null), answer: null },
      ],
    });
    const got = attemptRunOf(s);
    expect(got).toMatchObject({ status: 'failed', reason: 'max_iterations', iterations: 2, applied: 1, branch: null });
    expect(got.model_ms).toBe(10_000);
    expect(got.tokens_out).toBe(240);
    expect(runEndOf(s)).toEqual({ status: 'failed', reason: 'max_iterations', applied: 1, errorCode: null });
  });

  it('counts every turn of an agent trajectory', () => {
    const it3 = { ...iteration(1, 'applied', { patch: 'a' }), answer: null, trajectory: trajectory(1, 3) };
    const got = attemptRunOf(makeState({ iterations: [it3] }));
    expect(got.model_ms).toBe(2700);
    expect([got.tokens_in, got.tokens_out]).toEqual([1000 + 1001 + 1002, 60]);
  });

  it("names the last recorded error's code", () => {
    const s = makeState({
      status: 'error',
      reason: 'error',
      errors: [
        { at: '2026-11-22T14:05:01.000Z', code: 'GIT_FAILED', message: 'x' },
        { at: '2026-11-22T14:05:02.000Z', code: 'SANDBOX_BROKEN', message: 'y' },
      ],
    });
    expect(runEndOf(s).errorCode).toBe('SANDBOX_BROKEN');
  });
});
