// Progress events of a run, for people: rendered on a TTY or as JSON lines. Fields are
// snake_case like the state file, since both end up as JSON.
import type { ExitReason, IterationOutcome, IterationPhase, RunPhase, RunStatus } from '../state/run-state.js';

/** Any phase: one of an iteration's seven, or one of the run's own. */
export type LoopPhase = IterationPhase | RunPhase;

/** Every event the loop emits. `iteration` is null for run-level phases. */
export type LoopEvent =
  | {
      type: 'run_started';
      run_id: string;
      at: string;
      repo: string;
      base_ref: string;
      model: string;
      max_iterations: number;
    }
  | { type: 'phase_started'; run_id: string; at: string; iteration: number | null; phase: LoopPhase }
  | { type: 'notice'; run_id: string; at: string; level: 'info' | 'warning'; text: string }
  | {
      type: 'phase_finished';
      run_id: string;
      at: string;
      iteration: number | null;
      phase: LoopPhase;
      status: 'done' | 'failed' | 'skipped';
      duration_ms: number;
    }
  | { type: 'model_progress'; run_id: string; iteration: number; tokens: number; tps: number; elapsed_ms: number }
  | { type: 'test_output'; run_id: string; iteration: number | null; stream: 'stdout' | 'stderr'; chunk: string }
  /** Agent mode: one tool call of the iteration's trajectory ran; `tokens`: the trajectory's so far. */
  | {
      type: 'agent_step';
      run_id: string;
      at: string;
      iteration: number;
      step: number;
      tool: 'bash' | 'edit' | 'submit';
      /** The call in one line (untrusted: sanitise before a terminal). */
      action: string;
      outcome: 'ok' | 'failed' | 'refused';
      exit_code: number | null;
      duration_ms: number;
      tokens: number;
    }
  | {
      type: 'iteration_finished';
      run_id: string;
      at: string;
      iteration: number;
      outcome: IterationOutcome;
      summary: string;
    }
  | {
      type: 'run_finished';
      run_id: string;
      at: string;
      status: RunStatus;
      reason: ExitReason | null;
      detail: string | null;
      branch: string | null;
    };

/** The type tag of each event. */
export type LoopEventType = LoopEvent['type'];

/** Receives progress events; must not throw (rendering problems are the renderer's to swallow). */
export type LoopEmitter = (event: LoopEvent) => void;

/** An emitter that drops everything (for tests and --quiet). */
export const ignoreEvents: LoopEmitter = () => undefined;
