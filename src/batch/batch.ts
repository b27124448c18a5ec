// `hammer-box batch`: many tasks, each attempt an ordinary run (src/api/run) in a repository of its
// own, at most --jobs at once and --model-jobs model requests at once. A task's failure never stops
// the batch; the report is rewritten as attempts start and end, and once more at the end, Ctrl-C
// included.
import { resolve } from 'node:path';
import { networkProofStore } from '../api/network-proofs.js';
import { resolveConfig } from '../config/resolve.js';
import { HammerError, isHammerError } from '../errors.js';
import { sanitizeLine } from '../text/sanitize.js';
import { loadStateKey } from '../state/state-key.js';
import type { AttemptRecord } from './attempt-record.js';
import { BatchDir } from './batch-dir.js';
import { etaMs, type BatchEmitter, type BatchProgress } from './events.js';
import { planTask, type PlannedAttempt } from './plan.js';
import { buildReport } from './report.js';
import { recoverRecord } from './recover.js';
import { ReportWriter } from './report-writer.js';
import { ReportSchema, type Report } from './report-schema.js';
import { runAttempt, type AttemptContext } from './run-attempt.js';
import { Slots } from './slots.js';
import { Sources } from './sources.js';
import type { BatchStatus } from './status.js';
import { loadTasks } from './tasks-file.js';
import type { Task } from './task-schema.js';

/** What `batch` takes. */
export interface BatchOptions {
  tasksFile: string;
  /** The batch directory. */
  out: string;
  /** Attempts (sandboxes) at once. */
  jobs: number;
  /** Model requests at once, over all attempts. */
  modelJobs: number;
  /** A task's wall-clock limit in seconds, unless it sets `timeout`. */
  taskTimeoutS: number;
  /** Continue the batch in `out`: finished attempts are kept. */
  resume: boolean;
  /** Statuses whose attempts run again (implies resume). */
  retry: readonly BatchStatus[];
  configFile?: string;
  /** Config keys from the command line (under every task's own fields). */
  flags?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  emit?: BatchEmitter;
  logLevel?: string;
  /** Image build and dependency setup output, by task. */
  onImageProgress?: (task: string, line: string) => void;
  /** hammer-box's version, for the report. */
  version: string;
  now?: () => Date;
}

/** How a batch ended. */
export interface BatchResult {
  report: Report;
  reportPath: string;
  markdownPath: string;
  /** Stopped by an interrupt before every attempt ended. */
  interrupted: boolean;
}

