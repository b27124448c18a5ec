// What a batch tells its front end as it goes (the CLI renders these on stderr).
import type { BatchStatus, UNFINISHED } from './status.js';

/** Where the batch stands: attempts done, running and left (this process), and tasks resolved so far. */
export interface BatchProgress {
  done: number;
  running: number;
  left: number;
  /** Tasks stable, of the tasks with a status (including those kept from before). */
  stable: number;
  finished: number;
  /** Estimated milliseconds until the last attempt ends; null until one has ended. */
  etaMs: number | null;
}

/** A batch's progress events. */
export type BatchEvent =
  | {
      type: 'batch_started';
      tasks: number;
      /** Attempts to run now, and tasks whose every sample had finished before (kept). */
      toRun: number;
      kept: number;
      jobs: number;
      modelJobs: number;
      model: string;
      report: string;
    }
  | { type: 'attempt_started'; task: string; attempt: number; sample: number; progress: BatchProgress }
  | {
      type: 'attempt_finished';
      task: string;
      attempt: number;
      status: BatchStatus | typeof UNFINISHED;
      wallMs: number;
      iterations: number;
      /** The error's code and message, or the run's reason. */
      detail: string | null;
      progress: BatchProgress;
    }
  | { type: 'notice'; level: 'info' | 'warning'; text: string };

/** A batch event listener. */
export type BatchEmitter = (event: BatchEvent) => void;

/** The time left at the pace so far: the mean wall time between attempt ends, times the attempts not ended. Pure. */
export function etaMs(done: number, notEnded: number, elapsedMs: number): number | null {
  if (done === 0) return null;
  return Math.round((elapsedMs / done) * notEnded);
}
