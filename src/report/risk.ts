// The risk verdict a reviewer reads first: did the run end with passing tests, and on what.
import type { RunState } from '../state/run-state.js';
import { appliedCount, describeReason } from '../loop/stop-conditions.js';

/** pass: the tests pass; partial: patches applied but the tests still fail; fail: nothing usable. */
export type RiskLevel = 'pass' | 'partial' | 'fail';

/** The verdict and a sentence saying why. */
export interface RiskAssessment {
  level: RiskLevel;
  reason: string;
}

/** Assess a run from its state. */
export function assessRisk(state: RunState): RiskAssessment {
  const applied = appliedCount(state);
  const why = state.reason === null ? state.status : describeReason(state.reason);
  const detail = state.reason_detail === null || state.reason_detail === '' ? '' : ` (${state.reason_detail})`;
  if (state.status === 'stable') {
    if (state.reason === 'baseline_failures_remain')
      return {
        level: 'pass',
        reason: `the targeted tests pass after ${applied} applied patch${applied === 1 ? '' : 'es'}; only tests that failed before the change still fail${detail}`,
      };
    if (applied === 0) return { level: 'pass', reason: `the tests pass without changes: ${why}${detail}` };
    return {
      level: 'pass',
      reason: `the tests pass after ${applied} applied patch${applied === 1 ? '' : 'es'}: ${why}${detail}`,
    };
  }
  if (applied > 0) {
    return {
      level: 'partial',
      reason: `${applied} patch${applied === 1 ? '' : 'es'} applied but the tests still fail: ${why}${detail}`,
    };
  }
  return { level: 'fail', reason: `no patch was applied: ${why}${detail}` };
}
