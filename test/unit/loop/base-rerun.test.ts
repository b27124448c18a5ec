import { describe, expect, it } from 'vitest';
import { baseRerunPlan } from '../../../src/loop/base-rerun.js';
import { decideNext } from '../../../src/loop/stop-conditions.js';
import type { BaseRerun, TestRecord } from '../../../src/state/run-state.js';
import { iteration, makeState, testRecord } from '../state/make-state.js';

const failing = (ids: string[]): TestRecord['parsed'] => ({
  runners: ['pytest'],
  failing: ids.map((id) => ({ runner: 'pytest', scope: 'test', id, name: id, package: null, file: null, line: null })),
  counts: [{ runner: 'pytest', passed: 3, failed: ids.length }],
});
const TARGET = 'tests/test_calc.py::test_total';
const TIMING = 'tests/test_timing.py::test_fast';
const baseline = testRecord(1, { parsed: failing([TARGET]) });
const after = testRecord(1, { parsed: failing([TIMING]) });
const state = makeState({ baseline });

describe('re-running at the base a failure the baseline did not have', () => {
  it('re-runs the new failures, focused, when only they stand between the run and its end', () => {
    expect(baseRerunPlan(state, after, [], 'python3 -m pytest -q')).toEqual({
      tests: [expect.objectContaining({ id: TIMING })],
      command: `python3 -m pytest -q ${TIMING}`,
    });
    // a runner that cannot be filtered: the whole suite
    expect(baseRerunPlan(state, after, [], 'make check')?.command).toBe('make check');
  });

  it('re-runs nothing for a focused or timed-out run, a test re-run already, or while the targeted tests still fail', () => {
    expect(baseRerunPlan(state, { ...after, scope: 'focused' }, [], 'pytest')).toBeNull();
    expect(baseRerunPlan(state, { ...after, timed_out: true }, [], 'pytest')).toBeNull();
    const rerun: BaseRerun = {
      iteration: 1,
      command: 'pytest',
      exit_code: 0,
      duration_ms: 10,
      timed_out: false,
      tests: after.parsed!.failing,
      failing: [],
      artifact: null,
    };
    expect(baseRerunPlan({ ...state, base_reruns: [rerun] }, after, [], 'pytest')).toBeNull();
    expect(baseRerunPlan(state, testRecord(1, { parsed: failing([TARGET, TIMING]) }), [], 'pytest')).toBeNull();
    expect(baseRerunPlan(state, testRecord(0), [], 'pytest')).toBeNull();
  });

  it('a test that failed at the base on its re-run is a failure from before: the run can end stable', () => {
    const applied = iteration(1, 'applied', { patch: 'a', test: after });
    const limits = { maxIterations: 5, maxUnusableAnswers: 3 };
    expect(decideNext(makeState({ baseline, iterations: [applied] }), limits)).toEqual({ action: 'generate' });
    const rerun: BaseRerun = {
      iteration: 1,
      command: `pytest ${TIMING}`,
      exit_code: 1,
      duration_ms: 10,
      timed_out: false,
      tests: after.parsed!.failing,
      failing: after.parsed!.failing,
      artifact: null,
    };
    expect(decideNext(makeState({ baseline, iterations: [applied], base_reruns: [rerun] }), limits)).toMatchObject({
      action: 'stop',
      status: 'stable',
      reason: 'baseline_failures_remain',
    });
  });
});
