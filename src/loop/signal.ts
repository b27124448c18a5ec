// What the model is told about where the loop stands: derived from the state, never remembered.
import type { Iteration, RunState, TestRecord } from '../state/run-state.js';
import { testKey, type FailingTest } from '../test-output/index.js';
import {
  finishedIterations,
  flakyOf,
  judgeTest,
  latestTest,
  readTest,
  testPassed,
  testStatus,
  unreadExit0,
} from '../verdict/index.js';

/** One line on where the loop stands, for the next prompt (which failures were there before the change, too). */
export function stabilitySignal(state: RunState, knownFailures: readonly string[] = []): string {
  const last = finishedIterations(state).at(-1);
  const test = latestTest(state);
  if (last === undefined) {
    if (state.baseline === null) return 'first iteration';
    if (testPassed(state.baseline)) return 'first iteration; the tests already pass at baseline';
    if (readTest(state.baseline) === 'no_tests')
      return 'first iteration; the repository has no tests to run (the runner found none): a change that applies cleanly ends the run, delivered untested';
    if (state.baseline.timed_out)
      return `first iteration; the tests timed out at baseline (after ${Math.round(state.baseline.duration_ms / 1000)} s), so what fails there is known only from the output before the limit`;
    if (unreadExit0(state.baseline))
      return 'first iteration; the test command exits 0 at baseline, but its output could not be read, so whether the tests pass is not known';
    return `first iteration; the tests fail at baseline (${testStatus(state.baseline)})${flakyAtBaseline(state)}`;
  }
  switch (last.outcome) {
    case 'applied':
      return testPassed(last.test)
        ? 'last patch applied and the tests pass'
        : `last patch applied, tests still failing (${testStatus(last.test)})${oldFailures(state, last.test, knownFailures)}`;
    case 'rejected':
      return 'last patch rejected: it could not be applied to the current files, nothing was committed (why is below)';
    case 'unusable':
      return `no usable diff last time: ${last.extraction?.reason ?? 'the answer held no diff'}`;
    case 'no_changes':
      return testPassed(test)
        ? 'you answered NO_CHANGES and the tests pass'
        : `you answered NO_CHANGES but the tests still fail (${testStatus(test)})`;
    case 'duplicate':
      return 'your last patch repeated an earlier one; try a different change';
    default:
      return 'the last iteration did not finish';
  }
}

/**
 * What the judgement says of the failing tests: "; 1 of the failing tests (t::test_y) failed the same
 * way before any change, outside the tests this run targets, or are declared known failures or flaky:
 * they need no fix unless the directive asks for one", and the targeted tests still failing; or ''.
 */
function oldFailures(state: RunState, test: TestRecord | null, knownFailures: readonly string[]): string {
  const j = judgeTest(state, test, knownFailures);
  if (j === null) return '';
  const targeted = new Set(j.remaining.map(testKey));
  const old = [...j.preExisting.filter((t) => !targeted.has(testKey(t))), ...j.known, ...j.flaky];
  const still = j.remaining.filter((t) => j.preExisting.some((p) => testKey(p) === testKey(t)));
  const parts: string[] = [];
  if (old.length > 0)
    parts.push(
      `; ${old.length} of the failing tests (${ids(old)}) failed the same way before any change${j.targets.by === 'all' ? '' : ' outside the tests this run targets'}, or are declared known failures or flaky: they need no fix unless the directive asks for one`,
    );
  if (still.length > 0 && j.remaining.length < j.targets.tests.length)
    parts.push(
      `; ${j.targets.tests.length - j.remaining.length} of the ${j.targets.tests.length} targeted tests pass now, still to fix: ${ids(still)}`,
    );
  return parts.join('');
}

/** "; 1 baseline failure passed when run again (flaky, not a target: t::test_y): leave it", or ''. */
function flakyAtBaseline(state: RunState): string {
  const flaky = flakyOf(state);
  if (flaky.length === 0) return '';
  return `; ${flaky.length} of the baseline failures passed when run again (flaky, not ${flaky.length === 1 ? 'a target' : 'targets'}: ${ids(flaky)}): leave ${flaky.length === 1 ? 'it' : 'them'} unless the directive names ${flaky.length === 1 ? 'it' : 'them'}`;
}

/** The first three ids, and how many more. */
function ids(tests: readonly FailingTest[]): string {
  const shown = tests.slice(0, 3).map((t) => t.id);
  return tests.length > 3 ? `${shown.join(', ')} and ${tests.length - 3} more` : shown.join(', ');
}

/** The iteration whose rejected patch the next prompt shows: the latest rejection since the last applied patch. */
export function lastRejectedIteration(state: RunState): Iteration | null {
  const done = finishedIterations(state);
  for (let k = done.length - 1; k >= 0; k--) {
    const it = done[k]!;
    if (it.outcome === 'applied') return null;
    if (it.outcome === 'rejected') return it;
  }
  return null;
}

/** Repo paths the applied patches touched, in first-touched order. */
export function changedFiles(state: RunState): string[] {
  const out: string[] = [];
  for (const it of state.iterations) {
    if (it.outcome !== 'applied' || it.patch === null) continue;
    for (const f of it.patch.files) if (f.status !== 'deleted' && !out.includes(f.path)) out.push(f.path);
  }
  return out;
}
