// Failing tests first: which command an iteration's tests start with, and, once it ran, whether the
// whole suite must run after it (pure decisions; the runs themselves are the sandbox's).
import type { RunState, TestRecord } from '../state/run-state.js';
import { focusCommand, type FocusPlan } from '../test-output/index.js';
import { judgeTest, latestTest, onlyOldFailuresRemain, ranClean, testPassed } from './stop-conditions.js';

/**
 * The focused command for the next test run: the failing tests the latest run named, when focus is
 * on, that run failed, and its runner can be filtered (see focusCommand); null for the whole suite.
 */
export function focusFor(state: RunState, testCommand: string, enabled: boolean): FocusPlan | null {
  if (!enabled) return null;
  const last = latestTest(state);
  if (last === null || testPassed(last) || !last.parsed) return null;
  return focusCommand(testCommand, last.parsed.failing);
}

/**
 * The focused run decides the iteration only when it failed, named failing tests, and shows no
 * progress; when it passed, or failed without naming any (a filter that matched nothing, a crash),
 * or some targeted test passes now (every one, or some: whether anything regressed, and so whether
 * the run is stable or partial, only the whole suite says), the whole suite runs next.
 */
export function focusedRunStands(
  focused: TestRecord,
  state?: Pick<RunState, 'baseline' | 'directive'>,
  knownFailures: readonly string[] = [],
): boolean {
  if (ranClean(focused) || (focused.parsed?.failing.length ?? 0) === 0) return false;
  // only failures from before (or declared known) left, and the targeted tests pass: the whole
  // suite decides whether the run can end on them
  if (state === undefined) return true;
  const j = judgeTest(state, { ...focused, scope: undefined }, knownFailures);
  return !onlyOldFailuresRemain(j) && j?.verdict !== 'partial';
}

/** The record of the whole suite's run with the focused run that passed before it. */
export function withFocus(full: TestRecord, focused: TestRecord): TestRecord {
  return {
    ...full,
    focus: {
      command: focused.command,
      exit_code: focused.exit_code,
      duration_ms: focused.duration_ms,
      timed_out: focused.timed_out,
    },
  };
}
