// A test run judged against the baseline: which failures were there before (and failed the same
// way), which are new, which the user declared known or were flaky at baseline, which the change
// fixed, and how many of the tests the run targets pass. Pure.
import { distinctFailingTests, testKey, type FailingTest } from './compare.js';
import { directiveTests } from './directive-tests.js';
import { knownFailureMatcher } from './known-failures.js';
import type { TestCounts, TestRunner } from './types.js';

/** What one test run says, as the judge needs it. */
export interface RunFacts {
  /** It passed: exit 0, not timed out, and no failure in its runner's summary. */
  passed: boolean;
  /** The whole suite ran to its end (not a focused run of some tests, not timed out). */
  whole: boolean;
  runners: readonly TestRunner[];
  failing: readonly FailingTest[];
  counts: readonly TestCounts[];
}

/**
 * - `passed`: the run passed.
 * - `known_only`: every failure left is one `[tests] known_failures` declares, or was flaky at baseline.
 * - `baseline_only`: every targeted test passes, and every failure left failed the same way at
 *   baseline (outside the targets), or is declared known, or was flaky.
 * - `partial`: some targeted tests pass now, others still fail, nothing regressed.
 * - `failing`: anything else, `why` says what (a new failure, no targeted test passing yet, an
 *   output that does not name its failures).
 */
export type Verdict = 'passed' | 'known_only' | 'baseline_only' | 'partial' | 'failing';

/** The judgement of one run against the baseline. */
export interface Judgement {
  verdict: Verdict;
  /** Failed at baseline (not declared known), pass now. */
  fixed: FailingTest[];
  /** Fail now as they failed at baseline. */
  preExisting: FailingTest[];
  /** Fail now; declared known. */
  known: FailingTest[];
  /** Fail now; failed at baseline and passed on its rerun (not declared known, not named by the directive). */
  flaky: FailingTest[];
  /** Fail now and did not fail at baseline, or fail another way than they did (the way is in `kind`). */
  regressions: FailingTest[];
  /**
   * The tests the run targets, of the baseline's failures not declared known: those the directive
   * names, else those in the test files it names, else all of them; a flaky one only when named.
   */
  targets: { by: 'name' | 'file' | 'all'; tests: FailingTest[] };
  /** The targets that still fail (or were not run again): empty when every target passes. */
  remaining: FailingTest[];
  /** Why the verdict is `partial` or `failing`; '' otherwise. */
  why: string;
}

/**
 * Judge `latest` against `baseline`, with the user's known failures, the flaky ones and the
 * directive's text. `atBase`: tests that failed after a change without having failed at baseline
 * (they never ran there) and were found failing when re-run at the base commit: failures from before
 * the change, never regressions, and never targets (the baseline did not report them).
 */
