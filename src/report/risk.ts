// The risk line a reviewer reads first: the run's outcome in a word (see src/verdict), and why.
import type { RunState } from '../state/run-state.js';
import { runVerdict, verdictRule, type RiskLevel } from '../verdict/index.js';

export type { RiskLevel } from '../verdict/index.js';

/** The risk word and a sentence saying why. */
export interface RiskAssessment {
  level: RiskLevel;
  reason: string;
}

/** Assess a run from its state: `pass` only when it ended stable. */
export function assessRisk(state: RunState): RiskAssessment {
  const verdict = runVerdict(state);
  return { level: verdictRule(verdict).risk, reason: verdict.why };
}
