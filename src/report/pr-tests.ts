// The tests part of PR_SUMMARY.md: the test command at baseline and after the last patch, and which
// tests that failed at baseline pass now (by name where the runner's output gives names, else counts).
import type { RunState, TestRecord } from '../state/run-state.js';
import type { FailingTest, TestCounts } from '../test-output/index.js';
import { latestTest, readTest, runVerdict, testPassed, testStatus, type RunVerdict } from '../verdict/index.js';
import { formatDuration, inlineCode } from '../text/markdown.js';

/** Most test names listed under one heading. */
export const LISTED_TESTS = 20;

/** What the test outputs said, read from the baseline's and the last test's logs. */
export interface TestsBeforeAfter {
  /** Failed at baseline and pass now. */
  fixed: FailingTest[];
  /** Still failing in the last run (names its output gives). */
  failing: FailingTest[];
  /**
   * The still failing ones apart, when the last run was judged against the baseline: targeted and
   * still failing; failing as they failed at baseline, outside the targets; declared in [tests]
   * known_failures; flaky at baseline; and not failing (this way) at baseline.
   */
  judged?: {
    remaining: FailingTest[];
    preExisting: FailingTest[];
    known: FailingTest[];
    flaky?: FailingTest[];
    regressions: FailingTest[];
  };
  /** The counts each run printed (empty when its runner printed none or was not recognised). */
  countsBefore: TestCounts[];
  countsAfter: TestCounts[];
}

/** The tests section: one headline, then the fixed and still failing tests, or the counts, and the flaky ones. */
export function renderTests(state: RunState, outputs: TestsBeforeAfter | null): string {
  const before = state.baseline;
  const now = latestTest(state);
  if (before === null) return '**Tests:** not run.';
  const verdict = runVerdict(state);
  const command = inlineCode(before.command);
  const describe = (t: TestRecord): string => `${testStatus(t)}, ${formatDuration(t.duration_ms)}`;
  const was = wordOf(before, 'past');
  const flaky = flakyLines(verdict);
  if (now === null || now === before)
    return [`**Tests** (${command}): ${was} at baseline (${describe(before)}); no patch was tested.`, ...flaky].join(
      '\n\n',
    );
  const is = wordOf(now, 'present');
  const parts = [
    `**Tests: ${headline(state, verdict, before, now)}** (${command}): ${was} at baseline (${describe(before)}), ${is} after the last patch (${describe(now)}).`,
  ];
  if (outputs !== null) parts.push(...testDetails(outputs, testPassed(before), testPassed(now)));
  parts.push(...flaky);
  return parts.join('\n\n');
}

/** "passed"/"pass", "failed"/"fail", "found no test", "timed out", "could not be read". */
function wordOf(t: TestRecord, tense: 'past' | 'present'): string {
  switch (readTest(t)) {
    case 'passed':
      return tense === 'past' ? 'passed' : 'pass';
    case 'failed':
      return tense === 'past' ? 'failed' : 'fail';
    case 'no_tests':
      return 'found no test to run';
    case 'timed_out':
      return 'timed out';
    case 'unread':
      return 'could not be read';
  }
}

function headline(state: RunState, verdict: RunVerdict, before: TestRecord, now: TestRecord): string {
  switch (verdict.outcome) {
    case 'untested':
      return 'no tests to run';
    case 'unknown':
      return 'the last result is unknown';
    case 'partial':
      return 'some targeted tests pass now, others still fail';
    default:
  }
  if (testPassed(before)) return testPassed(now) ? 'passing before and now' : 'passing before, failing now';
  if (testPassed(now)) return 'failing before, passing now';
  return verdict.outcome === 'stable' && state.reason !== 'tests_pass_baseline'
    ? 'every targeted test passes now; only failures outside them remain'
    : 'still failing';
}

/** The baseline failures that passed when run again, said apart (none: no lines). */
function flakyLines(verdict: RunVerdict): string[] {
  if (verdict.flaky.length === 0) return [];
  return [
    `Flaky at baseline: failed, then passed when run again at once; not targets of this run (${verdict.flaky.length}):\n\n${listTests(verdict.flaky)}`,
  ];
}

function testDetails(o: TestsBeforeAfter, passedBefore: boolean, passedNow: boolean): string[] {
  const out: string[] = [];
  if (o.fixed.length > 0) out.push(`Failed at baseline, pass now (${o.fixed.length}):\n\n${listTests(o.fixed)}`);
  const j = o.judged;
  if (j !== undefined && !passedNow) {
    if (j.remaining.length > 0)
      out.push(`Targeted, still failing (${j.remaining.length}):\n\n${listTests(j.remaining)}`);
    const outside = j.preExisting.filter((t) => !j.remaining.some((r) => r.id === t.id && r.runner === t.runner));
    if (outside.length > 0)
      out.push(
        `Failed at baseline and still fail the same way, outside the targeted tests (${outside.length}):\n\n${listTests(outside)}`,
      );
    if (j.known.length > 0)
      out.push(`Declared known failures, \`[tests] known_failures\` (${j.known.length}):\n\n${listTests(j.known)}`);
    if (j.regressions.length > 0)
      out.push(`Fail now, did not fail this way at baseline (${j.regressions.length}):\n\n${listTests(j.regressions)}`);
  } else if (o.failing.length > 0 && !passedNow)
    out.push(`Still failing (${o.failing.length}):\n\n${listTests(o.failing)}`);
  // no names from the output: the counts the runner printed say as much as it gave
  if (o.fixed.length === 0 && o.failing.length === 0 && !passedBefore) {
    const before = countLine(o.countsBefore);
    const after = countLine(o.countsAfter);
    if (before !== null || after !== null)
      out.push(`At baseline: ${before ?? 'no counts printed'}. Now: ${after ?? 'no counts printed'}.`);
  }
  return out;
}

function listTests(tests: readonly FailingTest[]): string {
  const lines = tests.slice(0, LISTED_TESTS).map((t) => `- ${inlineCode(t.package ? `${t.package} ${t.id}` : t.id)}`);
  if (tests.length > LISTED_TESTS) lines.push(`- and ${tests.length - LISTED_TESTS} more`);
  return lines.join('\n');
}

/** "3 failed, 12 passed" summed over the runners that printed counts; null when none did. */
function countLine(counts: readonly TestCounts[]): string | null {
  if (counts.length === 0) return null;
  const sum = (pick: (c: TestCounts) => number | null): number | null =>
    counts.some((c) => pick(c) !== null) ? counts.reduce((n, c) => n + (pick(c) ?? 0), 0) : null;
  const failed = sum((c) => c.failed);
  const passed = sum((c) => c.passed);
  const parts = [failed === null ? null : `${failed} failed`, passed === null ? null : `${passed} passed`].filter(
    (p): p is string => p !== null,
  );
  return parts.length === 0 ? null : parts.join(', ');
}
