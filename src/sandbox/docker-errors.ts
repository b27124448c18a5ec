// Reading dockerode's errors: the HTTP status it carries, and turning engine failures into typed errors.
import { HammerError, abortError } from '../errors.js';

/** The HTTP status code of a dockerode error, if it has one. */
export function statusCode(err: unknown): number | undefined {
  if (typeof err === 'object' && err !== null && 'statusCode' in err && typeof err.statusCode === 'number') return err.statusCode;
  return undefined;
}

/** True when the engine answered 404 (no such container/volume/exec). */
export function isNotFound(err: unknown): boolean {
  return statusCode(err) === 404;
}

/** The message of any thrown value. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message.trim() : String(err);
}

/** ABORTED when the signal fired, the error itself when already typed, else SANDBOX_BROKEN about `what`. */
export function sandboxFailure(err: unknown, what: string, signal?: AbortSignal): HammerError {
  if (signal?.aborted) return abortError(signal, what);
  if (err instanceof HammerError) return err;
  return new HammerError('SANDBOX_BROKEN', `${what} failed: ${messageOf(err)}`, { cause: err });
}
