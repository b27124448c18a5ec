// What the model is told about where the loop stands: derived from the state, never remembered.
import type { Iteration, RunState, TestRecord } from '../state/run-state.js';
import { finishedIterations, latestTest, testPassed } from './stop-conditions.js';

/** One line on where the loop stands, for the next prompt. */
export function stabilitySignal(state: RunState): string {
  const last = finishedIterations(state).at(-1);
  const test = latestTest(state);
  if (last === undefined) {
    if (state.baseline === null) return 'first iteration';
    return testPassed(state.baseline)
      ? 'first iteration; the tests already pass at baseline'
      : `first iteration; the tests fail at baseline (${testStatus(state.baseline)})`;
  }
  switch (last.outcome) {
    case 'applied':
      return testPassed(last.test)
        ? 'last patch applied and the tests pass'
        : `last patch applied, tests still failing (${testStatus(last.test)})`;
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

/** "exit 1", "timed out after 300 s", or "not run". */
export function testStatus(test: TestRecord | null): string {
  if (test === null) return 'not run';
  if (test.timed_out) return `timed out after ${Math.round(test.duration_ms / 1000)} s`;
  return `exit ${test.exit_code}`;
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
