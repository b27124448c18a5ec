// What PR_SUMMARY.md shows beyond the state, read from the run's artifacts.
import { finishedIterations } from '../loop/stop-conditions.js';
import type { RunState } from '../state/run-state.js';
import { modelExplanation } from './explanation.js';
import type { SummaryExtras } from './pr-summary.js';

/** The model's explanation of the last applied patch (null when it gave none or its answer cannot be read). */
export async function summaryExtras(
  state: RunState,
  readArtifact: (name: string) => Promise<string>,
): Promise<SummaryExtras> {
  const last = finishedIterations(state)
    .filter((it) => it.outcome === 'applied' && it.answer !== null)
    .at(-1);
  if (!last?.answer) return { explanation: null };
  const answer = await readArtifact(last.answer.artifact).catch(() => null);
  return { explanation: answer === null ? null : modelExplanation(answer) };
}
