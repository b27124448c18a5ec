// The record of one task attempt, `tasks/<id>/attempt-<k>/attempt.json`: written when the attempt
// starts and when it ends, sealed with the user's state key like a run's state file (a record
// hammer-box cannot prove it wrote is not trusted, and its attempt runs again).
import { z } from 'zod';
import { BATCH_STATUSES } from './status.js';
import { TASK_ID_PATTERN } from './task-schema.js';

/** The attempt record's schema version. */
export const ATTEMPT_SCHEMA_VERSION = 1;

const count = z.number().int().min(0);
const timestamp = z.iso.datetime({ offset: true });

/** What an attempt's run came to, when it wrote a state file. */
export const AttemptRunSchema = z.strictObject({
  run_id: z.string(),
  /** The run's status and exit reason as its state file says. */
  status: z.string(),
  reason: z.string().nullable(),
  iterations: count,
  applied: count,
  model: z.string(),
  model_ms: count,
  tokens_in: count,
  tokens_out: count,
  branch: z.string().nullable(),
  branch_commit: z.string().nullable(),
});
export type AttemptRun = z.infer<typeof AttemptRunSchema>;

/** One attempt: which task and sample, how it ended, what it cost. */
export const AttemptRecordSchema = z.strictObject({
  schema_version: z.literal(ATTEMPT_SCHEMA_VERSION),
  task_id: z.string().regex(TASK_ID_PATTERN),
  /** The attempt's number among the task's attempts (its directory), never reused. */
  attempt: z.number().int().min(1),
  /** Which of the task's `attempts` samples this is (a retried sample keeps its number). */
  sample: z.number().int().min(1),
  /** The attempt of the same sample this one replaces (retried, or left unfinished), if any. */
  replaces: z.number().int().min(1).nullable(),
  task_hash: z.string().regex(/^[0-9a-f]{64}$/),
  /** The commit the repository was at (resolved). */
  commit: z.string().nullable(),
  started_at: timestamp,
  finished_at: timestamp.nullable(),
  /** Null while it runs; `unfinished` when it was interrupted (it runs again on --resume). */
  status: z.enum([...BATCH_STATUSES, 'unfinished']).nullable(),
  wall_ms: count.nullable(),
  run: AttemptRunSchema.nullable(),
  /** The error that ended it (sanitised and bounded when written). */
  error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
  /** The process running it (a record saying running whose process is gone is unfinished). */
  owner: z.strictObject({ pid: z.number().int().positive(), host: z.string() }),
});
export type AttemptRecord = z.infer<typeof AttemptRecordSchema>;
