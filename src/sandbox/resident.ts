// The host's side of the resident runner: one attached process per sandbox, started on first use, that
// runs each command (argv, no shell) with the contracts of one exec per command: output demuxed and
// capped, a wall-clock timeout that kills every process of the sandbox user, an abort, a signal
// death read as 128+n, and a resident that dies under a command reported as a broken sandbox.
import type { Logger } from 'pino';
import { HammerError, abortError, throwIfAborted } from '../errors.js';
import type { AttachedProcess, ResidentHost } from './attached.js';
import { OutputCapture } from './capture.js';
import { messageOf } from './docker-errors.js';
import { DEFAULT_MAX_OUTPUT_BYTES } from './exec.js';
import { pidsFullError, unsettledError } from './kill-all.js';
import { WORKDIR } from './hardening.js';
import {
  encodeCommand,
  encodeFileOp,
  encodeFrame,
  parseExit,
  parseFileAnswer,
  ResidentFrameParser,
  type ResidentExit,
} from './resident-frames.js';
import { RESIDENT_HELLO, RESIDENT_SCRIPT, RESIDENT_SETTLE_SECONDS } from './resident-script.js';
import type { ExecOptions, ExecResult, WorkspaceFileOp, WorkspaceFileResult } from './types.js';

/** How long a starting resident may take to say it is ready. */
const READY_MS = 15_000;
/** How long a kill asked of the resident may take before the host kills from outside. */
const KILL_ANSWER_MS = (RESIDENT_SETTLE_SECONDS + 5) * 1000;

/** A file operation waiting for its answer: the content read so far, then the end. */
interface FileWaiter {
  parts: Buffer[];
  bytes: number;
  /** The most content bytes the answer may carry. */
  max: number;
  onEnd(status: string, content: Buffer): void;
  onDeath(why: string): void;
}

interface Running {
  onOutput(stream: 'stdout' | 'stderr', chunk: Buffer): void;
  onExit(exit: ResidentExit): void;
  onDeath(why: string): void;
}

/** A live resident runner in one sandbox; `alive` turns false for good once its stream ends. */
export class Resident {
  private running: Running | undefined;
  private killWaiters: ((settled: boolean | null) => void)[] = [];
  private file: FileWaiter | undefined;
  private dead = false;
  private diagnostics = '';

  private constructor(
    private readonly host: ResidentHost,
    private readonly stream: AttachedProcess,
    private readonly logger?: Logger,
  ) {}

  /**
   * Start a resident and wait until it is ready; null when the image cannot run one (no perl).
   * `argv` starts it (default `perl -e <script>`; a backend may wrap it, e.g. to set limits first).
   */
  static async start(
    host: ResidentHost,
    logger?: Logger,
    signal?: AbortSignal,
    argv: string[] = ['perl', '-e', RESIDENT_SCRIPT],
  ): Promise<Resident | null> {
    throwIfAborted(signal, 'starting the resident runner');
    let stream: AttachedProcess;
    try {
      stream = await host.attach(argv, signal);
    } catch (err) {
      logger?.debug({ err: messageOf(err) }, 'resident runner not started; one exec per command');
      return null;
    }
    const resident = new Resident(host, stream, logger);
    const ready = await resident.ready();
    if (!ready) {
      logger?.debug({ stderr: resident.diagnostics.slice(-500) }, 'resident runner unavailable; one exec per command');
      resident.close();
      return null;
    }
    return resident;
  }

  /** False once the resident's stream has ended (it died, was killed, or was closed). */
  get alive(): boolean {
    return !this.dead;
  }

  private ready(): Promise<boolean> {
    return new Promise((resolve) => {
      let hello = false;
      const timer = setTimeout(() => resolve(false), READY_MS);
      const parser = new ResidentFrameParser((frame) => {
        if (!hello) {
          hello = frame.kind === 'r' && frame.payload.toString('latin1') === RESIDENT_HELLO;
          clearTimeout(timer);
          resolve(hello);
          if (!hello) this.close();
          return;
        }
        this.onFrame(frame.kind, frame.payload);
      });
      this.stream.onOutput((name, payload) => {
        if (name === 'stderr') {
          this.diagnostics = (this.diagnostics + payload.toString('utf8')).slice(-4096);
          return;
        }
        try {
          parser.push(payload);
        } catch (err) {
          this.logger?.warn({ err: messageOf(err) }, 'resident runner broke its protocol');
          this.close();
        }
      });
      this.stream.onClose(() => {
        clearTimeout(timer);
        resolve(false);
        this.died('its stream ended');
      });
    });
  }

