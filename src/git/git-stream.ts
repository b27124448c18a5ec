// A hardened git process whose stdout is read incrementally, with its exit checked at the end.
import { abortError } from '../errors.js';
import { ByteReader } from './byte-reader.js';
import { gitFailed, spawnGit, type GitOptions } from './git-exec.js';

/** A running git command: read its stdout with `reader`, then `finish()` (or `stop()`). */
export interface GitStream {
  reader: ByteReader;
  /** The child's stdin (for cat-file --batch requests). */
  stdin: NodeJS.WritableStream;
  /** Wait for exit; throws GIT_FAILED (or ABORTED) unless git exited 0. */
  finish(): Promise<void>;
  /** Kill the process and wait for it (for a reader that has read enough). */
  stop(): Promise<void>;
}

/** Start `git args` for streaming reads. */
export function streamGit(args: readonly string[], opts: GitOptions = {}): GitStream {
  const child = spawnGit(args, opts);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-16_384);
  });
  child.stdin.on('error', () => {
    // an early exit is reported through the exit code
  });
  let spawnError: unknown;
  const exited = new Promise<{ code: number | null }>((resolve) => {
    child.on('error', (err) => {
      spawnError ??= err;
    });
    child.on('close', (code) => resolve({ code }));
  });
  return {
    reader: new ByteReader(child.stdout),
    stdin: child.stdin,
    async finish() {
      const { code } = await exited;
      if (opts.signal?.aborted) throw abortError(opts.signal, `git ${args[0] ?? ''}`);
      if (spawnError !== undefined || code !== 0) {
        throw gitFailed(args, {
          exitCode: code ?? 1,
          stderr: stderr || (spawnError instanceof Error ? spawnError.message : ''),
        });
      }
    },
    async stop() {
      child.stdout.destroy();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
