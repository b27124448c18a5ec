// Crash-safe file replacement: a reader sees the old content or the new, never a mix.
import { randomBytes } from 'node:crypto';
import { open, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Suffix of the temporary files writeFileAtomic leaves behind if the process dies mid-write. */
export const TEMP_SUFFIX = '.tmp';

/**
 * Replace `path` with `content`: write a temp file in the same directory, fsync it, rename it over
 * the target, fsync the directory. With `durable: false` the fsyncs are skipped: a reader still
 * never sees a partial file, but a machine crash may lose the write (the run state, written durably
 * after its artifacts, is what must survive).
 */
export async function writeFileAtomic(
  path: string,
  content: string | Uint8Array,
  options: { durable?: boolean } = {},
): Promise<void> {
  const durable = options.durable ?? true;
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`);
  const fh = await open(tmp, 'wx', 0o644);
  try {
    try {
      await fh.writeFile(content);
      if (durable) await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  if (durable) await fsyncDir(dir);
}

/** fsync a directory so a rename in it survives a crash (a no-op where the platform refuses). */
export async function fsyncDir(dir: string): Promise<void> {
  let fh;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw err;
  } finally {
    await fh?.close();
  }
}

// `.<name>.<pid>.<8 hex>.tmp`, as writeFileAtomic names its temp files
const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/**
 * Remove the temp files in `dir` that a writer killed mid-write left behind: those whose pid is
 * not a live process (a live writer's file is left alone). Returns how many were removed.
 */
export async function sweepTempFiles(dir: string, isAlive: (pid: number) => boolean = pidExists): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (!m || isAlive(Number(m[1]))) continue;
    await unlink(join(dir, name)).then(
      () => removed++,
      () => undefined,
    );
  }
  return removed;
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
