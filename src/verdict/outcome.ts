// How a run came out, in one word, and why: the one function every verdict derives from (the loop's
// status when it stops, the exit code, PR_SUMMARY.md's risk line, the monitor's badge, the pull
// request's draft rule, batch's statuses and the runs listings). Pure over the state.
import { hasEnded, type EndedStatus, type RunState, type RunStatus, type TestRecord } from '../state/run-state.js';
import { targetWords, type FailingTest, type Judgement } from '../test-output/index.js';
import { OUTCOME_RULES, type OutcomeRule } from './outcome-rules.js';
import { appliedCount, finishedIterations, flakyOf, judgeTest, knownFailuresOf, latestTest } from './run-tests.js';
import { readTest, unknownResult, type TestReading } from './test-reading.js';

/** A run's verdict: its outcome and everything said about it. */
export interface RunVerdict {
  /** The outcome: a run's status, where an ended run's is read from its tests (see endedVerdict). */
  outcome: RunStatus;
  /** Why, in one sentence without a final period. */
  why: string;
  /** The tests the run targeted and how many pass now; null when the tests were not judged against the baseline. */
  targets: { by: Judgement['targets']['by']; total: number; passing: number; failing: FailingTest[] } | null;
  /** Baseline failures that passed on a rerun: flaky, never targets. */
  flaky: FailingTest[];
  /** What the last test run said (null when no test ran). */
  final: TestReading | null;
  /** Patches applied. */
  applied: number;
}

/**
 * The run's verdict. A run still going, interrupted or stopped on an error is what its status says;
 * a run that ended on its own is judged from its tests (endedVerdict), whatever status an older
 * hammer-box wrote for it. `knownFailures` defaults to the run's recorded `[tests] known_failures`.
 */
export function runVerdict(state: RunState, knownFailures: readonly string[] = knownFailuresOf(state)): RunVerdict {
  const base = {
    targets: null,
    flaky: flakyOf(state),
    final: finalReading(state),
    applied: appliedCount(state),
  };
  switch (state.status) {
    case 'running':
      return { ...base, outcome: 'running', why: 'the run is still going' };
    case 'interrupted':
      return { ...base, outcome: 'interrupted', why: 'the run was interrupted before it ended' };
    case 'error': {
      const e = state.errors.at(-1);
      return {
        ...base,
        outcome: 'error',
        why: e ? `stopped on an error: ${e.code}: ${e.message}` : 'stopped on an error',
      };
    }
    case 'stable':
    case 'partial':
    case 'untested':
    case 'unknown':
    case 'failed':
      return endedVerdict(state, knownFailures);
  }
}

/** The outcome's rule: its exit code, risk word, badge colour and pull-request rule. */
export function verdictRule(verdict: Pick<RunVerdict, 'outcome'>): OutcomeRule {
  return OUTCOME_RULES[verdict.outcome];
}

/**
 * What a run that ended on its own came to, from its baseline and its last test run:
 * - `stable`: the last run passed; or every failure left is declared known or was flaky at
 *   baseline; or every targeted test passes and the failures left failed the same way at baseline;
 * - `untested`: the runner found no test to run, at baseline and in the last run, and a patch was
 *   applied (or the model answered that none is needed);
 * - `unknown`: the last run timed out, or its output could not be read;
 * - `partial`: some targeted tests pass now, others still fail, and nothing regressed;
 * - `failed`: anything else (no targeted test passes, a test regressed, the tests stopped running).
 * The targets are the baseline failures the directive names, else those of the test files it names,
 * else every baseline failure; never a declared known failure or a flaky one.
 */
export function endedVerdict(state: RunState, knownFailures: readonly string[]): RunVerdict & { outcome: EndedStatus } {
  const applied = appliedCount(state);
  const flaky = flakyOf(state);
  const final = latestTest(state);
  const at = (
    outcome: EndedStatus,
    why: string,
    j: Judgement | null = null,
  ): RunVerdict & { outcome: EndedStatus } => ({
    outcome,
    why,
    targets:
      j === null
        ? null
        : {
            by: j.targets.by,
            total: j.targets.tests.length,
            passing: j.targets.tests.length - j.remaining.length,
            failing: j.remaining,
          },
    flaky,
    final: final === null ? null : readTest(final),
    applied,
  });
  // no test ran (nothing to judge from): the status the run recorded stands
  if (state.baseline === null || final === null)
    return at(hasEnded(state.status) ? state.status : 'failed', 'no test ran, so the tests say nothing of this run');
  const reading = readTest(final);
  const patches = `${applied} applied patch${applied === 1 ? '' : 'es'}`;
  if (reading === 'passed' && final.scope === undefined)
    return at('stable', applied === 0 ? 'the tests pass without changes' : `the tests pass after ${patches}`);
  if (reading === 'no_tests') {
    if (readTest(state.baseline) !== 'no_tests')
      return at('failed', 'the last test run found no test to run, although the baseline ran tests');
    if (applied > 0)
      return at(
        'untested',
        `the repository has no tests to run (the runner found none): the change (${patches}) stands on hammer-box's gates alone (it applied cleanly and passed the path policy and the syntax gate), no test ran it`,
      );
    // no change: untested when the model said none is needed, failed when it never made one
    return finishedIterations(state).at(-1)?.outcome === 'no_changes'
      ? at('untested', 'the repository has no tests to run (the runner found none), and the model made no change')
      : at('failed', 'no patch was applied, and the repository has no tests to run');
  }
  const unknown = unknownResult(final);
  if (unknown !== null) return at('unknown', unknown);
  const j = judgeTest(state, final, knownFailures);
  if (j === null)
    return at('failed', `the tests fail (exit ${final.exit_code})${applied === 0 ? ' and no patch was applied' : ''}`);
  switch (j.verdict) {
    case 'passed':
      return at('stable', `the tests pass after ${patches}`, j);
    case 'known_only':
      return at(
        'stable',
        `${applied === 0 ? 'without changes, ' : `after ${patches}, `}every test that fails is ${ignored(j)}`,
        j,
      );
    case 'baseline_only':
      return at(
        'stable',
        `every targeted test (${targetWords(j.targets.by)}) passes after ${patches}; ${leftOutside(j)}`,
        j,
      );
    case 'partial':
      return at('partial', j.why, j);
    case 'failing':
      return at('failed', applied === 0 ? `no patch was applied; ${j.why}` : j.why, j);
  }
}

/** What the last test run said: the latest test record's reading (null when none ran). */
function finalReading(state: RunState): TestReading | null {
  const t: TestRecord | null = latestTest(state);
  return t === null ? null : readTest(t);
}

/** "a declared known failure", "flaky at baseline (passed on its rerun)", or both. */
function ignored(j: Judgement): string {
  const parts = [
    j.known.length > 0 ? 'declared in [tests] known_failures' : null,
    j.flaky.length > 0 ? 'flaky at baseline (it passed on its rerun)' : null,
  ].filter((p): p is string => p !== null);
  return parts.join(' or ');
}

/** "1 test outside them failed the same way at baseline and still does, 1 declared known failure". */
function leftOutside(j: Judgement): string {
  const n = j.preExisting.length;
  return [
    n > 0
      ? `${n} test${n === 1 ? '' : 's'} outside them failed the same way at baseline and still ${n === 1 ? 'does' : 'do'}`
      : null,
    j.known.length > 0 ? `${j.known.length} declared known failure${j.known.length === 1 ? '' : 's'}` : null,
    j.flaky.length > 0 ? `${j.flaky.length} flaky at baseline` : null,
  ]
    .filter((p): p is string => p !== null)
    .join(', ');
}
