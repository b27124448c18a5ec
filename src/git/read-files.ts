// Reading the text of chosen files of a commit for the prompt: regular blobs only, capped.
import { HammerError } from '../errors.js';
import type { GitOptions } from './git-exec.js';
import type { ObjectReader } from './object-reader.js';
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

/** `paths` as a tree names them: leading slashes dropped, each once, empty ones left out. */
export function treePaths(paths: readonly string[]): string[] {
  return [...new Set(paths.map((p) => p.replace(/^\/+/, '')))].filter((p) => p.length > 0);
}

/**
 * Read `paths` at `commit` in the repository of `git` through `objects` (see Workbench.readFiles).
 * `listed`: the commit's complete listing by path, when known (no ls-tree is run then).
 */
export async function readFiles(
  git: GitOptions,
  objects: ObjectReader,
  commit: string,
  paths: readonly string[],
  maxBytesPerFile: number,
  listed?: ReadonlyMap<string, TreeEntry>,
): Promise<ReadFilesResult> {
  const wanted = treePaths(paths);
  const found = new Map<string, TreeEntry>();
  const lookup = wanted.filter(isSafePath); // anything else cannot be in a tree we hand on
  if (listed) {
    for (const path of lookup) {
      const entry = listed.get(path);
      if (entry) found.set(path, entry);
    }
  }
  for (let i = 0; !listed && i < lookup.length; i += CHUNK_PATHS) {
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
  for (const r of await readBlobs(objects, blobs, maxBytesPerFile, git.signal)) {
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

/** Read blobs of known tree entries by their ids, each capped at maxBytes; in order (a blob the repository lacks is GIT_FAILED). */
export async function readBlobs(
  objects: ObjectReader,
  blobs: readonly Pick<TreeEntry, 'path' | 'oid'>[],
  maxBytes: number,
  signal?: AbortSignal,
): Promise<(BlobText | null)[]> {
  const read = await objects.read(
    blobs.map((b) => b.oid),
    maxBytes,
    signal,
  );
  return blobs.map((entry, i): BlobText | null => {
    const r = read[i];
    // a tree that names a blob the repository lacks (a partial clone): never fetched, a failure
    if (!r) throw new HammerError('GIT_FAILED', `git cat-file could not read object ${entry.oid} (${entry.path})`);
    return r.data.includes(0)
      ? { path: entry.path, oid: entry.oid, binary: true }
      : {
          path: entry.path,
          oid: entry.oid,
          binary: false,
          content: r.data.toString('utf8'),
          bytes: r.size,
          truncated: r.size > r.data.length,
        };
  });
}
