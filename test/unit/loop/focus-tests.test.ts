import { describe, expect, it } from 'vitest';
import { alternativeVerdict } from '../../../src/loop/alternatives.js';
import { focusedRunStands, focusFor, withFocus } from '../../../src/loop/focus-tests.js';
import { decideNext, testPassed } from '../../../src/loop/stop-conditions.js';
import type { TestRecord } from '../../../src/state/run-state.js';
import { iteration, makeState, testRecord } from '../state/make-state.js';

const failing = (ids: string[]): TestRecord['parsed'] => ({
  runners: ['pytest'],
  failing: ids.map((id) => ({ runner: 'pytest', scope: 'test', id, name: id, package: null, file: null, line: null })),
  counts: [],
});
const failed = testRecord(1, { parsed: failing(['tests/test_calc.py::test_add']) });
const CMD = 'python3 -m pytest -q';

describe('focusFor', () => {
  it("runs the latest run's failing tests when it failed and named them", () => {
    const state = makeState({ baseline: failed, iterations: [] });
    expect(focusFor(state, CMD, true)?.command).toBe(`${CMD} tests/test_calc.py::test_add`);
  });

  it("follows the latest iteration's record over the baseline", () => {
    const later = testRecord(1, { parsed: failing(['tests/test_io.py::test_load']) });
    const state = makeState({ baseline: failed, iterations: [iteration(1, 'applied', { patch: 'a', test: later })] });
    expect(focusFor(state, CMD, true)?.command).toBe(`${CMD} tests/test_io.py::test_load`);
  });

  it('the whole suite: focus off, nothing ran yet, the last run passed, or named no test', () => {
    expect(focusFor(makeState({ baseline: failed, iterations: [] }), CMD, false)).toBeNull();
    expect(focusFor(makeState({ baseline: null, iterations: [] }), CMD, true)).toBeNull();
    expect(focusFor(makeState({ baseline: testRecord(0), iterations: [] }), CMD, true)).toBeNull();
    expect(
      focusFor(makeState({ baseline: testRecord(1, { parsed: failing([]) }), iterations: [] }), CMD, true),
    ).toBeNull();
    expect(focusFor(makeState({ baseline: testRecord(1), iterations: [] }), CMD, true)).toBeNull();
  });

  it('the whole suite when the command cannot be filtered (silently)', () => {
    expect(focusFor(makeState({ baseline: failed, iterations: [] }), 'make test', true)).toBeNull();
  });
});

describe('focusedRunStands', () => {
  it('a focused run that failed and named failing tests decides the iteration', () => {
    expect(focusedRunStands(failed)).toBe(true);
    expect(focusedRunStands(testRecord(0, { timed_out: true, parsed: failing(['a']) }))).toBe(true);
  });

  it('the whole suite follows a focused run that passed, or failed without naming a test', () => {
    expect(focusedRunStands(testRecord(0, { parsed: failing([]) }))).toBe(false);
    expect(focusedRunStands(testRecord(4, { parsed: failing([]) }))).toBe(false);
    expect(focusedRunStands(testRecord(1))).toBe(false);
  });
});

describe('focusedRunStands with failures from before', () => {
  const baseline = testRecord(1, { parsed: failing(['tests/test_calc.py::test_add', 'tests/test_msg.py::test_text']) });
  const state = makeState({ baseline, iterations: [] });

  it('the whole suite runs when only failures from before are left and a baseline failure passes', () => {
    expect(focusedRunStands(testRecord(1, { parsed: failing(['tests/test_msg.py::test_text']) }), state)).toBe(false);
  });

  it('the focused run stands while nothing is fixed, or with a new failure', () => {
    expect(focusedRunStands(testRecord(1, { parsed: baseline.parsed }), state)).toBe(true);
    const fresh = failing(['tests/test_msg.py::test_text', 'tests/test_io.py::test_load']);
    expect(focusedRunStands(testRecord(1, { parsed: fresh }), state)).toBe(true);
  });

  it('declared known failures count as from before', () => {
    const known = testRecord(1, { parsed: failing(['tests/test_io.py::test_load']) });
    expect(focusedRunStands(known, state)).toBe(true);
    expect(focusedRunStands(known, state, ['tests/test_io.py::*'])).toBe(false);
  });
});

describe('the whole suite decides stable', () => {
  it('a focused record never counts as passing, even with exit 0', () => {
    const focused = testRecord(0, { scope: 'focused' });
    expect(testPassed(focused)).toBe(false);
    const state = makeState({ baseline: failed, iterations: [iteration(1, 'applied', { patch: 'a', test: focused })] });
    expect(decideNext(state, { maxIterations: 5, maxUnusableAnswers: 3 })).toEqual({ action: 'generate' });
  });

  it("the whole suite's record keeps the focused run that came first", () => {
    const full = withFocus(testRecord(0), testRecord(0, { command: `${CMD} x`, duration_ms: 80 }));
    expect(full.focus).toEqual({ command: `${CMD} x`, exit_code: 0, duration_ms: 80, timed_out: false });
    expect(testPassed(full)).toBe(true);
  });
});

describe('alternativeVerdict', () => {
  it('switches to another project only when its tests fail and its output names them', () => {
    expect(alternativeVerdict(testRecord(0))).toBe('passes');
    expect(alternativeVerdict(failed)).toBe('switch');
    expect(alternativeVerdict(testRecord(127, { parsed: failing([]) }))).toBe('unclear');
    expect(alternativeVerdict(testRecord(1))).toBe('unclear');
  });
});
