// The repository as it goes into the sandbox: a tar stream of one commit's tree, built from the
// exact blob bytes (no .gitattributes, filters, eol conversion or export-subst are involved).
import { PassThrough, type Readable } from 'node:stream';
import { catFileParsed } from './cat-file.js';
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
  /** The tree's complete listing, when it was made already (else the archive lists the tree itself). */
  entries?: readonly TreeEntry[];
  /** Only these paths (files and symlinks) of the tree, when given (the env setup's dependency files). */
  only?: ReadonlySet<string>;
  /**
   * How much of the stream is made ahead of its consumer (default 4 MiB; up to twice this is held):
   * a stream started before its consumer is ready (the sandbox still starting) is made meanwhile.
   */
  aheadBytes?: number;
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
 * 0755, everything owned by uid:gid. Memory stays bounded: git's output is made into records one
 * chunk at a time (bodies pass through uncopied, a symlink's target is gathered whole) and the
 * tar's consumer paces git.
 */
export function baseTarStream(workbench: Workbench, commit: string, opts: ArchiveOptions): BaseArchive {
  const out = new PassThrough({ highWaterMark: opts.aheadBytes ?? 4 * 1024 * 1024 });
  // made ahead of its consumer, the stream can fail (an interrupt, git gone) before anyone reads
  // it: the failure is `done`'s, and the stream's own error event must not end the process then
  out.on('error', () => undefined);
  const done = writeArchive(out, workbench, commit, opts).catch((err: unknown) => {
    const error = err instanceof Error ? err : new Error(String(err));
    out.destroy(error);
    throw error;
  });
  done.catch(() => undefined); // the caller may only watch the stream
  return { stream: out, done };
}

async function writeArchive(
  out: PassThrough,
  workbench: Workbench,
  commit: string,
  opts: ArchiveOptions,
): Promise<ArchiveStats> {
  const git = workbench.gitOptions(opts.signal ? { signal: opts.signal } : {});
  const date = opts.mtime ? Promise.resolve(opts.mtime) : commitDate(workbench, commit, opts.signal);
  date.catch(() => undefined); // awaited below, after the listing
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
  for await (const entry of opts.entries ?? treeEntries(commit, git)) {
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

  const owner = { uid: opts.uid, gid: opts.gid, mtime: await date };
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

  // git's output is turned into tar records as it arrives, written out after each chunk of it
  let pending: Buffer[] = [];
  let current: { entry: TreeEntry; size: number } | undefined;
  await catFileParsed(
    entries.map((e) => e.oid),
    git,
    {
      object(index, header) {
        const entry = entries[index]!;
        current = { entry, size: header.size };
        pending.push(...parents(entry.path));
        if (entry.kind === 'symlink') return 'whole';
        pending.push(
          encodeHeader({
            ...owner,
            name: entry.path,
            type: 'file',
            mode: entry.kind === 'executable' ? 0o755 : 0o644,
            size: header.size,
          }),
        );
        return 'stream';
      },
      piece(chunk) {
        pending.push(chunk);
      },
      whole(body) {
        stats.symlinks++;
        pending.push(
          encodeHeader({
            ...owner,
            name: current!.entry.path,
            type: 'symlink',
            mode: 0o777,
            size: 0,
            linkname: body.toString('utf8'),
          }),
        );
      },
      done() {
        const { entry, size } = current!;
        if (entry.kind === 'symlink') return;
        pending.push(padding(size));
        stats.files++;
        stats.bytes += size;
      },
    },
    async () => {
      // small pieces (headers, small files) go out joined, large ones as they are (views of git's
      // output): few, large writes for the upload, no copy of a large body; the reader paces git
      const writes = coalesce(pending);
      pending = [];
      const last = writes.pop();
      for (const w of writes) out.write(w);
      if (last) await writeOut(out, last);
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
  let link: TreeEntry | undefined;
  await catFileParsed(
    links.map((e) => e.oid),
    git,
    {
      object(index, header) {
        link = links[index]!;
        // a target longer than any path a kernel resolves is left out unread (it points nowhere)
        if (header.size <= 4096) return 'whole';
        out.add(link.path);
        return 'stream';
      },
      piece: () => undefined,
      whole(body) {
        if (linkEscapesRoot(link!.path, body.toString('utf8'))) out.add(link!.path);
      },
      done: () => undefined,
    },
    () => undefined,
  );
  return out;
}

/** Pieces at least this large are written on their own; smaller neighbours are joined. */
const JOIN_BELOW = 4 * 1024;

/** The pieces as writes: runs of small pieces joined into one buffer, large pieces left as they are. */
function coalesce(pieces: readonly Buffer[]): Buffer[] {
  const writes: Buffer[] = [];
  let run: Buffer[] = [];
  const flush = (): void => {
    if (run.length > 0) writes.push(run.length === 1 ? run[0]! : Buffer.concat(run));
    run = [];
  };
  for (const p of pieces) {
    if (p.length >= JOIN_BELOW) {
      flush();
      writes.push(p);
    } else run.push(p);
  }
  flush();
  return writes;
}

async function commitDate(workbench: Workbench, commit: string, signal?: AbortSignal): Promise<Date> {
  const raw = (await workbench.git(['cat-file', 'commit', commit], signal ? { signal } : {})).stdout.toString('utf8');
  const match = /^committer .* (\d+) [+-]\d{4}$/m.exec(raw);
  return match?.[1] ? new Date(Number(match[1]) * 1000) : new Date(0);
}