  private onFrame(kind: string, payload: Buffer): void {
    const running = this.running;
    if ((kind === 'o' || kind === 'e') && running) return running.onOutput(kind === 'o' ? 'stdout' : 'stderr', payload);
    if (kind === 'x' && running) {
      const exit = parseExit(payload);
      if (exit) {
        this.running = undefined;
        return running.onExit(exit);
      }
    }
    const file = this.file;
    if (kind === 'd' && file && !running && file.bytes + payload.length <= file.max) {
      file.parts.push(payload);
      file.bytes += payload.length;
      return;
    }
    if (kind === 'F' && file && !running) {
      this.file = undefined;
      return file.onEnd(payload.toString('latin1'), Buffer.concat(file.parts));
    }
    if (kind === 'K' && !running && this.killWaiters.length > 0) {
      const waiters = this.killWaiters;
      this.killWaiters = [];
      for (const w of waiters) w(payload.toString('latin1') === '1');
      return;
    }
    this.logger?.warn({ kind }, 'resident runner sent an unexpected frame');
    this.close();
  }

  private died(why: string): void {
    if (this.dead) return;
    this.dead = true;
    const running = this.running;
    this.running = undefined;
    running?.onDeath(why);
    const file = this.file;
    this.file = undefined;
    file?.onDeath(why);
    for (const w of this.killWaiters.splice(0)) w(null);
  }

  /** Stop the resident: it kills every process of the sandbox user and ends. */
  close(): void {
    if (!this.dead) this.stream.end();
    this.stream.destroy();
    this.died('it was closed');
  }

