// The batch directory (--out): report.json and report.md, `tasks/<id>/attempt-<k>/` per attempt
// (attempt.json and the attempt's repository), `sources/` (repositories fetched from URLs), and
// batch.lock while a batch process works in it.
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { HammerError } from '../errors.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { makeRealDirs, refuseLinkedLevels, refuseOddEntries, type PathUse } from '../state/no-follow.js';
import type { StateKey } from '../state/state-key.js';
import { openSealedState, sealState } from '../state/state-mac.js';
import { AttemptRecordSchema, type AttemptRecord } from './attempt-record.js';
import { attemptDir } from './report.js';

/** The files of a batch directory. */
export const BATCH_FILES = {
  report: 'report.json',
  markdown: 'report.md',
  lock: 'batch.lock',
  tasks: 'tasks',
  sources: 'sources',
  record: 'attempt.json',
  repo: 'repo',
} as const;

const USE: PathUse = {
  what: '--out',
  hint: 'name a new or empty directory, or a batch directory hammer-box wrote (never one a repository carries)',
};

/** The largest attempt record read. */
const MAX_RECORD_BYTES = 1024 * 1024;
const LockSchema = z.object({ pid: z.number().int().positive(), host: z.string() });

/** An attempt record that could not be used, and why (its attempt runs again). */
export interface UnreadableRecord {
  taskId: string;
  attempt: number;
  why: string;
}

/** A batch directory this process holds the lock of. */
export class BatchDir {
  private constructor(
    readonly root: string,
    readonly key: StateKey,
  ) {}

  /**
   * Open (making it) the batch directory `root` and take its lock. A directory holding another
   * batch's files is refused unless `resume`; one a live batch process holds is always refused. No
   * level below `roots` (where a repository may have shaped the path; default the current
   * directory) may be a link, and a batch directory resumed may hold only regular files and
   * directories: nothing is ever written through a link.
   */
  static async open(root: string, key: StateKey, resume: boolean, roots?: readonly string[]): Promise<BatchDir> {
    await refuseLinkedLevels(root, roots ?? [process.cwd()], USE);
    const st = await lstat(root).catch(() => null);
    if (st !== null && !st.isDirectory())
      throw new HammerError('USAGE', `--out ${root} is not a directory`, { hint: 'name a new or a batch directory' });
    await mkdir(root, { recursive: true });
    const names = (await readdir(root)).filter((n) => n !== BATCH_FILES.lock);
    if (names.length > 0) await refuseOddEntries(root, USE);
    const isBatch = names.includes(BATCH_FILES.tasks) || names.includes(BATCH_FILES.report);
    if (!resume && names.length > 0)
      throw new HammerError(
        'USAGE',
        isBatch ? `${root} holds a batch already` : `${root} is not empty and holds no batch`,
        {
          hint: isBatch
            ? 'continue it with --resume (and --retry infra to rerun infrastructure failures), or choose another --out'
            : 'choose a new or empty --out directory',
        },
      );
    if (resume && names.length > 0 && !isBatch)
      throw new HammerError('USAGE', `${root} holds no batch to resume`, { hint: 'check --out' });
    const dir = new BatchDir(root, key);
    await dir.#lock();
    return dir;
  }

  /** The attempt's directory. */
  attemptPath(taskId: string, attempt: number): string {
    return join(this.root, attemptDir(taskId, attempt));
  }

  /** The attempt's repository. */
  repoPath(taskId: string, attempt: number): string {
    return join(this.attemptPath(taskId, attempt), BATCH_FILES.repo);
  }

  get sourcesDir(): string {
    return join(this.root, BATCH_FILES.sources);
  }

  get reportPath(): string {
    return join(this.root, BATCH_FILES.report);
  }

  get markdownPath(): string {
    return join(this.root, BATCH_FILES.markdown);
  }

  /** Make the attempt's directory (it must not exist: attempt numbers are never reused). */
  async makeAttempt(taskId: string, attempt: number): Promise<string> {
    await makeRealDirs(this.root, [BATCH_FILES.tasks, taskId], USE);
    const path = this.attemptPath(taskId, attempt);
    await mkdir(path);
    return path;
  }

