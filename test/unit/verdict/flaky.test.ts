// Flaky baseline failures: claimed only where the rerun proves the test ran and passed.
import { describe, expect, it } from 'vitest';
import { rerunPlan, rerunRecord, flakyNotice } from '../../../src/loop/baseline-rerun.js';
import type { TestRecord } from '../../../src/state/run-state.js';
import { flakyFailures } from '../../../src/verdict/index.js';
import { testRecord } from '../state/make-state.js';

const A = 'tests/test_a.py::test_one';
const B = 'tests/test_b.py::test_two';

const run = (
  ids: string[],
  counts: { passed: number | null; failed: number | null } | null,
  extra: Partial<TestRecord> = {},
) =>
  testRecord(ids.length === 0 ? 0 : 1, {
    parsed: {
      runners: ['pytest'],
      failing: ids.map((id) => ({
        runner: 'pytest',
        scope: 'test',
        id,
        name: id,
        package: null,
        file: null,
        line: null,
      })),
      counts: counts === null ? [] : [{ runner: 'pytest', ...counts }],
    },
    ...extra,
  });

describe('flakyFailures', () => {
  const baseline = run([A, B], { passed: 5, failed: 2 });

  it('a focused rerun: the failures it no longer names, when it counts that many passing', () => {
    expect(flakyFailures(baseline, run([A], { passed: 1, failed: 1 }, { scope: 'focused' })).map((t) => t.id)).toEqual([
      B,
    ]);
    expect(flakyFailures(baseline, run([], { passed: 2, failed: 0 }, { scope: 'focused' })).map((t) => t.id)).toEqual([
      A,
      B,
    ]);
  });

  it('a focused rerun that did not run a test proves nothing of it', () => {
    // pytest says 0 passed: the filter selected only A
    expect(flakyFailures(baseline, run([A], { passed: 0, failed: 1 }, { scope: 'focused' }))).toEqual([]);
  });

  it('a whole rerun must count the tests that passed before, and the flaky ones on top', () => {
    expect(flakyFailures(baseline, run([A], { passed: 6, failed: 1 })).map((t) => t.id)).toEqual([B]);
    // stopped at the first failure (-x): fewer passed than at baseline, so B may not have run
    expect(flakyFailures(baseline, run([A], { passed: 2, failed: 1 }))).toEqual([]);
  });

  it('proves nothing without counts, with unnamed failures, or from a rerun that timed out or was not read', () => {
    expect(flakyFailures(baseline, run([A], null, { scope: 'focused' }))).toEqual([]);
    expect(flakyFailures(baseline, run([A], { passed: 1, failed: 2 }, { scope: 'focused' }))).toEqual([]);
    expect(flakyFailures(baseline, run([A], { passed: 1, failed: 1 }, { scope: 'focused', timed_out: true }))).toEqual(
      [],
    );
    const unread = run([A], { passed: 1, failed: 1 }, { scope: 'focused' });
    unread.parsed = { ...unread.parsed!, unread: 'garbled' };
    expect(flakyFailures(baseline, unread)).toEqual([]);
    expect(flakyFailures(baseline, undefined)).toEqual([]);
    expect(flakyFailures(null, run([], { passed: 2, failed: 0 }))).toEqual([]);
  });

  it('a test of a runner the rerun did not recognise is not flaky', () => {
    const tap = testRecord(0, {
      scope: 'focused',
      parsed: { runners: ['tap'], failing: [], counts: [{ runner: 'tap', passed: 2, failed: 0 }] },
    });
    expect(flakyFailures(baseline, tap)).toEqual([]);
  });
});

describe('rerunPlan', () => {
  const opts = { enabled: true, knownFailures: [] };

  it('reruns only the failing tests when the runner can be filtered, else the whole suite', () => {
    const baseline = run([A, B], { passed: 5, failed: 2 });
    expect(rerunPlan(baseline, 'python3 -m pytest -q', opts)).toEqual({
      command: `python3 -m pytest -q ${A} ${B}`,
      focused: true,
      tests: 2,
    });
    expect(rerunPlan(baseline, 'npm test', opts)).toEqual({ command: 'npm test', focused: false, tests: 2 });
  });

  it('reruns nothing when off, or when the baseline passed, found no test, timed out, or names no failure but known ones', () => {
    const baseline = run([A, B], { passed: 5, failed: 2 });
    expect(rerunPlan(baseline, 'npm test', { ...opts, enabled: false })).toBeNull();
    expect(rerunPlan(run([], { passed: 5, failed: 0 }), 'npm test', opts)).toBeNull();
    expect(
      rerunPlan(
        run([], null, { exit_code: 5, parsed: { runners: [], failing: [], counts: [], no_tests: true } }),
        'npm test',
        opts,
      ),
    ).toBeNull();
    expect(rerunPlan({ ...baseline, timed_out: true }, 'npm test', opts)).toBeNull();
    expect(rerunPlan(testRecord(1), 'npm test', opts)).toBeNull();
    expect(rerunPlan(baseline, 'npm test', { enabled: true, knownFailures: ['tests/*'] })).toBeNull();
  });

  it('records a focused rerun as focused, a whole one as whole', () => {
    const again = run([A], { passed: 1, failed: 1 });
    expect(rerunRecord(again, { command: 'x', focused: true, tests: 2 }).scope).toBe('focused');
    expect(
      rerunRecord({ ...again, scope: 'focused' }, { command: 'x', focused: false, tests: 2 }).scope,
    ).toBeUndefined();
  });

  it('says which tests were flaky', () => {
    const baseline = run([A, B], { passed: 5, failed: 2 });
    expect(flakyNotice(baseline, run([A], { passed: 1, failed: 1 }, { scope: 'focused' }))).toBe(
      `1 baseline failure passed when run again: flaky, not a target: ${B}`,
    );
    expect(flakyNotice(baseline, run([A, B], { passed: 0, failed: 2 }, { scope: 'focused' }))).toBeNull();
  });
});