/** Run a batch to its end (or its interruption); the report is written on every path once the directory is open. */
export async function runBatch(options: BatchOptions): Promise<BatchResult> {
  const env = options.env ?? process.env;
  const now = options.now ?? (() => new Date());
  const emit = options.emit ?? (() => undefined);
  const tasks = await loadTasks(options.tasksFile);
  // the batch's own configuration, checked before anything is made (a task adds its fields on top)
  const flags = options.flags ?? {};
  const { config } = await resolveConfig({
    env,
    flags,
    ...(options.configFile ? { configFile: options.configFile } : {}),
  });
  const model = `${config.model.provider}:${config.model.name}`;
  const key = await loadStateKey(env);
  const resuming = options.resume || options.retry.length > 0;
  const dir = await BatchDir.open(resolve(options.out), key, resuming);
  try {
    if (resuming) await refuseOtherModel(dir, model);
    const records = new Map<string, AttemptRecord[]>();
    const queue: { task: Task; planned: PlannedAttempt }[] = [];
    const retry = new Set(options.retry);
    let kept = 0;
    for (const task of tasks) {
      const found = await dir.readTask(task.id);
      for (const u of found.unreadable)
        emit({
          type: 'notice',
          level: 'warning',
          text: `attempt ${u.attempt} of task ${task.id} is not trusted (${u.why}); its sample runs again`,
        });
      const usable = await Promise.all(found.records.map((r) => recoverRecord(r, dir, config, env)));
      records.set(task.id, usable);
      const plan = planTask(task, usable, found.taken, retry);
      if (plan.toRun.length === 0) kept++;
      for (const planned of plan.toRun) queue.push({ task, planned });
    }
    const running = new Set<string>();
    const started = performance.now();
    let done = 0;
    let state: Report['state'] = 'running';
    const report = (): Report =>
      buildReport({
        tasks,
        records,
        running,
        state,
        now: now(),
        version: options.version,
        tasksFile: resolve(options.tasksFile),
        model,
      });
    const writer = new ReportWriter(dir, report);
    const progress = (): BatchProgress => {
      const r = report();
      return {
        done,
        running: running.size,
        left: queue.length,
        stable: r.resolved.stable,
        finished: r.resolved.finished,
        // no estimate once interrupted: what is left will not run
        etaMs: options.signal?.aborted ? null : etaMs(done, queue.length + running.size, performance.now() - started),
      };
    };
    const onRecord = (rec: AttemptRecord): void => {
      const list = records.get(rec.task_id) ?? [];
      records.set(rec.task_id, [...list.filter((r) => r.attempt !== rec.attempt), rec]);
      writer.schedule();
    };
    emit({
      type: 'batch_started',
      tasks: tasks.length,
      toRun: queue.length,
      kept,
      jobs: options.jobs,
      modelJobs: options.modelJobs,
      model,
      report: dir.markdownPath,
    });
    await writer.now();
    const modelSlots = new Slots(options.modelJobs);
    const ctx: AttemptContext = {
      dir,
      sources: new Sources(dir.sourcesDir, options.signal),
      config,
      ...(options.configFile ? { configFile: resolve(options.configFile) } : {}),
      flags,
      env,
      ...(options.signal ? { signal: options.signal } : {}),
      limitModel: (work, signal) => modelSlots.run(work, signal),
      // one store for every attempt: the first proves the network, the others wait for it and reuse it
      networkProofs: networkProofStore(env),
      taskTimeoutS: options.taskTimeoutS,
      ...(options.logLevel ? { logLevel: options.logLevel } : {}),
      now,
      onRecord,
      ...(options.onImageProgress ? { onImageProgress: options.onImageProgress } : {}),
    };
    // the moment an interrupt comes, the report says so (a second Ctrl-C may end the process before the attempts do)
    const onAbort = (): void => {
      state = 'interrupted';
      writer.schedule();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const worker = async (): Promise<void> => {
      for (;;) {
        if (options.signal?.aborted) return;
        const next = queue.shift();
        if (!next) return;
        const id = `${next.task.id}/${next.planned.attempt}`;
        running.add(id);
        emit({
          type: 'attempt_started',
          task: next.task.id,
          attempt: next.planned.attempt,
          sample: next.planned.sample,
          progress: progress(),
        });
        let final: AttemptRecord | null = null;
        let failure: unknown;
        try {
          final = await runAttempt(next.task, next.planned, ctx);
        } catch (err) {
          // the attempt's own files could not be written: the batch goes on, the attempt runs again next time
          failure = err;
        }
        running.delete(id);
        done++;
        writer.schedule();
        emit({
          type: 'attempt_finished',
          task: next.task.id,
          attempt: next.planned.attempt,
          status: final?.status ?? 'unfinished',
          wallMs: final?.wall_ms ?? 0,
          iterations: final?.run?.iterations ?? 0,
          detail: final ? detailOf(final) : `could not record the attempt: ${messageOf(failure)}`,
          progress: progress(),
        });
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs, queue.length)) }, worker));
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
    const interrupted = options.signal?.aborted === true || queue.length > 0;
    state = interrupted ? 'interrupted' : 'finished';
    const final = report();
    await writer.now(true);
    return { report: final, reportPath: dir.reportPath, markdownPath: dir.markdownPath, interrupted };
  } finally {
    await dir.unlock();
  }
}

/** Refuse to continue a batch that ran with another model (its results would mix two models). */
async function refuseOtherModel(dir: BatchDir, model: string): Promise<void> {
  const text = await dir.previousReport();
  if (text === null) return;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return;
  }
  const previous = ReportSchema.safeParse(json);
  if (previous.success && previous.data.model !== model)
    throw new HammerError(
      'USAGE',
      `${dir.root} was run with the model ${sanitizeLine(previous.data.model)}, not ${model}`,
      {
        hint: 'pass the same --provider and --model (or --config) as before, or start another --out for the other model',
      },
    );
}

function detailOf(r: AttemptRecord): string | null {
  if (r.error) return `${r.error.code}: ${r.error.message}`;
  return r.run?.reason ?? null;
}

function messageOf(err: unknown): string {
  return isHammerError(err) || err instanceof Error ? err.message : String(err);
}
