// A test run's result in a few words, for prompts, summaries and the terminal. Pure.
import type { TestRecord } from '../state/run-state.js';

/**
 * "exit 1", "timed out after 300 s", "exit 0, but its summary counts 2 failed", "exit 0, but its
 * output could not be read", or "not run".
 */
export function testStatus(test: TestRecord | null): string {
  if (test === null) return 'not run';
  if (test.timed_out) return `timed out after ${Math.round(test.duration_ms / 1000)} s`;
  const failed = summaryFailures(test);
  if (test.exit_code === 0 && failed > 0) return `exit 0, but its summary counts ${failed} failed`;
  if (test.exit_code === 0 && test.unread === true)
    return 'exit 0, but its output could not be read (no test runner or summary line in it): unread, not a pass';
  return `exit ${test.exit_code}`;
}

/** The command exited 0 but nothing in its output could be read (neither a pass nor a failure that was seen). */
export function unreadExit0(test: TestRecord): boolean {
  return test.exit_code === 0 && !test.timed_out && test.unread === true;
}

/** The failed tests the runners' summaries count (0 when none printed any). */
function summaryFailures(test: TestRecord): number {
  return (test.parsed?.counts ?? []).reduce((n, c) => n + (c.failed ?? 0), 0);
}
