// The warning a run gives when its tests already pass at the base commit although the directive
// asks for a fix: the tests may not cover the problem, or the test command does not run them.
import { ranClean } from '../loop/stop-conditions.js';
import type { TestRecord } from '../state/run-state.js';
import { asksForFix } from './fix-directive.js';

export { asksForFix } from './fix-directive.js';

/** The warning for a baseline that passed on a fix directive, or null when there is nothing to warn about. */
export function baselinePassWarning(state: {
  directive: { text: string };
  baseline: Pick<TestRecord, 'exit_code' | 'timed_out' | 'command' | 'parsed'> | null;
}): string | null {
  const b = state.baseline;
  if (b === null || !ranClean(b) || !asksForFix(state.directive.text)) return null;
  return `the tests already pass at the base commit (${b.command}), but the directive asks for a fix: the tests may not cover the problem, or this test command does not run the tests that fail (name it with --test-command, or the toolchain with --toolchain)`;
}
