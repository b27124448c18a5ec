// The model's explanation of one iteration's change, read from the iteration's artifacts: its answer
// (agent mode: the words of its last turn, beside the submit), without the edit (see explanation.ts).
import { parseTurn } from '../agent/parse-turn.js';
import type { Iteration } from '../state/run-state.js';
import { modelExplanation } from './explanation.js';

/** The model's explanation of one iteration's change, from its answer (agent mode: its last turn's words). */
export async function iterationExplanation(
  it: Iteration,
  readArtifact: (name: string) => Promise<string>,
): Promise<string | null> {
  const artifact = it.answer?.artifact ?? it.trajectory?.turns.at(-1)?.answer_artifact;
  if (artifact === undefined) return null;
  const answer = await readArtifact(artifact).catch(() => null);
  if (answer === null) return null;
  return modelExplanation(it.answer ? answer : parseTurn({ text: answer }).thought);
}
