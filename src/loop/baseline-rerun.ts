// The baseline's failing tests run again at once, on the same tree: which command (a pure decision),
// and what the rerun said (a test that passes there is flaky, never a target; see src/verdict).
import type { TestRecord } from '../state/run-state.js';
import { focusCommand, knownFailureMatcher, type FailingTest } from '../test-output/index.js';
import { flakyFailures, readTest } from '../verdict/index.js';

/** The rerun's command, and whether it runs only the failing tests. */
export interface RerunPlan {
  command: string;
  focused: boolean;
  /** The failing tests it runs again. */
  tests: number;
}

/**
 * The rerun of a baseline that failed naming failing tests (not only declared known ones): those
 * tests alone when the runner can be filtered (see focusCommand), else the whole suite. Null when
 * reruns are off, or the baseline passed, found no test, timed out, could not be read, or named
 * no failing test.
 */
export function rerunPlan(
  baseline: TestRecord,
  testCommand: string,
  opts: { enabled: boolean; knownFailures: readonly string[] },
): RerunPlan | null {
  if (!opts.enabled || baseline.parsed === undefined || readTest(baseline) !== 'failed') return null;
  const isKnown = knownFailureMatcher(opts.knownFailures);
  const failing = baseline.parsed.failing.filter((t) => !isKnown(t));
  if (failing.length === 0) return null;
  const focus = focusCommand(testCommand, failing);
  return focus === null
    ? { command: testCommand, focused: false, tests: failing.length }
    : { command: focus.command, focused: true, tests: focus.tests };
}

/** The rerun's record as the state keeps it: `scope: "focused"` when it ran only the failing tests. */
export function rerunRecord(record: TestRecord, plan: RerunPlan): TestRecord {
  const { scope: _scope, ...rest } = record;
  return plan.focused ? { ...rest, scope: 'focused' } : rest;
}

/** "1 baseline failure passed when run again: flaky, not a target: tests/test_net.py::test_fetch", or null. */
export function flakyNotice(baseline: TestRecord, rerun: TestRecord): string | null {
  const flaky: FailingTest[] = flakyFailures(baseline, rerun);
  if (flaky.length === 0) return null;
  const shown = flaky.slice(0, 5).map((t) => t.id);
  const more = flaky.length > 5 ? ` and ${flaky.length - 5} more` : '';
  return `${flaky.length} baseline failure${flaky.length === 1 ? '' : 's'} passed when run again: flaky, not ${flaky.length === 1 ? 'a target' : 'targets'}: ${shown.join(', ')}${more}`;
}
