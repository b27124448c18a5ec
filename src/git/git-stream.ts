// A hardened git process whose stdout is read incrementally, with its exit checked at the end. It
// is started through the git launcher when there is one (node's thread does not fork), else by
// node; either way a reader that falls behind pauses git (the pipe fills), so memory stays bounded.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { Readable } from 'node:stream';
import { abortError, HammerError } from '../errors.js';
import { ByteReader } from './byte-reader.js';
import { gitFailed, launchFailure, launchGit, spawnGit, type GitOptions } from './git-exec.js';
import { gitLauncher, SIGKILL, SIGTERM, type Launched } from './launcher.js';

/** A running git command: read its stdout with `reader`, then `finish()` (or `stop()`). */
export interface GitStream {
  reader: ByteReader;
  /** Wait for exit; throws GIT_FAILED (or ABORTED) unless git exited 0. */
  finish(): Promise<void>;
  /** Kill the process and wait for it (for a reader that has read enough). */
  stop(): Promise<void>;
}

/** How much of git's output waits for the reader before git is paused. */
const READ_AHEAD = 256 * 1024;
const STDERR_KEEP = 16_384;
/** The least granted when nothing is on the way (one read of the launcher's). */
const MIN_GRANT = 64 * 1024;

/**
 * Start `git args` for streaming reads; `opts.input` is written to its stdin, which is then closed.
 * `bulk`: many megabytes are read (the base archive): node's own pipe carries them at less cost
 * than the launcher's relay, which pays off for short commands.
 */
export function streamGit(args: readonly string[], opts: GitOptions = {}, bulk = false): GitStream {
  let stderr = '';
  let failure: unknown;
  let ended = false;
  let settle!: (code: number | null) => void;
  const exited = new Promise<number | null>((resolve) => (settle = resolve));
  // the one source of output: the launcher's command or node's child, whichever runs it
  let command: Launched | undefined;
  let child: ChildProcessWithoutNullStreams | undefined;
  // node's child is paused when the reader is full; the launcher's command sends only what was granted
  let paused = false;
  let granted = READ_AHEAD;
  // run after each time the reader asks for more (once its read took what it reads): room up to
  // READ_AHEAD is granted; with nothing granted on the way, a chunk at least, so a push comes and
  // with it the reader's next ask
  const topUp = (): void => {
    if (!command || ended) return;
    const room = Math.max(READ_AHEAD - out.readableLength - granted, granted === 0 ? MIN_GRANT : 0);
    if (room <= 0) return;
    granted += room;
    command.grant(room);
  };
  const out = new Readable({
    highWaterMark: READ_AHEAD,
    read() {
      queueMicrotask(topUp);
      if (!paused) return;
      paused = false;
      child?.stdout.resume();
    },
  });
  const push = (chunk: Buffer): void => {
    if (command) granted -= chunk.length;
    if (ended || out.destroyed || out.push(chunk)) return;
    paused = true;
    child?.stdout.pause();
  };
  const end = (code: number | null): void => {
    if (ended) return;
    ended = true;
    if (!out.destroyed) out.push(null);
    settle(code);
  };
  const addStderr = (chunk: Buffer | string): void => {
    stderr = (stderr + chunk.toString()).slice(-STDERR_KEEP);
  };

  const spawnIt = (): void => {
    const c = spawnGit(args, opts);
    child = c;
    c.stdout.on('data', push);
    c.stderr.on('data', addStderr);
    c.stdin.on('error', () => {
      // an early exit is reported through the exit code
    });
    c.on('error', (err) => {
      failure ??= err;
    });
    c.on('close', (code) => end(code));
    c.stdin.end(opts.input ?? '');
  };

  const launcher = bulk ? null : gitLauncher();
  if (!launcher) spawnIt();
  else {
    command = launchGit(
      launcher,
      args,
      opts,
      {
        stdout: push,
        stderr: addStderr,
        exit: (code) => end(code),
        failed: (why) => {
          if (why.errno === null && !why.started) {
            // the helper went away before it started this one: node runs it
            command = undefined;
            spawnIt();
            return;
          }
          failure ??= launchFailure(`git ${args[0] ?? ''}`, why);
          end(null);
        },
      },
      READ_AHEAD,
    );
    const { signal } = opts;
    if (signal?.aborted) command.kill(SIGTERM);
    else if (signal) {
      const onAbort = (): void => command?.kill(SIGTERM);
      signal.addEventListener('abort', onAbort, { once: true });
      void exited.then(() => signal.removeEventListener('abort', onAbort));
    }
  }

  const kill = (): void => {
    if (ended) return;
    command?.kill(SIGKILL);
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  return {
    reader: new ByteReader(out),
    async finish() {
      const code = await exited;
      if (opts.signal?.aborted) throw abortError(opts.signal, `git ${args[0] ?? ''}`);
      if (failure !== undefined || code !== 0) {
        if (failure instanceof HammerError) throw failure;
        throw gitFailed(args, {
          exitCode: code ?? 1,
          stderr: stderr || (failure instanceof Error ? failure.message : ''),
        });
      }
    },
    async stop() {
      // nothing more is read: what git still writes is dropped until the kill lands
      out.destroy();
      child?.stdout.destroy();
      command?.grant(READ_AHEAD); // whatever git has written on the way is read and dropped
      kill();
      await exited;
    },
  };
}