  /**
   * Kill every process of the sandbox user and wait until all are gone (no command may be running):
   * true when they are, false when some outlived the wait, null when the resident is gone.
   */
  killAll(): Promise<boolean | null> {
    if (this.dead || this.running) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.killWaiters.push(resolve);
      this.stream.write(encodeFrame('k'));
    });
  }

  /**
   * One file operation of the editor, done by the resident itself once every process of the sandbox
   * user is gone (see resident-script.ts), on a path relative to `root`. A resident that dies or
   * does not answer in time throws SANDBOX_BROKEN.
   */
  fileOp(op: WorkspaceFileOp, root: string, signal?: AbortSignal): Promise<WorkspaceFileResult> {
    throwIfAborted(signal, 'a file operation');
    if (this.dead) throw new HammerError('INTERNAL', 'the resident runner is gone');
    if (this.running || this.file) throw new HammerError('INTERNAL', 'the resident runner is busy');
    const frame = encodeFileOp(op, root);
    return new Promise<WorkspaceFileResult>((resolve, reject) => {
      const broken = (why: string): HammerError =>
        new HammerError('SANDBOX_BROKEN', `the sandbox's resident runner ${why} during a file operation on ${op.path}`);
      // the settle before it may take its whole wait, then a read of at most a few MiB
      const timer = setTimeout(() => {
        this.close();
        reject(broken('did not answer'));
      }, KILL_ANSWER_MS);
      const onAbort = (): void => {
        clearTimeout(timer);
        this.close();
        reject(abortError(signal, 'a file operation'));
      };
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      this.file = {
        parts: [],
        bytes: 0,
        max: op.op === 'read' ? op.maxBytes : 0,
        onEnd: (status, content) => {
          done();
          if (status === 'bad')
            return reject(
              new HammerError('INTERNAL', `the resident runner refused a malformed file operation on ${op.path}`),
            );
          const answer = parseFileAnswer(op, status, content);
          if (answer === null) {
            this.close();
            return reject(broken('broke its protocol'));
          }
          if (answer.kind === 'unsettled') return reject(unsettledError(RESIDENT_SETTLE_SECONDS));
          resolve(answer);
        },
        onDeath: (why) => {
          done();
          if (signal?.aborted) return reject(abortError(signal, 'a file operation'));
          reject(broken(`died (${why})`));
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.stream.write(frame);
    });
  }

  /** Run one command; a failing, signalled or timed-out command is a result, a resident that died throws. */
  run(cmd: string[], options: ExecOptions): Promise<ExecResult> {
    const { signal } = options;
    throwIfAborted(signal, 'command');
    if (this.dead) throw new HammerError('INTERNAL', 'the resident runner is gone');
    if (this.running) throw new HammerError('INTERNAL', 'the resident runner is busy');
    const started = performance.now();
    const max = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    const out = { stdout: new OutputCapture(max), stderr: new OutputCapture(max) };
    let callbackError: Error | undefined;
    let timedOut = false;
    // set when the resident did not answer a kill and the host killed from outside (the resident too)
    let killedOutside: Promise<unknown> | undefined;
    const frame = encodeCommand(cmd, options.cwd ?? WORKDIR, options.env ?? {});

    return new Promise<ExecResult>((resolve, reject) => {
      let killTimer: NodeJS.Timeout | undefined;
      const timer = setTimeout(() => {
        timedOut = true;
        this.stream.write(encodeFrame('k'));
        killTimer = setTimeout(() => {
          // the resident did not answer: kill every process of the sandbox user from outside
          killedOutside = this.host.killAll();
          void killedOutside.catch(() => undefined).finally(() => this.close());
        }, KILL_ANSWER_MS);
      }, options.timeoutMs);
      const watchdog = this.host.watch(() => this.close());
      const cleanUp = (): void => {
        clearTimeout(timer);
        clearTimeout(killTimer);
        watchdog.stop();
        signal?.removeEventListener('abort', onAbort);
      };
      const result = (exitCode: number): ExecResult => ({
        exitCode,
        stdout: out.stdout.result(),
        stderr: out.stderr.result(),
        durationMs: performance.now() - started,
        timedOut,
      });
      const onAbort = (): void => {
        cleanUp();
        this.running = undefined;
        // the resident kills every process of the sandbox user when its stdin ends
        this.close();
        reject(abortError(signal, 'command'));
      };
      this.running = {
        onOutput: (name, chunk) => {
          out[name].push(chunk);
          if (options.onOutput && callbackError === undefined) {
            try {
              options.onOutput(name, chunk);
            } catch (err) {
              callbackError = err instanceof Error ? err : new Error(String(err));
            }
          }
        },
        onExit: (exit) => {
          cleanUp();
          void this.finish(cmd, exit, result(exit.exitCode), callbackError).then(resolve, reject);
        },
        onDeath: (why) => {
          cleanUp();
          if (killedOutside) {
            // the host killed everything itself after a timeout: the command timed out, nothing broke
            killedOutside.then(
              () => resolve(result(137)),
              (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))),
            );
            return;
          }
          if (signal?.aborted) return reject(abortError(signal, 'command'));
          reject(
            new HammerError('SANDBOX_BROKEN', `the sandbox's resident runner died while running ${cmd[0]}: ${why}`, {
              hint: 'something in the sandbox killed the runner process (a test that kills every process of its user?), or the container stopped',
            }),
          );
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.stream.write(frame);
    });
  }

  private async finish(
    cmd: string[],
    exit: ResidentExit,
    result: ExecResult,
    callbackError: Error | undefined,
  ): Promise<ExecResult> {
    if (exit.forkFailed) {
      // the resident read the limit full itself (a pod's, which only it can see), or the engine says so
      const full = exit.pidsFull ? { limit: this.host.pidsLimit?.() ?? null } : await this.host.pidsFull();
      if (full) throw pidsFullError(`could not start ${cmd[0]} in the sandbox`, full.limit);
      return { ...result, exitCode: 126 };
    }
    if (!exit.settled) throw unsettledError(RESIDENT_SETTLE_SECONDS);
    if (callbackError !== undefined) throw callbackError;
    return result;
  }
}
