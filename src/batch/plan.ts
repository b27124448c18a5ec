// Which attempts a batch starts: per task, each of its `attempts` samples runs unless its latest
// attempt (of the task as defined now) finished with a status not being retried. Pure.
import type { AttemptRecord } from './attempt-record.js';
import { BATCH_STATUSES, type BatchStatus } from './status.js';

/** An attempt to start. */
export interface PlannedAttempt {
  taskId: string;
  sample: number;
  /** Its number (directory attempt-<n>), after every number the task has used. */
  attempt: number;
  /** The attempt of the same sample it replaces, if any. */
  replaces: number | null;
}

/** A task's samples now: the attempt that stands for each (null when none finished), and what to start. */
export interface TaskPlan {
  /** By sample (1-based index - 1): the latest finished attempt kept, or null when the sample runs (again). */
  kept: (AttemptRecord | null)[];
  toRun: PlannedAttempt[];
}

/** True when the record's status is a finished attempt's (not running, not unfinished). */
export function isFinished(r: AttemptRecord): r is AttemptRecord & { status: BatchStatus } {
  return r.status !== null && (BATCH_STATUSES as readonly string[]).includes(r.status);
}

/**
 * Plan one task. `records` are its readable attempt records (any definition), `taken` every attempt
 * number its directory already holds (readable or not), `retry` the statuses to run again.
 */
export function planTask(
  task: { id: string; hash: string; attempts: number },
  records: readonly AttemptRecord[],
  taken: readonly number[],
  retry: ReadonlySet<BatchStatus>,
): TaskPlan {
  let next = Math.max(0, ...taken, ...records.map((r) => r.attempt)) + 1;
  const current = records.filter((r) => r.task_hash === task.hash).sort((a, b) => a.attempt - b.attempt);
  const kept: (AttemptRecord | null)[] = [];
  const toRun: PlannedAttempt[] = [];
  for (let sample = 1; sample <= task.attempts; sample++) {
    const latest = current.filter((r) => r.sample === sample).at(-1);
    if (latest !== undefined && isFinished(latest) && !retry.has(latest.status)) {
      kept.push(latest);
      continue;
    }
    kept.push(null);
    toRun.push({ taskId: task.id, sample, attempt: next++, replaces: latest?.attempt ?? null });
  }
  return { kept, toRun };
}