export function judgeAgainstBaseline(
  baseline: RunFacts,
  latest: RunFacts,
  opts: {
    knownFailures: readonly string[];
    directive: string;
    flaky?: readonly FailingTest[];
    atBase?: readonly FailingTest[];
  },
): Judgement {
  const isKnown = knownFailureMatcher(opts.knownFailures);
  const atBaselineOnly = distinctFailingTests(baseline.failing).filter((t) => !isKnown(t));
  const targets = targetsOf(opts.directive, atBaselineOnly, new Set((opts.flaky ?? []).map(testKey)));
  const before = distinctFailingTests([...baseline.failing, ...(opts.atBase ?? [])]).filter((t) => !isKnown(t));
  // a flaky test the directive names stays a target; the others are set apart
  const targetKeys = new Set(targets.tests.map(testKey));
  const flakyKeys = new Set((opts.flaky ?? []).map(testKey).filter((k) => !targetKeys.has(k)));
  const isFlaky = (t: FailingTest): boolean => !isKnown(t) && flakyKeys.has(testKey(t));
  const now = distinctFailingTests(latest.failing);
  const nowKeys = new Set(now.map(testKey));
  const fixed = latest.passed
    ? before
    : before.filter((t) => latest.runners.includes(t.runner) && !nowKeys.has(testKey(t)));
  const fixedKeys = new Set(fixed.map(testKey));
  const known = now.filter(isKnown);
  const flaky = now.filter(isFlaky);
  const left = now.filter((t) => !isKnown(t) && !isFlaky(t));
  const atBaseline = new Map(before.map((t) => [testKey(t), t]));
  const preExisting = left.filter((t) => sameWay(atBaseline.get(testKey(t)), t));
  const regressions = left.filter((t) => !sameWay(atBaseline.get(testKey(t)), t));
  const remaining = latest.passed ? [] : targets.tests.filter((t) => !fixedKeys.has(testKey(t)));
  const out = (verdict: Verdict, why = ''): Judgement => ({
    verdict,
    fixed,
    preExisting,
    known,
    flaky,
    regressions,
    targets,
    remaining,
    why,
  });
  if (latest.passed) return out('passed');
  if (!latest.whole) return out('failing', 'the last test run was not a whole run of the suite');
  if (latest.runners.length === 0 || baseline.runners.length === 0)
    return out('failing', "the test output's runner was not recognised");
  if (now.length === 0) return out('failing', 'the test output names no failing test');
  for (const c of latest.counts) {
    const named = now.filter((t) => t.runner === c.runner).length;
    if ((c.failed ?? 0) > named)
      return out('failing', `the ${c.runner} summary counts ${c.failed} failures but the output names ${named}`);
  }
  if (regressions.length > 0) {
    const changed = regressions.filter((t) => atBaseline.has(testKey(t))).length;
    return out(
      'failing',
      `${plural(regressions.length, 'test')} that ${regressions.length === 1 ? 'was' : 'were'} not failing this way at baseline fail${regressions.length === 1 ? 's' : ''} now${changed > 0 ? ` (${changed} failed another way before)` : ''}`,
    );
  }
  if (left.length === 0) return out('known_only');
  if (remaining.length === 0) return out('baseline_only');
  const passing = targets.tests.length - remaining.length;
  if (passing > 0)
    return out(
      'partial',
      `${passing} of the ${plural(targets.tests.length, 'targeted test')} (${targetWords(targets.by)}) ${passing === 1 ? 'passes' : 'pass'} now; ${remaining.length} still ${remaining.length === 1 ? 'fails' : 'fail'}: ${names(remaining)}`,
    );
  return out(
    'failing',
    targets.by === 'name'
      ? `the tests the directive names still fail: ${names(remaining)}`
      : `no ${targets.by === 'file' ? 'failing test of the files the directive names' : 'test that failed at baseline'} passes yet`,
  );
}

/** Which tests the targets are, in words: "named in the directive", "in the test files the directive names", "every test that failed at baseline". */
export function targetWords(by: Judgement['targets']['by']): string {
  if (by === 'name') return 'named in the directive';
  if (by === 'file') return 'in the test files the directive names';
  return 'every test that failed at baseline';
}

/** The failure `now` is the failure `before` was: the same test, and the same kind when both outputs named one. */
function sameWay(before: FailingTest | undefined, now: FailingTest): boolean {
  if (before === undefined) return false;
  return before.kind === undefined || now.kind === undefined || before.kind === now.kind;
}

/**
 * The tests the directive names among the baseline's failures (flaky or not), else those of the
 * files it names, else all of them; but for a test the directive names, never a flaky one.
 */
function targetsOf(
  directive: string,
  before: readonly FailingTest[],
  flaky: ReadonlySet<string>,
): Judgement['targets'] {
  const named = directiveTests(directive, before);
  if (named.byName.length > 0) return { by: 'name', tests: named.byName };
  const steady = (t: FailingTest): boolean => !flaky.has(testKey(t));
  if (named.byFile.length > 0) return { by: 'file', tests: named.byFile.filter(steady) };
  return { by: 'all', tests: before.filter(steady) };
}

function names(tests: readonly FailingTest[]): string {
  const shown = tests.slice(0, 3).map((t) => t.id);
  return tests.length > 3 ? `${shown.join(', ')} and ${tests.length - 3} more` : shown.join(', ');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** True when a runner's printed summary counts failed tests (a run can say so and still exit 0). */
export function summaryReportsFailures(counts: readonly TestCounts[] | undefined): boolean {
  return (counts ?? []).some((c) => (c.failed ?? 0) > 0);
}
