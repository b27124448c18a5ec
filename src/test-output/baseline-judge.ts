// A test run judged against the baseline: which failures were there before (and failed the same
// way), which are new, which the user declared known, which the change fixed, and whether the
// tests the directive targets pass. Pure.
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
 * - `known_only`: every failure left is one `[tests] known_failures` declares.
 * - `baseline_only`: the targeted tests pass, and every failure left failed the same way at
 *   baseline (or is declared known).
 * - `failing`: anything else, `why` says what (a new failure, a targeted test still failing, an
 *   output that does not name its failures).
 */
export type Verdict = 'passed' | 'known_only' | 'baseline_only' | 'failing';

/** The judgement of one run against the baseline. */
export interface Judgement {
  verdict: Verdict;
  /** Failed at baseline (not declared known), pass now. */
  fixed: FailingTest[];
  /** Fail now as they failed at baseline. */
  preExisting: FailingTest[];
  /** Fail now; declared known. */
  known: FailingTest[];
  /** Fail now and did not fail at baseline, or fail another way than they did (the way is in `kind`). */
  regressions: FailingTest[];
  /** The tests the judgement held to: named in the directive, in a file it names, or (by default) those fixed. */
  targets: { by: 'name' | 'file' | 'fixed'; tests: FailingTest[] };
  /** Why the verdict is `failing`; '' otherwise. */
  why: string;
}

/**
 * Judge `latest` against `baseline`, with the user's known failures and the directive's text.
 * `atBase`: tests found failing when re-run at the base commit (they count as failing at baseline).
 */
export function judgeAgainstBaseline(
  baseline: RunFacts,
  latest: RunFacts,
  opts: { knownFailures: readonly string[]; directive: string; atBase?: readonly FailingTest[] },
): Judgement {
  const isKnown = knownFailureMatcher(opts.knownFailures);
  const before = distinctFailingTests([...baseline.failing, ...(opts.atBase ?? [])]).filter((t) => !isKnown(t));
  const now = distinctFailingTests(latest.failing);
  const nowKeys = new Set(now.map(testKey));
  const fixed = latest.passed
    ? before
    : before.filter((t) => latest.runners.includes(t.runner) && !nowKeys.has(testKey(t)));
  const known = now.filter(isKnown);
  const left = now.filter((t) => !isKnown(t));
  const atBaseline = new Map(before.map((t) => [testKey(t), t]));
  const preExisting = left.filter((t) => sameWay(atBaseline.get(testKey(t)), t));
  const regressions = left.filter((t) => !sameWay(atBaseline.get(testKey(t)), t));
  const targets = targetsOf(opts.directive, before, fixed);
  const out = (verdict: Verdict, why = ''): Judgement => ({
    verdict,
    fixed,
    preExisting,
    known,
    regressions,
    targets,
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
  if (targets.by === 'name') {
    const still = targets.tests.filter((t) => nowKeys.has(testKey(t)));
    if (still.length > 0) return out('failing', `the tests the directive names still fail: ${names(still)}`);
  } else if (targets.by === 'file') {
    if (!targets.tests.some((t) => !nowKeys.has(testKey(t))))
      return out('failing', 'no failing test of the files the directive names passes yet');
  } else if (fixed.length === 0) return out('failing', 'no test that failed at baseline passes yet');
  return out('baseline_only');
}

/** The failure `now` is the failure `before` was: the same test, and the same kind when both outputs named one. */
function sameWay(before: FailingTest | undefined, now: FailingTest): boolean {
  if (before === undefined) return false;
  return before.kind === undefined || now.kind === undefined || before.kind === now.kind;
}

/** The tests the directive names among the baseline's failures, else those in the files it names, else the fixed ones. */
function targetsOf(directive: string, before: readonly FailingTest[], fixed: FailingTest[]): Judgement['targets'] {
  const named = directiveTests(directive, before);
  if (named.byName.length > 0) return { by: 'name', tests: named.byName };
  if (named.byFile.length > 0) return { by: 'file', tests: named.byFile };
  return { by: 'fixed', tests: fixed };
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
