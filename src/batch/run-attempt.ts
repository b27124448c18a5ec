// One task attempt: its own directory and repository, one ordinary run through the API (src/api/run),
// its wall-clock limit, and its record written when it starts and when it ends, whatever happened.
import { hostname } from 'node:os';
import { openRunStore } from '../api/run-store.js';
import type { ModelLimiter } from '../api/limited-provider.js';
import { run, type RunOptions } from '../api/run.js';
import type { Config } from '../config/schema.js';
import { HammerError, isHammerError } from '../errors.js';
import { sanitizeLine, truncateText } from '../text/sanitize.js';
import type { RunState } from '../state/run-state.js';
import { ATTEMPT_SCHEMA_VERSION, type AttemptRecord } from './attempt-record.js';
import type { BatchDir } from './batch-dir.js';
import type { PlannedAttempt } from './plan.js';
import { attemptRunOf, runEndOf } from './run-facts.js';
import type { Sources } from './sources.js';
import { classifyAttempt, UNFINISHED } from './status.js';
import { taskFlags } from './task-config.js';
import { makeAttemptRepo } from './task-repo.js';
import type { Task } from './task-schema.js';

/** The most characters of an error message kept in a record. */
const ERROR_MESSAGE_CHARS = 2000;

/** What every attempt of a batch shares. */
export interface AttemptContext {
  dir: BatchDir;
  sources: Sources;
  /** The batch's configuration (its [state] dir says where an attempt's run state is). */
  config: Config;
  configFile?: string;
  /** The batch's command-line config layer (model flags, limits). */
  flags: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  /** The batch's signal: an interrupt stops every attempt. */
  signal?: AbortSignal;
  limitModel: ModelLimiter;
  /** The network proofs every attempt shares (Kubernetes: proven once, not per attempt). */
  networkProofs?: RunOptions['networkProofs'];
  /** The default wall-clock limit of a task, in seconds. */
  taskTimeoutS: number;
  logLevel?: string;
  now: () => Date;
  /** A record was written (the attempt started, learned its run id, or ended). */
  onRecord: (record: AttemptRecord) => void;
  /** A line of image build or dependency setup output. */
  onImageProgress?: (task: string, line: string) => void;
}

/** Run one attempt to its end and return its final record (never throws for the attempt's own failure). */
export async function runAttempt(task: Task, planned: PlannedAttempt, ctx: AttemptContext): Promise<AttemptRecord> {
  const started = ctx.now();
  const t0 = performance.now();
  await ctx.dir.makeAttempt(task.id, planned.attempt);
  let record: AttemptRecord = {
    schema_version: ATTEMPT_SCHEMA_VERSION,
    task_id: task.id,
    attempt: planned.attempt,
    sample: planned.sample,
    replaces: planned.replaces,
    task_hash: task.hash,
    commit: null,
    started_at: started.toISOString(),
    finished_at: null,
    status: null,
    wall_ms: null,
    run: null,
    error: null,
    owner: { pid: process.pid, host: hostname() },
  };
  await ctx.dir.writeRecord(record);
  ctx.onRecord(record);

  const limitS = task.timeout ?? ctx.taskTimeoutS;
  const timer = new AbortController();
  const timeout = setTimeout(
    () =>
      timer.abort(
        new HammerError('ABORTED', `task ${task.id} ran out of its wall-clock limit of ${limitS} s`, {
          hint: 'raise it with the task\'s "timeout" or --task-timeout',
        }),
      ),
    limitS * 1000,
  );
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timer.signal]) : timer.signal;
  const repo = ctx.dir.repoPath(task.id, planned.attempt);
  let state: RunState | null = null;
  let error: unknown;
  let inRepoSetup = true;
  try {
    const source = await ctx.sources.resolve(task.source, task.commit);
    if (signal.aborted) throw signal.reason;
    await makeAttemptRepo(repo, source, signal);
    record = { ...record, commit: source.commit };
    inRepoSetup = false;
    const outcome = await run({
      repo,
      directive: task.directiveLabel,
      directiveText: task.directive,
      ...(ctx.configFile ? { configFile: ctx.configFile } : {}),
      flags: taskFlags(task, source.commit, ctx.flags, ctx.config.sandbox.env),
      env: ctx.env,
      signal,
      limitModel: ctx.limitModel,
      ...(ctx.networkProofs ? { networkProofs: ctx.networkProofs } : {}),
      ...(ctx.logLevel ? { logLevel: ctx.logLevel } : {}),
      ...(ctx.onImageProgress ? { onImageProgress: (line: string) => ctx.onImageProgress?.(task.id, line) } : {}),
    });
    state = outcome.state;
  } catch (err) {
    error = err;
    // the run's state, when it wrote one before it stopped
    if (isHammerError(err) && err.run) state = await readState(repo, err.run.id, ctx).catch(() => null);
  } finally {
    clearTimeout(timeout);
  }
  const status = classifyAttempt({
    run: state ? runEndOf(state) : null,
    errorCode: error === undefined ? null : isHammerError(error) ? error.code : 'INTERNAL',
    inRepoSetup: error !== undefined && inRepoSetup,
    timedOut: timer.signal.aborted,
    interrupted: ctx.signal?.aborted === true,
  });
  const final: AttemptRecord = {
    ...record,
    finished_at: ctx.now().toISOString(),
    status,
    wall_ms: Math.round(performance.now() - t0),
    run: state ? attemptRunOf(state) : null,
    error:
      error === undefined || status === UNFINISHED ? null : errorOf(timer.signal.aborted ? timer.signal.reason : error),
  };
  await ctx.dir.writeRecord(final);
  ctx.onRecord(final);
  return final;
}

/** The error as a record keeps it: its code and one bounded, sanitised line. */
function errorOf(err: unknown): { code: string; message: string } {
  const code = isHammerError(err) ? err.code : 'INTERNAL';
  const message = err instanceof Error ? err.message : String(err);
  return { code, message: truncateText(sanitizeLine(message), ERROR_MESSAGE_CHARS) };
}

async function readState(repo: string, runId: string, ctx: AttemptContext): Promise<RunState> {
  const store = await openRunStore(repo, ctx.config, ctx.env);
  return store.read(runId);
}
