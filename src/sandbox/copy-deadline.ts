// A deadline for copies into a sandbox that stop making progress: a tar stream the sandbox stopped
// taking (a stuck exec, an API server that went quiet) fails after STALL_MS without a byte moving,
// instead of hanging the run. A copy that keeps moving is never cut, however large.
import { Transform, type Readable } from 'node:stream';
import { HammerError } from '../errors.js';

/** How long a copy may go without a byte taken (or, after the last byte, without finishing). */
export const COPY_STALL_MS = 60_000;

/** A copy's stream watched for progress, and the signal that fires when it stalls. */
export interface WatchedCopy {
  /** The source, passed through; every chunk taken counts as progress. */
  stream: Readable;
  /** Fires once nothing moved for `stallMs` after `start`. */
  signal: AbortSignal;
  /** The copy begins now (it may have waited its turn): the deadline starts. */
  start(): void;
  /** The error to throw when `signal` fired (a stalled copy, not an abort). */
  stalled(): HammerError | null;
  /** Stop watching (the copy ended either way). */
  done(): void;
}

/** Watch `source` on its way into the sandbox; `what` names the copy in the error. */
export function watchCopy(source: Readable, what: string, stallMs: number = COPY_STALL_MS): WatchedCopy {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let fired = false;
  let started = false;
  let finished = false;
  const arm = (): void => {
    if (!started || finished) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      fired = true;
      controller.abort(new Error(`${what} stalled`));
    }, stallMs);
    timer.unref();
  };
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      arm();
      callback(null, chunk);
    },
    flush(callback) {
      // the last byte went in: the sandbox gets another stallMs to finish with it
      arm();
      callback();
    },
  });
  source.on('error', (err) => counted.destroy(err));
  source.pipe(counted);
  return {
    stream: counted,
    signal: controller.signal,
    start: () => {
      started = true;
      arm();
    },
    stalled: () =>
      fired
        ? new HammerError('SANDBOX_BROKEN', `${what} stalled: nothing moved for ${Math.round(stallMs / 1000)} s`, {
            hint: 'the sandbox stopped taking the copy (a stuck exec, or an API server or engine that went quiet); run again, and check the engine or cluster if it repeats',
          })
        : null,
    done: () => {
      finished = true;
      clearTimeout(timer);
    },
  };
}
