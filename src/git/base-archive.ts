// The repository as it goes into the sandbox: a tar stream of one commit's tree, built from the
// exact blob bytes (no .gitattributes, filters, eol conversion or export-subst are involved).
import { PassThrough, type Readable } from 'node:stream';
import tar from 'tar-stream';
import { catFileBatch } from './cat-file.js';
import { isSafePath } from './safe-path.js';
import { treeEntries, type TreeEntry } from './tree-entries.js';
import type { Workbench } from './workbench.js';

/** What went into the archive. */
export interface ArchiveStats {
  files: number;
  bytes: number;
  symlinks: number;
  directories: number;
  skippedSubmodules: number;
  /** Paths that cannot be extracted safely (`..`, `.git`, absolute, not UTF-8): left out. */
  skippedUnsafe: number;
}

/** Options for baseTarStream. */
export interface ArchiveOptions {
  uid: number;
  gid: number;
  /** Modification time of every entry (default: the commit's committer date). */
  mtime?: Date;
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
 * 0755, everything owned by uid:gid. Memory stays bounded: one blob is in flight at a time and
 * the tar's consumer paces git.
 */
export function baseTarStream(workbench: Workbench, commit: string, opts: ArchiveOptions): BaseArchive {
  const pack = tar.pack();
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  pack.on('error', (err: Error) => out.destroy(err));
  pack.pipe(out);
  const done = writeArchive(pack, workbench, commit, opts).catch((err: unknown) => {
    const error = err instanceof Error ? err : new Error(String(err));
    pack.destroy(error);
    out.destroy(error);
    throw error;
  });
  done.catch(() => undefined); // the caller may only watch the stream
  return { stream: out, done };
}

async function writeArchive(pack: tar.Pack, workbench: Workbench, commit: string, opts: ArchiveOptions): Promise<ArchiveStats> {
  const git = workbench.gitOptions(opts.signal ? { signal: opts.signal } : {});
  const mtime = opts.mtime ?? (await commitDate(workbench, commit, opts.signal));
  const stats: ArchiveStats = { files: 0, bytes: 0, symlinks: 0, directories: 0, skippedSubmodules: 0, skippedUnsafe: 0 };
  const entries: TreeEntry[] = [];
  for await (const entry of treeEntries(commit, git)) {
    if (entry.kind === 'submodule') stats.skippedSubmodules++;
    else if (!entry.utf8 || !isSafePath(entry.path)) stats.skippedUnsafe++;
    else entries.push(entry);
  }

  const owner = { uid: opts.uid, gid: opts.gid, mtime };
  const made = new Set<string>();
  const ensureParents = async (path: string): Promise<void> => {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (made.has(dir)) continue;
      made.add(dir);
      stats.directories++;
      await addEntry(pack, { ...owner, name: `${dir}/`, type: 'directory', mode: 0o755 });
    }
  };

  await catFileBatch(
    entries.map((e) => e.oid),
    git,
    async (index, header, body) => {
      const entry = entries[index];
      if (entry === undefined) return;
      await ensureParents(entry.path);
      if (entry.kind === 'symlink') {
        const target: Buffer[] = [];
        await body((chunk) => void target.push(chunk));
        stats.symlinks++;
        await addEntry(pack, {
          ...owner,
          name: entry.path,
          type: 'symlink',
          mode: 0o777,
          linkname: Buffer.concat(target).toString('utf8'),
        });
        return;
      }
      let sink: Sink | undefined;
      const finished = new Promise<void>((resolve, reject) => {
        sink = pack.entry(
          { ...owner, name: entry.path, type: 'file', mode: entry.kind === 'executable' ? 0o755 : 0o644, size: header.size },
          (err) => (err ? reject(err) : resolve()),
        );
      });
      if (sink === undefined) throw new Error('tar entry was not created');
      const target = sink;
      await body((chunk) => write(target, chunk));
      target.end(null);
      await finished;
      stats.files++;
      stats.bytes += header.size;
    },
  );
  pack.finalize();
  return stats;
}

async function commitDate(workbench: Workbench, commit: string, signal?: AbortSignal): Promise<Date> {
  const raw = (await workbench.git(['cat-file', 'commit', commit], signal ? { signal } : {})).stdout.toString('utf8');
  const match = /^committer .* (\d+) [+-]\d{4}$/m.exec(raw);
  return match?.[1] ? new Date(Number(match[1]) * 1000) : new Date(0);
}

function addEntry(pack: tar.Pack, header: Partial<tar.Header> & { name: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    pack.entry(header, (err) => (err ? reject(err) : resolve()));
  });
}

type Sink = ReturnType<tar.Pack['entry']>;

async function write(sink: Sink, chunk: Buffer): Promise<void> {
  if (sink.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const cleanup = (): void => {
      sink.off('drain', onDrain);
      sink.off('error', onError);
      sink.off('close', onClose);
    };
    const onDrain = (): void => (cleanup(), resolve());
    const onError = (err: Error): void => (cleanup(), reject(err));
    const onClose = (): void => (cleanup(), reject(new Error('tar entry closed')));
    sink.on('drain', onDrain);
    sink.on('error', onError);
    sink.on('close', onClose);
  });
}
