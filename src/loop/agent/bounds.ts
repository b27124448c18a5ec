// A trajectory's bounds: steps (of the iteration and what is left of the run's), wall time and tokens (pure).
import type { TrajectoryEnd } from '../../state/run-state.js';

/** The limits one trajectory runs under. */
export interface TrajectoryBounds {
  /** Tool calls this trajectory may make (`agent.max_steps`). */
  maxSteps: number;
  /** Tool calls the run has left (`agent.max_run_steps` less those made before). */
  runStepsLeft: number;
  /** Wall time in ms (`agent.max_seconds`). */
  maxMs: number;
  /** Tokens of every request and answer (`agent.max_tokens`). */
  maxTokens: number;
}

/** Where a trajectory stands. */
export interface TrajectoryProgress {
  steps: number;
  ms: number;
  tokens: number;
}

/** The bound a trajectory has reached, with a line saying so; null while it may go on. */
export function boundReached(
  p: TrajectoryProgress,
  b: TrajectoryBounds,
): { reason: Exclude<TrajectoryEnd, 'submitted' | 'stuck' | 'malformed'>; detail: string } | null {
  if (p.steps >= b.runStepsLeft && b.runStepsLeft < b.maxSteps)
    return { reason: 'max_run_steps', detail: `the run's tool calls are used up (agent.max_run_steps)` };
  if (p.steps >= b.maxSteps) return { reason: 'max_steps', detail: `${p.steps} tool calls (agent.max_steps)` };
  if (p.ms >= b.maxMs)
    return { reason: 'max_seconds', detail: `${Math.round(p.ms / 1000)} s of wall time (agent.max_seconds)` };
  if (p.tokens >= b.maxTokens) return { reason: 'max_tokens', detail: `${p.tokens} tokens (agent.max_tokens)` };
  return null;
}

/** Tokens as the chars/4 estimate when the server gives no count. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
