// Reading dockerode's errors: the HTTP status it carries, and turning engine failures into typed errors.
import { HammerError, abortError } from '../errors.js';

/** The HTTP status code of a dockerode error, if it has one. */
export function statusCode(err: unknown): number | undefined {
  if (typeof err === 'object' && err !== null && 'statusCode' in err && typeof err.statusCode === 'number')
    return err.statusCode;
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

/** What to do when no engine answers (shared by the ping and by an engine lost mid-run). */
export const ENGINE_HINT =
  "install and start Docker (https://docs.docker.com/engine/install/; Docker Desktop, Colima, OrbStack or Rancher Desktop on macOS), or point DOCKER_HOST or the docker context ('docker context use <name>') at a running engine";

// ENGINE_TIMEOUT: the engine took a request and did not answer it in time (engine-deadline.ts)
const LOST_CONNECTION = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT', 'ENGINE_TIMEOUT']);

/**
 * True when `err` says the connection to the engine itself failed (the daemon stopped, restarted
 * or its socket went away), as opposed to the engine answering with an error. Host file errors
 * (ENOENT from a read) do not count: only a failed connect or a dropped socket.
 */
export function isEngineLost(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; syscall?: unknown; message?: unknown };
  if (typeof e.code === 'string' && LOST_CONNECTION.has(e.code)) return true;
  if (e.code === 'ENOENT' && e.syscall === 'connect') return true;
  return typeof e.message === 'string' && /^socket hang up$/.test(e.message);
}

/**
 * ABORTED when the signal fired, the error itself when already typed, ENGINE_UNAVAILABLE when the
 * connection to the engine was lost, else SANDBOX_BROKEN about `what`.
 */
export function sandboxFailure(err: unknown, what: string, signal?: AbortSignal): HammerError {
  if (signal?.aborted) return abortError(signal, what);
  if (err instanceof HammerError) return err;
  if (isEngineLost(err)) {
    return new HammerError(
      'ENGINE_UNAVAILABLE',
      `${what} failed: the Docker engine stopped answering (${messageOf(err)})`,
      { hint: ENGINE_HINT, cause: err },
    );
  }
  return new HammerError('SANDBOX_BROKEN', `${what} failed: ${messageOf(err)}`, { cause: err });
}
