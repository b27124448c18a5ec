// What one test run says, in a word, and the facts the baseline judge reads from it. Pure.
import type { TestRecord } from '../state/run-state.js';
import { summaryReportsFailures, type RunFacts } from '../test-output/index.js';

/**
 * What a test run says:
 * - `passed`: exit code 0, and no runner's summary counts a failed test;
 * - `failed`: anything else the output was read for;
 * - `no_tests`: the runner said there was no test to run (`parsed.no_tests`);
 * - `unread`: it exited 0 but nothing in its output could be read (no runner's results, no count
 *   or result line: `unread` on the record), or `parsed.unread` says why it could not be read;
 * - `timed_out`: it did not finish within the test timeout.
 * `unread` and `timed_out` are unknown results: never a pass, never an ordinary failure.
 */
export type TestReading = 'passed' | 'failed' | 'no_tests' | 'unread' | 'timed_out';

/** A test record as the reading needs it. */
export type ReadableTest = Pick<TestRecord, 'exit_code' | 'timed_out' | 'parsed'> & Partial<Pick<TestRecord, 'unread'>>;

/** What `test` says (see TestReading). The one place a test run's result is read. */
export function readTest(test: ReadableTest): TestReading {
  if (test.timed_out) return 'timed_out';
  if (test.parsed?.no_tests === true) return 'no_tests';
  if (test.parsed?.unread !== undefined || (test.unread === true && test.exit_code === 0)) return 'unread';
  return test.exit_code === 0 && !summaryReportsFailures(test.parsed?.counts) ? 'passed' : 'failed';
}

/** A command's run came out clean: exit code 0, not timed out, and no failed test in its runner's summary. */
export function ranClean(test: ReadableTest): boolean {
  return readTest(test) === 'passed';
}

/**
 * A test run passed: the whole suite (never a focused run of some tests), read as `passed`.
 */
export function testPassed(test: TestRecord | null): boolean {
  return test !== null && test.scope === undefined && ranClean(test);
}

/** Why a test run's result is unknown, in words, or null when it is known. */
export function unknownResult(test: TestRecord): string | null {
  const reading = readTest(test);
  if (reading === 'timed_out')
    return `the last test run timed out after ${Math.round(test.duration_ms / 1000)} s: its result is unknown`;
  if (reading === 'unread')
    return `the last test run exited ${test.exit_code}, but its output could not be read (${test.parsed?.unread ?? 'no test runner, count or result line in it'})`;
  return null;
}

/** What a test record says, as the baseline judge reads it. */
export function runFacts(test: TestRecord): RunFacts {
  return {
    passed: testPassed(test),
    whole: test.scope === undefined && !test.timed_out,
    runners: test.parsed?.runners ?? [],
    failing: test.parsed?.failing ?? [],
    counts: test.parsed?.counts ?? [],
  };
}
