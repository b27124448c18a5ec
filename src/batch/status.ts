// How a task attempt ended, in the batch's words: one pure function from what the run recorded (or
// the error it threw) and what the batch saw (its timeout, an interrupt) to one status.
import type { ErrorCode } from '../errors.js';
import { hasEnded, type EndedStatus, type ExitReason, type RunStatus } from '../state/run-state.js';

/**
 * The statuses of a finished attempt: `stable` (every targeted test passes), `partial` (some targeted
 * tests were fixed, none regressed, others still fail), `untested` (the repository has no tests to
 * run), `unknown` (the last test run timed out or could not be read), `tests_fail` (patches applied,
 * the tests still fail, and the model stopped making progress), `no_patch` (no patch was ever applied),
 * `budget_exhausted` (patches applied, the run's iteration or agent step limit reached with the tests failing),
 * `setup_failed` (the task's repository, configuration, image or dependencies could not be set up),
 * `model_error` (the model server failed or has no such model), `infra_error` (the engine, the
 * sandbox, the state directory or hammer-box itself broke), `timeout` (the task's wall-clock limit).
 */
export const BATCH_STATUSES = [
  'stable',
  'partial',
  'untested',
  'unknown',
  'tests_fail',
  'no_patch',
  'budget_exhausted',
  'setup_failed',
  'model_error',
  'infra_error',
  'timeout',
] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** What classify returns for an attempt that did not finish (interrupted, or its process died): it runs again. */
export const UNFINISHED = 'unfinished';

/** What is known of how an attempt ended. */
export interface AttemptEnd {
  /**
   * The run's state, when it wrote one: its outcome (runVerdict's, see src/verdict), reason, patches
   * applied, the last recorded error's code.
   */
  run: { status: RunStatus; reason: ExitReason | null; applied: number; errorCode: string | null } | null;
  /** The code of the error the attempt threw (a HammerError's code; null for none, INTERNAL for anything else). */
  errorCode: string | null;
  /** The error came while the task's repository was being prepared (fetch, commit, attempt repository). */
  inRepoSetup?: boolean;
  /** The batch's per-task wall-clock limit fired. */
  timedOut: boolean;
  /** The batch was interrupted (Ctrl-C) while the attempt ran. */
  interrupted: boolean;
}

/**
 * The attempt's status. A run that ended on its own is taken as it ended (its outcome), even when
 * the timeout or an interrupt came as it finished; then the timeout, then an interrupt (unfinished);
 * then the error's code.
 */
export function classifyAttempt(end: AttemptEnd): BatchStatus | typeof UNFINISHED {
  const run = end.run;
  if (run !== null && hasEnded(run.status)) return fromEndedRun({ ...run, status: run.status });
  if (end.timedOut) return 'timeout';
  if (end.interrupted) return UNFINISHED;
  const code = end.errorCode ?? (run?.status === 'error' ? (run.errorCode ?? 'INTERNAL') : null);
  // a state that says running or interrupted, and nothing thrown: the process died under it
  if (code === null) return UNFINISHED;
  if (end.inRepoSetup === true && code !== 'ABORTED') return 'setup_failed';
  return statusOfErrorCode(code);
}

/** A run that ended on its own: its outcome; a failed one by its reason, and whether any patch was applied. */
function fromEndedRun(run: NonNullable<AttemptEnd['run']> & { status: EndedStatus }): BatchStatus {
  switch (run.status) {
    case 'stable':
    case 'partial':
    case 'untested':
    case 'unknown':
      return run.status;
    case 'failed':
      break;
  }
  if (run.applied === 0) return 'no_patch';
  const reason = run.reason;
  switch (reason) {
    case 'max_iterations':
    case 'max_steps':
      return 'budget_exhausted';
    case 'duplicate_patch':
    case 'no_usable_diff':
    case 'tests_pass':
    case 'tests_pass_baseline':
    case 'baseline_failures_remain':
    case 'no_tests':
    case 'error':
    case 'interrupted':
    case null:
      return 'tests_fail';
  }
}

const BY_CODE: Record<ErrorCode, BatchStatus | typeof UNFINISHED> = {
  // the task's own setup: its repository, its configuration, its image or dependencies
  USAGE: 'setup_failed',
  CONFIG_INVALID: 'setup_failed',
  REPO_INVALID: 'setup_failed',
  IMAGE_BUILD_FAILED: 'setup_failed',
  IMAGE_CONTRACT: 'setup_failed',
  IMAGE_IMPORT: 'setup_failed',
  TOOLCHAIN_UNAVAILABLE: 'setup_failed',
  SETUP_FAILED: 'setup_failed',
  // the model server
  MODEL_UNREACHABLE: 'model_error',
  MODEL_NOT_FOUND: 'model_error',
  MODEL_ERROR: 'model_error',
  MODEL_TIMEOUT: 'model_error',
  // the machine hammer-box runs on, or hammer-box itself
  ENGINE_UNAVAILABLE: 'infra_error',
  IMAGE_MISSING: 'infra_error',
  SANDBOX_HARDENING: 'infra_error',
  SANDBOX_BROKEN: 'infra_error',
  SANDBOX_PIDS_FULL: 'infra_error',
  STATE_INVALID: 'infra_error',
  STATE_UNWRITABLE: 'infra_error',
  RUN_NOT_FOUND: 'infra_error',
  GIT_FAILED: 'infra_error',
  INTERNAL: 'infra_error',
  // a cluster that cannot run the task's sandbox as asked
  SANDBOX_NETWORK_UNPROVEN: 'infra_error',
  SANDBOX_IMAGE_PULL: 'infra_error',
  SANDBOX_UNSCHEDULABLE: 'infra_error',
  SANDBOX_QUOTA: 'infra_error',
  SANDBOX_FORBIDDEN: 'infra_error',
  // delivery to a forge (batch runs never push)
  PUSH_FAILED: 'infra_error',
  FORGE_UNAVAILABLE: 'infra_error',
  PR_FAILED: 'infra_error',
  // stopped from outside without the batch's timeout or interrupt: it runs again
  ABORTED: UNFINISHED,
};

/** The status of an attempt that ended with this error code (an unknown code is infra_error). */
export function statusOfErrorCode(code: string): BatchStatus | typeof UNFINISHED {
  return Object.hasOwn(BY_CODE, code) ? BY_CODE[code as ErrorCode] : 'infra_error';
}

/** What `--retry` names: infra, model, timeout, setup (each a status). */
export const RETRY_KINDS: Readonly<Record<string, BatchStatus>> = {
  infra: 'infra_error',
  model: 'model_error',
  timeout: 'timeout',
  setup: 'setup_failed',
};

/**
 * A status is a verdict on the task, except infra_error, model_error and unknown: those say nothing
 * about whether the model can solve it (they are left out of pass@k and compare, and make the exit code 1).
 */
export function isVerdict(status: BatchStatus): boolean {
  return status !== 'infra_error' && status !== 'model_error' && status !== 'unknown';
}
