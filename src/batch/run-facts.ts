// What a batch keeps of a run's state: how it ended and what it cost. Pure.
import { iterationTokens } from '../report/trajectory-summary.js';
import type { RunState } from '../state/run-state.js';
import { runVerdict } from '../verdict/index.js';
import type { AttemptRun } from './attempt-record.js';
import type { AttemptEnd } from './status.js';

/** The facts of a run for its attempt record. */
export function attemptRunOf(s: RunState): AttemptRun {
  let modelMs = 0;
  let tokensIn = 0;
  let tokensOut = 0;
  for (const it of s.iterations) {
    // a diff-mode answer, and in agent mode every turn of the trajectory
    modelMs +=
      (it.answer?.duration_ms ?? 0) + (it.trajectory?.turns ?? []).reduce((t, turn) => t + turn.duration_ms, 0);
    const tokens = iterationTokens(it);
    tokensIn += tokens.in;
    tokensOut += tokens.out;
  }
  return {
    run_id: s.run_id,
    status: runVerdict(s).outcome,
    reason: s.reason,
    iterations: s.iterations.filter((it) => it.outcome !== null).length,
    applied: appliedOf(s),
    model: `${s.model.provider}:${s.model.name}`,
    model_ms: Math.round(modelMs),
    tokens_in: tokensIn,
    tokens_out: tokensOut,
    branch: s.branch?.name ?? null,
    branch_commit: s.branch?.commit ?? null,
  };
}

/** How the run ended, for classifyAttempt: its outcome (runVerdict), reason, patches applied, last error. */
export function runEndOf(s: RunState): NonNullable<AttemptEnd['run']> {
  return {
    status: runVerdict(s).outcome,
    reason: s.reason,
    applied: appliedOf(s),
    errorCode: s.errors.at(-1)?.code ?? null,
  };
}

function appliedOf(s: RunState): number {
  return s.iterations.filter((it) => it.outcome === 'applied').length;
}
