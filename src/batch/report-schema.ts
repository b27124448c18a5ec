// `report.json`, the batch's result: counts and ids by status, pass@k, and per task its status, what
// it cost and every attempt. Versioned; `batch compare` reads it back through this schema.
import { z } from 'zod';
import { BATCH_STATUSES } from './status.js';
import { TASK_ID_PATTERN } from './task-schema.js';

/** The report's schema version. */
export const REPORT_SCHEMA_VERSION = 1;

/** A task's status in the report: a finished status, or `running` / `pending` (not every sample finished). */
export const REPORT_STATUSES = [...BATCH_STATUSES, 'running', 'pending'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

const count = z.number().int().min(0);
const ms = z.number().min(0);
const timestamp = z.iso.datetime({ offset: true });

/** Cost figures (of an attempt, a task, or the whole batch). */
export const CostSchema = z.strictObject({
  iterations: count,
  wall_ms: ms,
  model_ms: ms,
  tokens_in: count,
  tokens_out: count,
});
export type Cost = z.infer<typeof CostSchema>;

/** One attempt in the report. */
export const ReportAttemptSchema = z.strictObject({
  attempt: z.number().int().min(1),
  sample: z.number().int().min(1),
  replaces: z.number().int().min(1).nullable(),
  /** False for an attempt another one replaced (retried, or left unfinished). */
  counted: z.boolean(),
  status: z.enum([...BATCH_STATUSES, 'unfinished', 'running']),
  started_at: timestamp,
  finished_at: timestamp.nullable(),
  ...CostSchema.shape,
  run_id: z.string().nullable(),
  /** The run's exit reason (tests_pass, max_iterations, ...). */
  reason: z.string().nullable(),
  model: z.string().nullable(),
  branch: z.string().nullable(),
  error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
  /** The attempt's directory and its repository (where the run's state is), relative to the batch directory. */
  dir: z.string(),
  repo: z.string(),
});
export type ReportAttempt = z.infer<typeof ReportAttemptSchema>;

/** One task in the report. */
export const ReportTaskSchema = z.strictObject({
  id: z.string().regex(TASK_ID_PATTERN),
  /** The tasks file's line. */
  line: count,
  status: z.enum(REPORT_STATUSES),
  /** Samples asked for, finished with a verdict (counted for pass@k: all but infra_error and model_error), and stable. */
  attempts_wanted: z.number().int().min(1),
  samples: count,
  solved: count,
  /** Sums over the attempts that stand for its samples. */
  ...CostSchema.shape,
  attempts: z.array(ReportAttemptSchema),
});
export type ReportTask = z.infer<typeof ReportTaskSchema>;

/** Statuses added after the first reports were written: a report without them counts none. */
const LATER_STATUSES: readonly ReportStatus[] = ['partial', 'untested', 'unknown'];

const byStatus = <T extends z.ZodType>(value: T, none: z.output<T>) =>
  z.strictObject(
    Object.fromEntries(
      REPORT_STATUSES.map((s) => [s, LATER_STATUSES.includes(s) ? value.default(none as never) : value]),
    ) as Record<ReportStatus, T>,
  );

/** The whole report.json. */
export const ReportSchema = z.strictObject({
  schema_version: z.literal(REPORT_SCHEMA_VERSION),
  generated_at: timestamp,
  hammer_box_version: z.string(),
  tasks_file: z.string(),
  /** running: a batch process is working on it; finished: every task has a status; interrupted: stopped before that. */
  state: z.enum(['running', 'finished', 'interrupted']),
  /** The model the batch was configured with (provider:name); a task may name another. */
  model: z.string(),
  counts: byStatus(count, 0),
  ids: byStatus(z.array(z.string()), []),
  /** Tasks with a finished status; of them, stable. */
  resolved: z.strictObject({ stable: count, finished: count }),
  pass_at_k: z.array(
    z.strictObject({ k: z.number().int().min(1), value: z.number().min(0).max(1).nullable(), tasks: count }),
  ),
  /** What the batch spent: every finished attempt, replaced ones included. */
  totals: z.strictObject({ tasks: count, attempts: count, ...CostSchema.shape }),
  tasks: z.array(ReportTaskSchema),
});
export type Report = z.infer<typeof ReportSchema>;
