// One long-lived `git cat-file --batch` for a repository's many small reads (the prompt's files,
// the syntax gate's before and after, every iteration): a git process started once instead of one
// per read, which on a loaded 2-core machine is most of what a read costs.
import { abortError, HammerError } from '../errors.js';
import { BatchParser } from './cat-file.js';
import { spawnGit, type GitOptions } from './git-exec.js';
import { assertObjectId } from './object-id.js';

/** An object as read: its full size, and its first bytes (at most what was asked for). */
export interface ObjectRead {
  type: string;
  size: number;
  data: Buffer;
}

interface Pending {
  maxBytes: number;
  kept: Buffer[];
  keptBytes: number;
  resolve: (r: ObjectRead | null) => void;
  reject: (err: unknown) => void;
}

/** Reads objects by id through one cat-file process, started on first use and again after it ended. */
export class ObjectReader {
  private process:
    { parser: BatchParser; write: (text: string) => void; kill: () => void; hold: (busy: boolean) => void } | undefined;
  /** Requests in the order written; git answers in that order. */
  private readonly queue: Pending[] = [];
  private closed = false;

  /** `git`: the repository's options (no signal: the process outlives any one read). */
  constructor(private readonly git: Omit<GitOptions, 'signal'>) {}

  /**
   * Read `oids` (null for an object the repository does not have), each capped at maxBytes, in
   * order. An abort rejects this read at once; git's answers to it are read and dropped.
   */
  async read(oids: readonly string[], maxBytes: number, signal?: AbortSignal): Promise<(ObjectRead | null)[]> {
    for (const oid of oids) assertObjectId(oid);
    if (oids.length === 0) return [];
    if (signal?.aborted) throw abortError(signal, 'git cat-file');
    if (this.closed) throw new HammerError('INTERNAL', 'object reader already closed');
    const proc = this.start();
    const reads = oids.map(
      () =>
        new Promise<ObjectRead | null>((resolve, reject) =>
          this.queue.push({ maxBytes, kept: [], keptBytes: 0, resolve, reject }),
        ),
    );
    for (const r of reads) r.catch(() => undefined); // the caller sees the first failure through `all`
    proc.hold(true);
    proc.write(oids.join('\n') + '\n');
    if (!signal) return Promise.all(reads);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => reject(abortError(signal, 'git cat-file'));
      signal.addEventListener('abort', onAbort, { once: true });
      Promise.all(reads).then(
        (r) => (signal.removeEventListener('abort', onAbort), resolve(r)),
        (err: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }

  /** Stop the process (reads still waiting fail). Idempotent. */
  close(): void {
    this.closed = true;
    this.process?.kill();
    this.fail(new HammerError('INTERNAL', 'object reader closed'));
  }

  private start(): NonNullable<ObjectReader['process']> {
    if (this.process) return this.process;
    const child = spawnGit(['cat-file', '--batch'], this.git);
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => void (stderr = (stderr + c).slice(-4096)));
    child.stdin.on('error', () => undefined); // an early exit is reported by 'close'
    const head = (): Pending => {
      const p = this.queue[0];
      if (!p) throw new HammerError('GIT_FAILED', 'git cat-file answered a request nobody made');
      return p;
    };
    const parser = new BatchParser(Number.POSITIVE_INFINITY, {
      object: () => 'stream',
      piece: (chunk) => {
        const p = head();
        if (p.keptBytes >= p.maxBytes) return;
        const part = Buffer.from(chunk.subarray(0, p.maxBytes - p.keptBytes)); // a copy: git's chunk is let go
        p.kept.push(part);
        p.keptBytes += part.length;
      },
      whole: () => undefined,
      done: (header) => {
        const p = this.queue.shift()!;
        p.resolve({ type: header.type, size: header.size, data: Buffer.concat(p.kept) });
        if (this.queue.length === 0) proc.hold(false);
      },
      missing: () => {
        this.queue.shift()?.resolve(null);
        if (this.queue.length === 0) proc.hold(false);
      },
    });
    const handles = [child, child.stdin, child.stdout, child.stderr] as { ref(): void; unref(): void }[];
    const proc = {
      parser,
      write: (text: string) => void child.stdin.write(text),
      kill: () => void child.kill('SIGKILL'),
      // an idle reader does not keep the process alive; one that owes answers does
      hold: (busy: boolean) => {
        for (const h of handles) {
          if (busy) h.ref();
          else h.unref();
        }
      },
    };
    proc.hold(false);
    child.stdout.on('data', (chunk: Buffer) => {
      try {
        parser.push(chunk);
      } catch (err) {
        this.ended(proc, err);
        child.kill('SIGKILL');
      }
    });
    child.on('error', (err) => this.ended(proc, err));
    child.on('close', (code) =>
      this.ended(
        proc,
        new HammerError(
          'GIT_FAILED',
          `git cat-file ended (exit ${code ?? 'signal'})${stderr ? `: ${stderr.trim()}` : ''}`,
        ),
      ),
    );
    this.process = proc;
    return proc;
  }

  /** The process is gone: what it still owed fails, and the next read starts another. */
  private ended(proc: NonNullable<ObjectReader['process']>, err: unknown): void {
    if (this.process !== proc) return;
    this.process = undefined;
    this.fail(err);
  }

  private fail(err: unknown): void {
    for (const p of this.queue.splice(0)) p.reject(err);
  }
}
