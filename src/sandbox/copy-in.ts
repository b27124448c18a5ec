// The repo copy as one tar stream: a host directory packed without following symlinks or opening
// special files, or a host tar stream re-packed; every entry owned by the sandbox user, setuid,
// setgid and sticky bits stripped.
import * as fs from 'node:fs';
import { posix } from 'node:path';
import { Readable } from 'node:stream';
import * as tarFs from 'tar-fs';
import * as tar from 'tar-stream';
import type { CopyInStats } from './types.js';
import type { SandboxUser } from './user.js';

/** A tar stream and the counts it accumulates (final once the stream has ended). */
export interface PackedRepo {
  stream: Readable;
  stats: CopyInStats;
}

const isSpecial = (st: fs.Stats): boolean => st.isFIFO() || st.isSocket() || st.isCharacterDevice() || st.isBlockDevice();

/** Pack a host directory: symlinks stay links, FIFOs/sockets/devices are skipped unopened and counted. */
export function packDirectory(dir: string, owner: SandboxUser): PackedRepo {
  const stats: CopyInStats = { files: 0, bytes: 0, skipped: 0 };
  // tar-fs stats with lstat (dereference off); we watch those stats to count what it leaves out.
  const watchingFs = {
    ...fs,
    lstat: (p: fs.PathLike, cb: (err: NodeJS.ErrnoException | null, st: fs.Stats) => void) =>
      fs.lstat(p, (err, st) => {
        if (!err && isSpecial(st)) stats.skipped++;
        cb(err, st);
      }),
  };
  // `fs` is a tar-fs option its type definitions leave out; a variable (not a literal) may carry it.
  const options: tarFs.PackOptions & { fs: typeof watchingFs } = {
    fs: watchingFs,
    dereference: false,
    // Non-strict: entries that are not files, dirs or links are skipped without being opened.
    strict: false,
    map: (header) => ({ ...header, uid: owner.uid, gid: owner.gid, mode: (header.mode ?? 0o644) & 0o777 }),
    mapStream: (file, header) => {
      stats.files++;
      stats.bytes += header.size ?? 0;
      return file;
    },
  };
  return { stream: Readable.from(tarFs.pack(dir, options)), stats };
}

/** Re-pack a tar stream from the host: normalized names, our owner and modes, links kept, special files dropped. */
export function repackTar(source: Readable, owner: SandboxUser): PackedRepo {
  const stats: CopyInStats = { files: 0, bytes: 0, skipped: 0 };
  const extract = tar.extract();
  const pack = tar.pack();
  source.on('error', (err) => extract.destroy(err));
  extract.on('error', (err) => pack.destroy(err));
  extract.on('entry', (header, body, next) => {
    const name = posix.normalize(header.name);
    const kept = header.type === 'file' || header.type === 'directory' || header.type === 'symlink' || header.type === 'link';
    if (!kept || name.startsWith('/') || name === '..' || name.startsWith('../')) {
      stats.skipped++;
      body.on('end', () => next());
      body.resume();
      return;
    }
    const out = { name, type: header.type, mode: (header.mode ?? 0o644) & 0o777, uid: owner.uid, gid: owner.gid, mtime: header.mtime, size: header.type === 'file' ? header.size : 0, linkname: header.linkname };
    if (header.type === 'file') {
      stats.files++;
      stats.bytes += header.size ?? 0;
    }
    const entry = pack.entry(out, (err) => next(err));
    body.pipe(entry);
  });
  extract.on('finish', () => pack.finalize());
  source.pipe(extract);
  return { stream: Readable.from(pack), stats };
}
