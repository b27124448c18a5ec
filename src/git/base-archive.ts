// The repository as it goes into the sandbox: a tar stream of one commit's tree, built from the
// exact blob bytes (no .gitattributes, filters, eol conversion or export-subst are involved).
import { PassThrough, type Readable } from 'node:stream';
import { catFileBatch } from './cat-file.js';
import { encodeHeader, END_OF_ARCHIVE, padding, writeOut } from './tar-writer.js';
import { isSafePath } from './safe-path.js';
import { linkEscapesRoot } from './link-escape.js';
import { treeEntries, type TreeEntry } from './tree-entries.js';
import type { Workbench } from './workbench.js';

/** What went into the archive. */
export interface ArchiveStats {
  files: number;
  bytes: number;
  symlinks: number;
  directories: number;
  skippedSubmodules: number;
  /** Paths that cannot be extracted safely (`..`, `.git`, absolute, not UTF-8, a symlink out of the tree): left out. */
  skippedUnsafe: number;
}

/** Options for baseTarStream. */
export interface ArchiveOptions {
  uid: number;
  gid: number;
  /** Modification time of every entry (default: the commit's committer date). */
  mtime?: Date;
  /**
   * Also write the archived paths (files and symlinks, NUL-separated) to this path of the archive,
   * e.g. `.git/hammer/base-paths`, so the sandbox can commit exactly these paths later.
   */
  pathList?: string;
  /** Only these paths (files and symlinks) of the tree, when given (the env setup's dependency files). */
  only?: ReadonlySet<string>;
  signal?: AbortSignal;
}

/** A tar stream of `commit`, and its stats once the stream is complete. */
export interface BaseArchive {
  stream: Readable;
  /** Resolves after the last byte was produced; rejects (and the stream errors) on failure. */
  done: Promise<ArchiveStats>;
}

/**
 * Stream `commit` of the workbench as a tar: regular files 0644/0755, symlinks as symlink entries
 * (their target text only; the target never enters), submodules skipped and counted, directories
 * 0755, everything owned by uid:gid. Memory stays bounded: one blob (at most 1 MiB gathered whole,
 * larger ones streamed) is in flight at a time and the tar's consumer paces git.
 */
export function baseTarStream(workbench: Workbench, commit: string, opts: ArchiveOptions): BaseArchive {
  const out = new PassThrough({ highWaterMark: 4 * 1024 * 1024 });
  const done = writeArchive(out, workbench, commit, opts).catch((err: unknown) => {
    const error = err instanceof Error ? err : new Error(String(err));
    out.destroy(error);
    throw error;
  });
  done.catch(() => undefined); // the caller may only watch the stream
  return { stream: out, done };
}

/** Blobs up to this size are gathered and written as one record (header, body and padding). */
const WHOLE_RECORD_MAX = 1024 * 1024;

