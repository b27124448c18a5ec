// The repo copy as one tar stream: a host directory packed without following symlinks or opening
// special files (pack-dir.ts), or a host tar stream re-packed; every entry owned by the sandbox user,
// setuid, setgid and sticky bits stripped.
import { posix } from 'node:path';
import { Readable } from 'node:stream';
import * as tar from 'tar-stream';
import { packHostDirectory } from './pack-dir.js';
import type { CopyInStats } from './types.js';
import type { SandboxUser } from './user.js';

/** A tar stream and the counts it accumulates (final once the stream has ended). */
export interface PackedRepo {
  stream: Readable;
  stats: CopyInStats;
}

/** Pack a host directory: symlinks stay links, FIFOs/sockets/devices are skipped unopened and counted. */
export function packDirectory(dir: string, owner: SandboxUser): PackedRepo {
  const stats: CopyInStats = { files: 0, bytes: 0, skipped: 0 };
  return { stream: Readable.from(packHostDirectory(dir, owner, stats)), stats };
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
    const kept =
      header.type === 'file' || header.type === 'directory' || header.type === 'symlink' || header.type === 'link';
    if (!kept || name.startsWith('/') || name === '..' || name.startsWith('../')) {
      stats.skipped++;
      body.on('end', () => next());
      body.resume();
      return;
    }
    const out = {
      name,
      type: header.type,
      mode: (header.mode ?? 0o644) & 0o777,
      uid: owner.uid,
      gid: owner.gid,
      mtime: header.mtime,
      size: header.type === 'file' ? header.size : 0,
      linkname: header.linkname,
    };
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
