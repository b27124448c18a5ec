// Reading a commit's tree as a flat list of entries (`git ls-tree -r -z -l --full-tree`).
import { HammerError } from '../errors.js';
import type { GitOptions } from './git-exec.js';
import { streamGit } from './git-stream.js';
import { assertObjectId } from './object-id.js';

/** What a tree entry is, from its git mode. */
export type EntryKind = 'file' | 'executable' | 'symlink' | 'submodule';

/** One path in a commit's tree. */
export interface TreeEntry {
  path: string;
  /** The git mode as written by git: 100644, 100755, 120000 or 160000. */
  mode: string;
  kind: EntryKind;
  oid: string;
  /** Blob size in bytes; 0 for submodules. */
  size: number;
  /** False when the path is not valid UTF-8 (`path` then holds replacement characters). */
  utf8: boolean;
}

const KINDS: Record<string, EntryKind> = {
  '100644': 'file',
  '100755': 'executable',
  '120000': 'symlink',
  '160000': 'submodule',
};

/** Yield every non-tree entry of `commit` in git's order; stop early by breaking out. */
export async function* treeEntries(
  commit: string,
  opts: GitOptions & { paths?: readonly string[] },
): AsyncGenerator<TreeEntry> {
  assertObjectId(commit);
  const args = ['ls-tree', '-r', '-z', '-l', '--full-tree', commit];
  if (opts.paths) args.push('--', ...opts.paths);
  const git = streamGit(args, opts);
  let complete = false;
  try {
    for (;;) {
      const record = await git.reader.readUntil(0);
      if (record === null) break;
      yield parseRecord(record);
    }
    complete = true;
  } finally {
    if (complete) await git.finish();
    else await git.stop();
  }
}

/** Parse one `<mode> <type> <oid> <size>\t<path>` record of ls-tree -l -z. */
export function parseRecord(record: Buffer): TreeEntry {
  const tab = record.indexOf(9);
  if (tab < 0) throw new HammerError('GIT_FAILED', 'unexpected ls-tree output');
  const meta = record.subarray(0, tab).toString('latin1').trim().split(/ +/);
  const raw = record.subarray(tab + 1);
  const [mode = '', , oid = '', sizeText = ''] = meta;
  const kind = KINDS[mode];
  if (kind === undefined) throw new HammerError('GIT_FAILED', `unexpected mode ${mode} in ls-tree output`);
  const path = raw.toString('utf8');
  return {
    path,
    mode,
    kind,
    oid,
    size: sizeText === '-' ? 0 : Number(sizeText),
    utf8: Buffer.from(path, 'utf8').equals(raw),
  };
}

/** What a git mode says an entry is (undefined for a tree or anything else). */
export function entryKind(mode: string): EntryKind | undefined {
  return KINDS[mode];
}

/**
 * The listing entry of a file, link or submodule known by mode and id only (read from a tree object
 * or an index, not from ls-tree): no size, taken as text until read. Undefined for anything else.
 */
export function entryOf(path: string, mode: string, oid: string): TreeEntry | undefined {
  const kind = entryKind(mode);
  return kind ? { path, mode, kind, oid, size: 0, utf8: true } : undefined;
}

/** The entries of a raw tree object (`<mode> <name>\0<hash>` each), by name. */
export function parseTree(data: Buffer, hashBytes: number): Map<string, { mode: string; oid: string }> {
  const entries = new Map<string, { mode: string; oid: string }>();
  let pos = 0;
  while (pos < data.length) {
    const space = data.indexOf(0x20, pos);
    const nul = space < 0 ? -1 : data.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + hashBytes > data.length)
      throw new HammerError('GIT_FAILED', 'a tree object git returned is malformed');
    entries.set(data.toString('utf8', space + 1, nul), {
      mode: data.toString('latin1', pos, space),
      oid: data.toString('hex', nul + 1, nul + 1 + hashBytes),
    });
    pos = nul + 1 + hashBytes;
  }
  return entries;
}