async function writeArchive(
  out: PassThrough,
  workbench: Workbench,
  commit: string,
  opts: ArchiveOptions,
): Promise<ArchiveStats> {
  const git = workbench.gitOptions(opts.signal ? { signal: opts.signal } : {});
  const mtime = opts.mtime ?? (await commitDate(workbench, commit, opts.signal));
  const stats: ArchiveStats = {
    files: 0,
    bytes: 0,
    symlinks: 0,
    directories: 0,
    skippedSubmodules: 0,
    skippedUnsafe: 0,
  };
  const entries: TreeEntry[] = [];
  const listed: TreeEntry[] = [];
  for await (const entry of treeEntries(commit, git)) {
    if (opts.only && !opts.only.has(entry.path)) continue;
    if (entry.kind === 'submodule') stats.skippedSubmodules++;
    else if (!entry.utf8 || !isSafePath(entry.path)) stats.skippedUnsafe++;
    else listed.push(entry);
  }
  // symlinks whose relative target climbs out of the tree are left out, like unsafe paths
  const escaping = await escapingLinks(listed, git);
  for (const entry of listed) {
    if (escaping.has(entry.path)) stats.skippedUnsafe++;
    else entries.push(entry);
  }

  const owner = { uid: opts.uid, gid: opts.gid, mtime };
  const made = new Set<string>();
  const parents = (path: string): Buffer[] => {
    const headers: Buffer[] = [];
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (made.has(dir)) continue;
      made.add(dir);
      stats.directories++;
      headers.push(encodeHeader({ ...owner, name: `${dir}/`, type: 'directory', mode: 0o755, size: 0 }));
    }
    return headers;
  };

  await catFileBatch(
    entries.map((e) => e.oid),
    git,
    async (index, header, body) => {
      const entry = entries[index];
      if (entry === undefined) return;
      const dirs = parents(entry.path);
      if (entry.kind === 'symlink' || header.size <= WHOLE_RECORD_MAX) {
        const chunks: Buffer[] = [];
        await body((chunk) => void chunks.push(chunk));
        const content = Buffer.concat(chunks);
        if (entry.kind === 'symlink') {
          stats.symlinks++;
          const h = encodeHeader({
            ...owner,
            name: entry.path,
            type: 'symlink',
            mode: 0o777,
            size: 0,
            linkname: content.toString('utf8'),
          });
          await writeOut(out, Buffer.concat([...dirs, h]));
          return;
        }
        const h = encodeHeader({
          ...owner,
          name: entry.path,
          type: 'file',
          mode: entry.kind === 'executable' ? 0o755 : 0o644,
          size: content.length,
        });
        await writeOut(out, Buffer.concat([...dirs, h, content, padding(content.length)]));
      } else {
        const h = encodeHeader({
          ...owner,
          name: entry.path,
          type: 'file',
          mode: entry.kind === 'executable' ? 0o755 : 0o644,
          size: header.size,
        });
        await writeOut(out, Buffer.concat([...dirs, h]));
        await body((chunk) => writeOut(out, chunk));
        await writeOut(out, padding(header.size));
      }
      stats.files++;
      stats.bytes += header.size;
    },
  );
  if (opts.pathList) {
    const list = Buffer.from(entries.map((e) => `${e.path}\0`).join(''), 'utf8');
    // the list's own directories (e.g. .git/ and .git/hammer/) are not part of the tree's stats
    const parts = opts.pathList.split('/');
    const dirs = parts.slice(0, -1).map((_, i) =>
      encodeHeader({
        ...owner,
        name: `${parts.slice(0, i + 1).join('/')}/`,
        type: 'directory',
        mode: 0o755,
        size: 0,
      }),
    );
    const h = encodeHeader({ ...owner, name: opts.pathList, type: 'file', mode: 0o644, size: list.length });
    await writeOut(out, Buffer.concat([...dirs, h, list, padding(list.length)]));
  }
  await writeOut(out, END_OF_ARCHIVE);
  out.end();
  return stats;
}

/** Paths of the symlinks among `entries` whose target leaves the repository (their blobs are read first). */
async function escapingLinks(
  entries: readonly TreeEntry[],
  git: ReturnType<Workbench['gitOptions']>,
): Promise<Set<string>> {
  const links = entries.filter((e) => e.kind === 'symlink');
  const out = new Set<string>();
  await catFileBatch(
    links.map((e) => e.oid),
    git,
    async (index, header, body) => {
      const link = links[index];
      if (!link) return;
      // a target longer than any path a kernel resolves is left out unread (it points nowhere)
      if (header.size > 4096) return void out.add(link.path);
      const chunks: Buffer[] = [];
      await body((chunk) => void chunks.push(chunk));
      if (linkEscapesRoot(link.path, Buffer.concat(chunks).toString('utf8'))) out.add(link.path);
    },
  );
  return out;
}

async function commitDate(workbench: Workbench, commit: string, signal?: AbortSignal): Promise<Date> {
  const raw = (await workbench.git(['cat-file', 'commit', commit], signal ? { signal } : {})).stdout.toString('utf8');
  const match = /^committer .* (\d+) [+-]\d{4}$/m.exec(raw);
  return match?.[1] ? new Date(Number(match[1]) * 1000) : new Date(0);
}
