// The tests part of PR_SUMMARY.md: the test command at baseline and after the last patch, and which
// tests that failed at baseline pass now (by name where the runner's output gives names, else counts).
import { latestTest, testPassed } from '../loop/stop-conditions.js';
import { resultWord, testStatus } from '../loop/signal.js';
import type { RunState, TestRecord } from '../state/run-state.js';
import type { FailingTest, TestCounts } from '../test-output/index.js';
import { formatDuration, inlineCode } from './markdown.js';

/** Most test names listed under one heading. */
export const LISTED_TESTS = 20;

/** What the test outputs said, read from the baseline's and the last test's logs. */
export interface TestsBeforeAfter {
  /** Failed at baseline and pass now. */
  fixed: FailingTest[];
  /** Still failing in the last run (names its output gives). */
  failing: FailingTest[];
  /**
   * The still failing ones apart, when the last run was judged against the baseline: failing as
   * they failed at baseline, declared in [tests] known_failures, and not failing (this way) at baseline.
   */
  judged?: { preExisting: FailingTest[]; known: FailingTest[]; regressions: FailingTest[] };
  /** The counts each run printed (empty when its runner printed none or was not recognised). */
  countsBefore: TestCounts[];
  countsAfter: TestCounts[];
}

/** The tests section: one headline, then the fixed and still failing tests, or the counts. */
export function renderTests(state: RunState, outputs: TestsBeforeAfter | null): string {
  const before = state.baseline;
  const now = latestTest(state);
  if (before === null) return '**Tests:** not run.';
  const command = inlineCode(before.command);
  const describe = (t: TestRecord): string => `${testStatus(t)}, ${formatDuration(t.duration_ms)}`;
  const was = resultWord(before);
  if (now === null || now === before)
    return `**Tests** (${command}): ${was} at baseline (${describe(before)}); no patch was tested.`;
  const is = { passed: 'pass', failed: 'fail', 'timed out': 'time out', unread: 'are unread' }[resultWord(now)];
  const headline = testPassed(before)
    ? testPassed(now)
      ? 'passing before and now'
      : 'passing before, failing now'
    : testPassed(now)
      ? 'failing before, passing now'
      : state.reason === 'baseline_failures_remain'
        ? 'the targeted tests pass now; only failures from before remain'
        : 'still failing';
  const parts = [
    `**Tests: ${headline}** (${command}): ${was} at baseline (${describe(before)}), ${is} after the last patch (${describe(now)}).`,
  ];
  if (outputs !== null) parts.push(...testDetails(outputs, testPassed(before), testPassed(now)));
  return parts.join('\n\n');
}

function testDetails(o: TestsBeforeAfter, passedBefore: boolean, passedNow: boolean): string[] {
  const out: string[] = [];
  if (o.fixed.length > 0) out.push(`Failed at baseline, pass now (${o.fixed.length}):\n\n${listTests(o.fixed)}`);
  const j = o.judged;
  if (j !== undefined && !passedNow) {
    if (j.preExisting.length > 0)
      out.push(
        `Failed at baseline and still fail the same way, before this change (${j.preExisting.length}):\n\n${listTests(j.preExisting)}`,
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
