// Building report.json from the tasks and their attempt records. Pure: the batch rewrites the
// report from its records whenever an attempt starts or ends.
import type { AttemptRecord } from './attempt-record.js';
import { passAtKs } from './pass-at-k.js';
import { isFinished } from './plan.js';
import {
  REPORT_SCHEMA_VERSION,
  REPORT_STATUSES,
  type Cost,
  type Report,
  type ReportAttempt,
  type ReportStatus,
  type ReportTask,
} from './report-schema.js';
import { isVerdict, type BatchStatus } from './status.js';

/** A task's status when no sample is stable: the first of these any sample has. */
const PRECEDENCE: readonly BatchStatus[] = [
  'infra_error',
  'model_error',
  'setup_failed',
  'timeout',
  'unknown',
  'partial',
  'untested',
  'budget_exhausted',
  'tests_fail',
  'no_patch',
];

/** What the report is built from. */
export interface ReportInput {
  tasks: readonly { id: string; line: number; hash: string; attempts: number }[];
  /** Every readable attempt record, by task id. */
  records: ReadonlyMap<string, readonly AttemptRecord[]>;
  /** Attempts this process is running now, as `<task id>/<attempt>`. */
  running: ReadonlySet<string>;
  state: Report['state'];
  now: Date;
  version: string;
  tasksFile: string;
  model: string;
}

/** The attempt's directory, relative to the batch directory. */
export function attemptDir(taskId: string, attempt: number): string {
  return `tasks/${taskId}/attempt-${attempt}`;
}

const ZERO: Cost = { iterations: 0, wall_ms: 0, model_ms: 0, tokens_in: 0, tokens_out: 0 };

function add(a: Cost, b: Cost): Cost {
  return {
    iterations: a.iterations + b.iterations,
    wall_ms: a.wall_ms + b.wall_ms,
    model_ms: a.model_ms + b.model_ms,
    tokens_in: a.tokens_in + b.tokens_in,
    tokens_out: a.tokens_out + b.tokens_out,
  };
}

/** What an attempt cost, from its record. */
export function attemptCost(r: AttemptRecord): Cost {
  return {
    iterations: r.run?.iterations ?? 0,
    wall_ms: r.wall_ms ?? 0,
    model_ms: r.run?.model_ms ?? 0,
    tokens_in: r.run?.tokens_in ?? 0,
    tokens_out: r.run?.tokens_out ?? 0,
  };
}

/** The report of the batch as its records stand. */
export function buildReport(input: ReportInput): Report {
  const tasks = input.tasks.map((t) => reportTask(t, input.records.get(t.id) ?? [], input.running));
  const counts = Object.fromEntries(REPORT_STATUSES.map((s) => [s, 0])) as Record<ReportStatus, number>;
  const ids = Object.fromEntries(REPORT_STATUSES.map((s) => [s, [] as string[]])) as Record<ReportStatus, string[]>;
  for (const t of tasks) {
    counts[t.status]++;
    ids[t.status].push(t.id);
  }
  const finished = tasks.filter((t) => t.status !== 'running' && t.status !== 'pending');
  // what the batch spent: every finished attempt, replaced ones included
  const ended = tasks.flatMap((t) => t.attempts.filter((a) => a.finished_at !== null));
  const totals = { ...ended.reduce((acc, a) => add(acc, a), ZERO), attempts: ended.length };
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    generated_at: input.now.toISOString(),
    hammer_box_version: input.version,
    tasks_file: input.tasksFile,
    state: input.state,
    model: input.model,
    counts,
    ids,
    resolved: { stable: counts.stable, finished: finished.length },
    pass_at_k: passAtKs(tasks.filter((t) => t.samples > 0).map((t) => ({ n: t.samples, c: t.solved }))),
    totals: { tasks: tasks.length, ...totals },
    tasks,
  };
}

function reportTask(
  task: ReportInput['tasks'][number],
  all: readonly AttemptRecord[],
  running: ReadonlySet<string>,
): ReportTask {
  const records = all.filter((r) => r.task_hash === task.hash).sort((a, b) => a.attempt - b.attempt);
  const latest = new Map<number, AttemptRecord>();
  for (const r of records) if (r.sample <= task.attempts) latest.set(r.sample, r);
  const isRunning = (r: AttemptRecord): boolean => r.status === null && running.has(`${r.task_id}/${r.attempt}`);
  const standing: (AttemptRecord & { status: BatchStatus })[] = [];
  let anyRunning = false;
  let anyPending = false;
  for (let s = 1; s <= task.attempts; s++) {
    const r = latest.get(s);
    if (r !== undefined && isFinished(r)) standing.push(r);
    else if (r !== undefined && isRunning(r)) anyRunning = true;
    else anyPending = true;
  }
  const status: ReportStatus = anyRunning
    ? 'running'
    : anyPending
      ? 'pending'
      : standing.some((r) => r.status === 'stable')
        ? 'stable'
        : (PRECEDENCE.find((p) => standing.some((r) => r.status === p)) ?? 'pending');
  // infra and model errors are no verdict on the task: they are not samples of pass@k
  const scored = standing.filter((r) => isVerdict(r.status));
  const cost = standing.reduce((acc, r) => add(acc, attemptCost(r)), ZERO);
  const attempts: ReportAttempt[] = records.map((r) => ({
    attempt: r.attempt,
    sample: r.sample,
    replaces: r.replaces,
    counted: latest.get(r.sample) === r,
    status: r.status ?? (isRunning(r) ? 'running' : 'unfinished'),
    started_at: r.started_at,
    finished_at: r.finished_at,
    ...attemptCost(r),
    run_id: r.run?.run_id ?? null,
    reason: r.run?.reason ?? null,
    model: r.run?.model ?? null,
    branch: r.run?.branch ?? null,
    error: r.error,
    dir: attemptDir(r.task_id, r.attempt),
    repo: `${attemptDir(r.task_id, r.attempt)}/repo`,
  }));
  return {
    id: task.id,
    line: task.line,
    status,
    attempts_wanted: task.attempts,
    samples: scored.length,
    solved: scored.filter((r) => r.status === 'stable').length,
    ...cost,
    attempts,
  };
}
