// Reading the text of chosen files of a commit for the prompt: regular blobs only, capped.
import type { GitOptions } from './git-exec.js';
import { catFileBatch } from './cat-file.js';
import { isSafePath } from './safe-path.js';
import { treeEntries, type TreeEntry } from './tree-entries.js';

/** A file's text (the first maxBytesPerFile bytes, decoded as UTF-8). */
export interface FileContent {
  path: string;
  content: string;
  /** The blob's full size. */
  bytes: number;
  truncated: boolean;
}

/** Why a requested path was not read. */
export type SkipReason = 'missing' | 'symlink' | 'submodule' | 'binary';

/** What readFiles found, in the order asked (duplicates removed). */
export interface ReadFilesResult {
  files: FileContent[];
  skipped: { path: string; reason: SkipReason }[];
}

const CHUNK_PATHS = 200;

/** Read `paths` at `commit` in the repository of `git` (see Workbench.readFiles). */
export async function readFiles(
  git: GitOptions,
  commit: string,
  paths: readonly string[],
  maxBytesPerFile: number,
): Promise<ReadFilesResult> {
  const wanted = [...new Set(paths.map((p) => p.replace(/^\/+/, '')))].filter((p) => p.length > 0);
  const found = new Map<string, TreeEntry>();
  const lookup = wanted.filter(isSafePath); // anything else cannot be in a tree we hand on
  for (let i = 0; i < lookup.length; i += CHUNK_PATHS) {
    const chunk = lookup.slice(i, i + CHUNK_PATHS);
    const exact = new Set(chunk);
    // Literal pathspecs (GIT_LITERAL_PATHSPECS=1): a directory name lists its contents, so keep exact matches.
    for await (const entry of treeEntries(commit, { ...git, paths: chunk })) {
      if (exact.has(entry.path)) found.set(entry.path, entry);
    }
  }

  const skipped: ReadFilesResult['skipped'] = [];
  const blobs: TreeEntry[] = [];
  for (const path of wanted) {
    const entry = found.get(path);
    if (entry === undefined) skipped.push({ path, reason: 'missing' });
    else if (entry.kind === 'symlink') skipped.push({ path, reason: 'symlink' });
    else if (entry.kind === 'submodule') skipped.push({ path, reason: 'submodule' });
    else blobs.push(entry);
  }

  const contents = new Map<string, FileContent>();
  for (const r of await readBlobs(git, blobs, maxBytesPerFile)) {
    if (r === null) continue;
    if (r.binary) skipped.push({ path: r.path, reason: 'binary' });
    else contents.set(r.path, { path: r.path, content: r.content, bytes: r.bytes, truncated: r.truncated });
  }
  const files = wanted.flatMap((p) => {
    const c = contents.get(p);
    return c ? [c] : [];
  });
  return { files, skipped };
}

/** A blob's text as readBlobs returns it, or that it is binary (holds a NUL byte in what was read). */
export type BlobText = (FileContent & { oid: string; binary: false }) | { path: string; oid: string; binary: true };

/** Read blobs of known tree entries by their ids (one cat-file process), each capped at maxBytes; in order. */
export async function readBlobs(
  git: GitOptions,
  blobs: readonly Pick<TreeEntry, 'path' | 'oid'>[],
  maxBytes: number,
): Promise<(BlobText | null)[]> {
  const out: (BlobText | null)[] = blobs.map(() => null);
  await catFileBatch(
    blobs.map((b) => b.oid),
    git,
    async (index, header, body) => {
      const entry = blobs[index];
      if (entry === undefined) return;
      const kept: Buffer[] = [];
      let keptBytes = 0;
      await body((chunk) => {
        if (keptBytes >= maxBytes) return;
        const part = chunk.subarray(0, maxBytes - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      });
      const data = Buffer.concat(kept);
      out[index] = data.includes(0)
        ? { path: entry.path, oid: entry.oid, binary: true }
        : {
            path: entry.path,
            oid: entry.oid,
            binary: false,
            content: data.toString('utf8'),
            bytes: header.size,
            truncated: header.size > keptBytes,
          };
    },
  );
  return out;
}
