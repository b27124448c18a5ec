// The warning a run gives when its tests already pass at the base commit although the directive
// asks for a fix: the tests may not cover the problem, or the test command does not run them.
import type { TestRecord } from '../state/run-state.js';
import { asksForFix } from '../text/fix-directive.js';
import { ranClean } from './test-reading.js';

export { asksForFix } from '../text/fix-directive.js';

/**
 * The warning for a baseline that passed on a fix directive (or exited 0 with output nothing could be
 * read from: no failure was seen either), or null when there is nothing to warn about.
 */
export function baselinePassWarning(state: {
  directive: { text: string };
  baseline: Pick<TestRecord, 'exit_code' | 'timed_out' | 'command' | 'parsed' | 'unread'> | null;
}): string | null {
  const b = state.baseline;
  if (b === null || !asksForFix(state.directive.text)) return null;
  if (b.unread === true && b.exit_code === 0 && !b.timed_out)
    return `the test command exits 0 at the base commit (${b.command}), but hammer-box cannot read its output (no test runner's results, no count or result line), so no failing test is seen although the directive asks for a fix: its result is unread, never a pass (name the command that runs the failing tests with --test-command)`;
  if (!ranClean(b)) return null;
  return `the tests already pass at the base commit (${b.command}), but the directive asks for a fix: the tests may not cover the problem, or this test command does not run the tests that fail (name it with --test-command, or the toolchain with --toolchain)`;
}
