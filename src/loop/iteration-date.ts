// The date an iteration's commit carries (its own module, so resume needs none of the iteration's code).
import type { RunState } from '../state/run-state.js';

/** The date an iteration's commit carries: when the iteration started (resume reproduces the commit). */
export function iterationDate(state: RunState, n: number): Date {
  const started = state.iterations.find((it) => it.n === n)?.started_at;
  return started === undefined ? new Date() : new Date(started);
}