  /** The attempt numbers the task's directory holds, and the records among them that can be used. */
  async readTask(
    taskId: string,
  ): Promise<{ taken: number[]; records: AttemptRecord[]; unreadable: UnreadableRecord[] }> {
    const names = await readdir(join(this.root, BATCH_FILES.tasks, taskId)).catch(() => [] as string[]);
    const taken = names.flatMap((n) => (/^attempt-([1-9]\d{0,8})$/.exec(n) ? [Number(n.slice(8))] : []));
    const records: AttemptRecord[] = [];
    const unreadable: UnreadableRecord[] = [];
    for (const attempt of taken.sort((a, b) => a - b)) {
      const got = await this.#readRecord(taskId, attempt);
      if ('record' in got) records.push(got.record);
      else if (got.why !== null) unreadable.push({ taskId, attempt, why: got.why });
    }
    return { taken, records, unreadable };
  }

  async #readRecord(taskId: string, attempt: number): Promise<{ record: AttemptRecord } | { why: string | null }> {
    const path = join(this.attemptPath(taskId, attempt), BATCH_FILES.record);
    let text: string;
    try {
      const fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      try {
        const st = await fh.stat();
        if (!st.isFile() || st.size > MAX_RECORD_BYTES) return { why: 'not an attempt record' };
        text = (await fh.readFile()).toString('utf8');
      } finally {
        await fh.close();
      }
    } catch (err) {
      // an attempt directory made just before its process died holds no record yet
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { why: null };
      return { why: `cannot read it: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
    }
    const opened = openSealedState(text, this.key.bytes);
    if (!opened.ok)
      return {
        why:
          opened.reason === 'unsealed'
            ? 'it carries no seal'
            : `its seal does not match your state key (${this.key.source})`,
      };
    let json: unknown;
    try {
      json = JSON.parse(opened.body);
    } catch {
      return { why: 'not JSON' };
    }
    const parsed = AttemptRecordSchema.safeParse(json);
    if (!parsed.success) return { why: `not an attempt record: ${parsed.error.issues[0]?.message ?? ''}` };
    if (parsed.data.task_id !== taskId || parsed.data.attempt !== attempt) return { why: 'it names another attempt' };
    return { record: parsed.data };
  }

  /** Write an attempt's record (sealed, atomically). */
  async writeRecord(record: AttemptRecord): Promise<void> {
    const body = sealState(`${JSON.stringify(AttemptRecordSchema.parse(record), null, 2)}\n`, this.key.bytes);
    await writeFileAtomic(join(this.attemptPath(record.task_id, record.attempt), BATCH_FILES.record), body);
  }

  /** Replace report.json and report.md (each atomically). */
  async writeReport(json: string, markdown: string): Promise<void> {
    await writeFileAtomic(this.reportPath, json, { durable: false });
    await writeFileAtomic(this.markdownPath, markdown, { durable: false });
  }

  /** The previous report's text, when there is one. */
  async previousReport(): Promise<string | null> {
    return readFile(this.reportPath, 'utf8').catch(() => null);
  }

  /** Give the lock back. */
  async unlock(): Promise<void> {
    await unlink(join(this.root, BATCH_FILES.lock)).catch(() => undefined);
  }

  async #lock(): Promise<void> {
    const path = join(this.root, BATCH_FILES.lock);
    const me = JSON.stringify({ pid: process.pid, host: hostname() });
    for (let tries = 0; tries < 2; tries++) {
      try {
        const fh = await open(path, 'wx', 0o644);
        try {
          await fh.writeFile(`${me}\n`);
        } finally {
          await fh.close();
        }
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = LockSchema.safeParse(safeJson(await readFile(path, 'utf8').catch(() => '')));
      if (holder.success && holder.data.host === hostname() && isAlive(holder.data.pid))
        throw new HammerError('USAGE', `another batch process (pid ${holder.data.pid}) is working in ${this.root}`, {
          hint: 'wait for it to end, or stop it; a directory is worked on by one batch at a time',
        });
      if (holder.success && holder.data.host !== hostname())
        throw new HammerError('USAGE', `a batch process on ${holder.data.host} holds ${path}`, {
          hint: `when it is gone, remove ${path}`,
        });
      // the process that held it is gone
      await unlink(path).catch(() => undefined);
    }
    throw new HammerError('USAGE', `cannot take the lock ${path}`, { hint: 'is another batch starting there?' });
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
