// Crash-safe file replacement: a reader sees the old content or the new, never a mix.
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Suffix of the temporary files writeFileAtomic leaves behind if the process dies mid-write. */
export const TEMP_SUFFIX = '.tmp';

/**
 * Replace `path` with `content`: write a temp file in the same directory, fsync it, rename it over
 * the target, fsync the directory. With `durable: false` the fsyncs are skipped: a reader still
 * never sees a partial file, but a machine crash may lose the write (the run state, written durably
 * after its artifacts, is what must survive).
 */
export async function writeFileAtomic(path: string, content: string | Uint8Array, options: { durable?: boolean } = {}): Promise<void> {
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
