// What of a finished setup goes into the env image: only the dependency directories of the
// toolchain (the carried directories), re-packed entry by entry on their way from the setup
// container to the image. Paths are renamed under the directory's place in the image; anything
// that would leave it (.., absolute names, hard links elsewhere), device nodes and FIFOs are
// dropped; set-id bits are cleared and every entry is owned by the sandbox user. More bytes of
// files than the ceiling ([env] max_image_size) is SETUP_FAILED before they are written.
import { posix } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import tar from 'tar-stream';
import { HammerError } from '../errors.js';
import { cacheRedirects, rootRedirects } from './writable-caches.js';

/** A directory setup writes that the env image keeps. */
export interface CarriedDir {
  /** Where setup writes it (absolute, in the setup container). */
  from: string;
  /** Where it goes in the env image (absolute). */
  to: string;
  /** True for a path (relative to the directory) that shows setup installed something. */
  significant: (rel: string) => boolean;
}

/** What re-packing saw. */
export interface CarryStats {
  entries: number;
  dropped: number;
  /** Entries that show something was installed. */
  significant: number;
  bytes: number;
}

/**
 * Re-pack `source` (docker's archive of `dir.from`, whose entries start with its base name) as an
 * archive to extract at `/`, with `dir.to`'s parents as directories owned by root. Resolves stats
 * when the output is complete; fails (SETUP_FAILED) when the files would hold more than
 * `owner.maxBytes` bytes, before the entry that would pass it is written.
 */
export function carryArchive(
  source: Readable,
  dir: CarriedDir,
  owner: { uid: number; gid: number; maxBytes?: number },
): { stream: Readable; done: Promise<CarryStats> } {
  const maxBytes = owner.maxBytes ?? Number.POSITIVE_INFINITY;
  let declared = 0;
  const extract = tar.extract();
  const pack = tar.pack();
  const out = new PassThrough({ highWaterMark: 4 * 1024 * 1024 });
  const stats: CarryStats = { entries: 0, dropped: 0, significant: 0, bytes: 0 };
  const srcBase = posix.basename(dir.from);
  const dest = dir.to.replace(/^\/+/, '');
  const mtime = new Date(0);
  const redirects: { path: string; target: string }[] = [];
  const taken = new Set<string>();
  // the parents of the destination, root-owned like the rest of the image's tree
  const parts = dest.split('/');
  for (let i = 1; i < parts.length; i++)
    pack.entry({ name: `${parts.slice(0, i).join('/')}/`, type: 'directory', mode: 0o755, uid: 0, gid: 0, mtime });

  const rename = (name: string): string | null => {
    const clean = posix.normalize(name.replace(/^\.\//, '')).replace(/\/+$/, '');
    if (clean.startsWith('/') || clean === '..' || clean.startsWith('../')) return null;
    if (clean === srcBase) return '';
    if (!clean.startsWith(`${srcBase}/`)) return null;
    const rel = clean.slice(srcBase.length + 1);
    return rel.split('/').includes('..') ? null : rel;
  };

  extract.on('entry', (header, body, next) => {
    const rel = rename(header.name);
    const keep = (): boolean => {
      if (rel === null) return false;
      if (header.type === 'file' || header.type === 'directory' || header.type === 'symlink') return true;
      if (header.type === 'link') return typeof header.linkname === 'string' && rename(header.linkname) !== null;
      return false;
    };
    if (rel === null || !keep()) {
      stats.dropped++;
      body.on('end', () => next());
      body.resume();
      return;
    }
    if (header.type === 'file') {
      declared += header.size ?? 0;
      if (declared > maxBytes) {
        body.on('error', () => undefined);
        body.resume();
        extract.destroy(
          new HammerError(
            'SETUP_FAILED',
            `setup's dependency directories hold more than ${maxBytes} bytes of files ([env] max_image_size), so no env image is made`,
            { hint: 'raise [env] max_image_size in your config if the dependencies really are that large' },
          ),
        );
        return;
      }
    }
    stats.entries++;
    if (rel !== '' && header.type !== 'directory' && dir.significant(rel)) stats.significant++;
    if (header.type === 'directory' && rel !== '') redirects.push(...cacheRedirects(rel));
    if (rel !== '') taken.add(rel);
    const name = rel === '' ? `${dest}/` : `${dest}/${rel}${header.type === 'directory' ? '/' : ''}`;
    const linkname =
      header.type === 'link'
        ? `${dest}/${rename(header.linkname ?? '') ?? ''}`
        : header.type === 'symlink'
          ? movedLink(dir.from, rel, header.linkname ?? '')
          : undefined;
    const entry = pack.entry(
      {
        name,
        type: header.type,
        mode: (header.mode ?? 0o644) & 0o1777,
        uid: owner.uid,
        gid: owner.gid,
        mtime: header.mtime ?? mtime,
        size: header.type === 'file' ? header.size : 0,
        ...(linkname !== undefined ? { linkname } : {}),
      },
      (err) => (err ? extract.destroy(err) : next()),
    );
    if (header.type === 'file') {
      body.on('data', (chunk: unknown) => {
        if (Buffer.isBuffer(chunk)) stats.bytes += chunk.length;
      });
      body.pipe(entry);
    } else {
      body.resume();
      (entry as NodeJS.WritableStream).end();
    }
  });
  const done = new Promise<CarryStats>((resolve, reject) => {
    extract.on('finish', () => {
      // what tools write beside their packages goes to the sandbox's /tmp (see writable-caches.ts)
      for (const link of [...rootRedirects(dir.to), ...redirects].filter((r) => !taken.has(r.path))) {
        stats.entries++;
        pack.entry({
          name: `${dest}/${link.path}`,
          type: 'symlink',
          linkname: link.target,
          mode: 0o777,
          uid: owner.uid,
          gid: owner.gid,
          mtime,
        });
      }
      pack.finalize();
    });
    extract.on('error', reject);
    pack.on('error', reject);
    out.on('finish', () => resolve(stats));
    out.on('error', reject);
  });
  done.catch((err: unknown) => {
    out.destroy(err instanceof Error ? err : new Error(String(err)));
    // stop reading the engine's archive too: the rest of it is never wanted
    source.destroy();
  });
  // the reason reaches the caller through `done`; the output only stops (whoever reads it sees it cut)
  out.on('error', () => undefined);
  source.on('error', (err) => extract.destroy(err));
  pack.pipe(out);
  source.pipe(extract);
  return { stream: out, done };
}

/**
 * A symlink's target as the image keeps it: as written, unless it is relative and leads out of the
 * carried directory (a workspace member `node_modules/calc-lib -> ../library`): then the absolute
 * path it meant in the setup container, which is the same path in the sandbox (/workspace/library).
 */
export function movedLink(from: string, rel: string, linkname: string): string {
  if (linkname === '' || linkname.startsWith('/')) return linkname;
  const meant = posix.normalize(posix.join(posix.dirname(posix.join(from, rel)), linkname));
  return meant === from || meant.startsWith(`${from}/`) ? linkname : meant;
}
