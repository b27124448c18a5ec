// Deadlines on every request to the engine: an engine that accepts connections and never answers
// must give a typed error, never a hang. Installed once on the client (createDockerClient).
import { Transform, type Readable } from 'node:stream';
import type Dockerode from 'dockerode';

/** How long one engine request may take to be answered (from sending it, or from the end of its upload). */
export const REQUEST_DEADLINE_MS = 120_000;
/** How long an upload (a tar into a container, a build context) may stall before it is given up. */
export const UPLOAD_IDLE_MS = 120_000;

/** The engine did not answer a request in time (isEngineLost counts it as a lost engine). */
export class EngineTimeoutError extends Error {
  override readonly name = 'EngineTimeoutError';
  readonly code = 'ENGINE_TIMEOUT';
}

/** What docker-modem's dial is given (the fields this file reads or sets). */
interface DialOptions {
  path?: string;
  method?: string;
  abortSignal?: AbortSignal;
  file?: unknown;
  hijack?: boolean;
  [key: string]: unknown;
}
type DialCallback = (err: unknown, data: unknown) => void;
interface Modem {
  dial(options: DialOptions, callback: DialCallback): void;
}

// Requests that wait by design for something the caller bounds itself (a container to exit, an
// image to be committed, a prune): they keep only the caller's signal.
const LONG_POLL = /\/(wait|commit|stop|restart|prune)(\?|$)/;

/** Whether a request gets a deadline (pure): everything but the long polls above. */
export function takesDeadline(path: string | undefined): boolean {
  return !LONG_POLL.test(path ?? '');
}

/**
 * Give every request of `docker` a deadline: `deadlineMs` to be answered (for an upload, counted
 * from its end, and the upload itself may not stall for `uploadIdleMs`). A request past it is
 * aborted (its socket closed) and fails with EngineTimeoutError; the caller's own abortSignal still
 * works. Streams, once answered, are the caller's to bound (exec has its own timeouts).
 */
export function withRequestDeadlines(
  docker: Dockerode,
  deadlineMs = REQUEST_DEADLINE_MS,
  uploadIdleMs = UPLOAD_IDLE_MS,
): Dockerode {
  const modem = docker.modem as unknown as Modem;
  const dial = modem.dial.bind(modem);
  modem.dial = (options: DialOptions, callback: DialCallback): void => {
    if (!takesDeadline(options.path)) {
      dial(options, callback);
      return;
    }
    const what = `${options.method ?? 'GET'} ${(options.path ?? '').replace(/\?.*$/, '')}`;
    const ctl = new AbortController();
    const outer = options.abortSignal;
    let timer: NodeJS.Timeout | undefined;
    let expired: EngineTimeoutError | undefined;
    const arm = (ms: number, why: string): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        expired = new EngineTimeoutError(`the Docker engine ${why} (${what})`);
        ctl.abort(expired);
      }, ms);
    };
    const onOuter = (): void => ctl.abort(outer?.reason);
    if (outer?.aborted) onOuter();
    else outer?.addEventListener('abort', onOuter, { once: true });
    let file = options.file;
    if (isReadable(file)) {
      // the deadline to answer starts when the upload ends; until then the upload may not stall
      const answerWindow = `did not answer within ${deadlineMs / 1000} s of an upload`;
      const stallWindow = `stopped taking an upload for ${uploadIdleMs / 1000} s`;
      // a chunk only notes its time; the stall timer, when it fires, waits again for what is left
      let lastChunk = performance.now();
      const stalled = (): void => {
        const idle = performance.now() - lastChunk;
        if (idle < uploadIdleMs) timer = setTimeout(stalled, uploadIdleMs - idle);
        else {
          expired = new EngineTimeoutError(`the Docker engine ${stallWindow} (${what})`);
          ctl.abort(expired);
        }
      };
      const watch = new Transform({
        transform(chunk: Buffer, _enc, done) {
          lastChunk = performance.now();
          done(null, chunk);
        },
        flush(done) {
          arm(deadlineMs, answerWindow);
          done();
        },
      });
      file.on('error', (err: Error) => watch.destroy(err));
      file = file.pipe(watch);
      clearTimeout(timer);
      timer = setTimeout(stalled, uploadIdleMs);
    } else {
      arm(deadlineMs, `did not answer within ${deadlineMs / 1000} s`);
    }
    dial({ ...options, file, abortSignal: ctl.signal }, (err, data) => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
      callback(err && expired ? expired : err, data);
    });
  };
  return docker;
}

function isReadable(v: unknown): v is Readable {
  return typeof v === 'object' && v !== null && typeof (v as Readable).pipe === 'function';
}
