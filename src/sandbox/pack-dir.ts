// Pack a host directory as a tar stream, fast and without trusting it: nothing is followed out of
// the directory (symlinks are stored as links, files are opened O_NOFOLLOW and checked with fstat),
// FIFOs, sockets and devices are counted and never opened, and small files are read ahead in parallel.
import { constants, type Stats } from 'node:fs';
import { lstat, open, readdir, readlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import * as tar from 'tar-stream';
import type { CopyInStats } from './types.js';
import type { SandboxUser } from './user.js';

type Item = { rel: string; kind: 'dir' | 'file' | 'symlink' | 'other' };

/** Files at most this big are read whole (and ahead); bigger ones are streamed. */
const WHOLE_FILE_BYTES = 1024 * 1024;
/** How many entries are loaded ahead of the one being written. */
const READ_AHEAD = 32;

async function walk(root: string, rel: string, out: Item[]): Promise<void> {
  const dirents = await readdir(rel === '' ? root : join(root, rel), { withFileTypes: true });
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const d of dirents) {
    const child = rel === '' ? d.name : `${rel}/${d.name}`;
    let kind: Item['kind'];
    if (d.isDirectory()) kind = 'dir';
    else if (d.isFile()) kind = 'file';
    else if (d.isSymbolicLink()) kind = 'symlink';
    else if (d.isFIFO() || d.isSocket() || d.isCharacterDevice() || d.isBlockDevice()) kind = 'other';
    else {
      const st = await lstat(join(root, child));
      kind = st.isDirectory() ? 'dir' : st.isFile() ? 'file' : st.isSymbolicLink() ? 'symlink' : 'other';
    }
    out.push({ rel: child, kind });
    if (kind === 'dir') await walk(root, child, out);
  }
}

type Loaded = { header: tar.Header | null; body?: Buffer; fd?: FileHandle };

/** Pack `dir` for the sandbox: entries owned by `owner`, permission bits only (no setuid/setgid/sticky). */
export function packHostDirectory(dir: string, owner: SandboxUser, stats: CopyInStats): tar.Pack {
  const pack = tar.pack();
  const header = (rel: string, st: Stats, type: 'file' | 'directory' | 'symlink', extra: Partial<tar.Header> = {}) => ({
    name: rel,
    type,
    mode: st.mode & 0o777,
    mtime: st.mtime,
    uid: owner.uid,
    gid: owner.gid,
    size: 0,
    ...extra,
  });

  const load = async (item: Item): Promise<Loaded> => {
    const abs = join(dir, item.rel);
    if (item.kind === 'other') {
      stats.skipped++;
      return { header: null };
    }
    if (item.kind === 'dir') return { header: header(item.rel, await lstat(abs), 'directory') as tar.Header };
    if (item.kind === 'symlink') {
      const [st, target] = await Promise.all([lstat(abs), readlink(abs)]);
      return { header: header(item.rel, st, 'symlink', { linkname: target }) as tar.Header };
    }
    // O_NOFOLLOW: a file swapped for a link after the walk is refused; O_NONBLOCK: a swapped-in FIFO does not hang.
    let fd: FileHandle;
    try {
      fd = await open(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (err) {
      const code = err instanceof Error && 'code' in err ? err.code : undefined;
      if (code === 'ENOENT') return { header: null }; // gone since the walk
      if (code === 'ELOOP' || code === 'ENXIO') {
        stats.skipped++;
        return { header: null };
      }
      throw err;
    }
    try {
      const st = await fd.stat();
      if (!st.isFile()) {
        stats.skipped++;
        await fd.close();
        return { header: null };
      }
      const h = header(item.rel, st, 'file', { size: st.size }) as tar.Header;
      if (st.size > WHOLE_FILE_BYTES) return { header: h, fd };
      const body = Buffer.alloc(st.size);
      let read = 0;
      while (read < st.size) {
        const { bytesRead } = await fd.read(body, read, st.size - read, read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      await fd.close();
      h.size = read;
      return { header: h, body: body.subarray(0, read) };
    } catch (err) {
      await fd.close().catch(() => undefined);
      throw err;
    }
  };

  const write = (loaded: Loaded): Promise<void> =>
    new Promise((resolve, reject) => {
      const h = loaded.header;
      if (!h) return resolve();
      const done = (err?: Error | null) => (err ? reject(err) : resolve());
      if (h.type !== 'file') return void pack.entry(h, done);
      stats.files++;
      stats.bytes += h.size;
      if (loaded.body) return void pack.entry(h, loaded.body, done);
      if (loaded.fd) {
        const entry = pack.entry(h, done);
        // Only files over WHOLE_FILE_BYTES come here, so the range is never empty; the stream closes the handle.
        const rs = loaded.fd.createReadStream({ start: 0, end: h.size - 1 });
        rs.on('error', (err) => entry.destroy(err));
        rs.pipe(entry);
        return;
      }
      resolve();
    });

  void (async () => {
    const items: Item[] = [];
    await walk(dir, '', items);
    const ahead: Array<Promise<Loaded>> = [];
    let next = 0;
    const fill = () => {
      while (ahead.length < READ_AHEAD && next < items.length) {
        const p = load(items[next++] as Item);
        p.catch(() => undefined); // handled when awaited in order
        ahead.push(p);
      }
    };
    fill();
    while (ahead.length > 0) {
      const loaded = await (ahead.shift() as Promise<Loaded>);
      fill();
      await write(loaded);
    }
    pack.finalize();
  })().catch((err: unknown) => pack.destroy(err instanceof Error ? err : new Error(String(err))));
  return pack;
}
