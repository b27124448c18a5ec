// Typed errors with stable codes. Failures the loop reasons about (a failing test, a rejected
// patch, a timed-out command) are results, not errors; these are for breakage.

/** Every stable error code hammer-box can throw; the CLI maps each to an exit code and a hint. */
export const ERROR_CODES = [
  // usage and configuration (exit 2)
  'USAGE',
  'CONFIG_INVALID',
  'REPO_INVALID',
  'STATE_INVALID',
  'RUN_NOT_FOUND',
  // environment unavailable (exit 3)
  'ENGINE_UNAVAILABLE',
  'IMAGE_MISSING',
  'IMAGE_BUILD_FAILED',
  'IMAGE_CONTRACT',
  'IMAGE_IMPORT',
  'TOOLCHAIN_UNAVAILABLE',
  'SANDBOX_HARDENING',
  'SANDBOX_BROKEN',
  'SANDBOX_PIDS_FULL',
  'SANDBOX_NETWORK_UNPROVEN',
  'SANDBOX_IMAGE_PULL',
  'SANDBOX_UNSCHEDULABLE',
  'SANDBOX_QUOTA',
  'SANDBOX_FORBIDDEN',
  'MODEL_UNREACHABLE',
  'MODEL_NOT_FOUND',
  'MODEL_ERROR',
  'MODEL_TIMEOUT',
  'SETUP_FAILED',
  'STATE_UNWRITABLE',
  'PUSH_FAILED',
  'FORGE_UNAVAILABLE',
  'PR_FAILED',
  // interrupted (exit 130)
  'ABORTED',
  // a bug or an unexpected state (exit 1)
  'GIT_FAILED',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The run an error ended, when it had a state file. */
export interface RunRef {
  id: string;
  statePath: string;
}

/** An error with a stable code, an optional next-step hint for the user, and a cause. */
export class HammerError extends Error {
  override readonly name = 'HammerError';
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  /** The run it ended, when the run had written its state file. */
  readonly run: RunRef | undefined;

  constructor(code: ErrorCode, message: string, options: { hint?: string; cause?: unknown; run?: RunRef } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
    this.run = options.run;
  }
}

/** The same error carrying the run it ended (anything else is left as it is). */
export function withRunRef(err: unknown, run: RunRef): unknown {
  if (!(err instanceof HammerError)) return err;
  const out = new HammerError(err.code, err.message, {
    ...(err.hint === undefined ? {} : { hint: err.hint }),
    ...(err.cause === undefined ? {} : { cause: err.cause }),
    run,
  });
  out.stack = err.stack;
  return out;
}

/** True when `err` is a HammerError, optionally with the given code. */
export function isHammerError(err: unknown, code?: ErrorCode): err is HammerError {
  return err instanceof HammerError && (code === undefined || err.code === code);
}

/** Turn an AbortSignal's reason into the ABORTED error (keeps an existing HammerError). */
export function abortError(signal: AbortSignal | undefined, what: string): HammerError {
  const reason: unknown = signal?.reason;
  if (reason instanceof HammerError) return reason;
  return new HammerError('ABORTED', `${what} was interrupted`, { cause: reason });
}

/** Throw ABORTED if the signal has already fired. */
export function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw abortError(signal, what);
}
