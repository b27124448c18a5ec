// Before a repository goes into the sandbox: refuse one that cannot fit, with a clear error, instead
// of filling the workspace or spending minutes on a tree the limits would cut short anyway.
import { HammerError } from '../errors.js';
import type { GitOptions } from './git-exec.js';
import { treeEntries, type TreeEntry } from './tree-entries.js';

/** How large a base tree may be. */
export interface TreeLimits {
  /** Most files (blobs and symlinks); from sandbox.max_repo_files. */
  maxFiles: number;
  /** The workspace's size cap in bytes (sandbox.workspace_size); 0: uncapped. */
  workspaceBytes: number;
}

/** What the base tree holds. */
export interface TreeSize {
  files: number;
  bytes: number;
  largest: { path: string; bytes: number } | null;
}

/** Count the files and bytes of `commit`'s tree (sizes from `git ls-tree -l`, nothing read). */
export async function measureTree(commit: string, git: GitOptions): Promise<TreeSize> {
  const size: TreeSize = { files: 0, bytes: 0, largest: null };
  for await (const e of treeEntries(commit, git)) count(size, e);
  return size;
}

/** The files and bytes of a tree's complete listing. */
export function sizeOfEntries(entries: Iterable<TreeEntry>): TreeSize {
  const size: TreeSize = { files: 0, bytes: 0, largest: null };
  for (const e of entries) count(size, e);
  return size;
}

function count(size: TreeSize, e: TreeEntry): void {
  if (e.kind === 'submodule') return;
  size.files++;
  size.bytes += e.size;
  if (size.largest === null || e.size > size.largest.bytes) size.largest = { path: e.path, bytes: e.size };
}

/**
 * Why a tree of this size cannot go into the sandbox, or null. The workspace holds the files and
 * the sandbox's own git copy of them (stored uncompressed), so the tree may fill half of it.
 */
export function treeRefusal(size: TreeSize, limits: TreeLimits): HammerError | null {
  if (size.files > limits.maxFiles) {
    return new HammerError(
      'REPO_INVALID',
      `the base commit has ${size.files} files, over the limit of ${limits.maxFiles} (sandbox.max_repo_files)`,
      {
        hint: 'raise sandbox.max_repo_files with --config if the sandbox should take a tree this large',
      },
    );
  }
  const room = Math.floor(limits.workspaceBytes / 2);
  if (limits.workspaceBytes > 0 && size.bytes > room) {
    const big = size.largest
      ? `; the largest file is ${JSON.stringify(size.largest.path)} (${mib(size.largest.bytes)})`
      : '';
    return new HammerError(
      'REPO_INVALID',
      `the base commit holds ${mib(size.bytes)} of files${big}; the sandbox's workspace (sandbox.workspace_size, ${mib(limits.workspaceBytes)}) must hold them twice (the files and the sandbox's git copy), so at most ${mib(room)}`,
      {
        hint: 'raise sandbox.workspace_size with --config (0 for an uncapped disk volume), or remove the large files from the base',
      },
    );
  }
  return null;
}

/** Measure `commit` and throw REPO_INVALID when it cannot fit (see treeRefusal). */
export async function preflightTree(commit: string, git: GitOptions, limits: TreeLimits): Promise<TreeSize> {
  const size = await measureTree(commit, git);
  const refusal = treeRefusal(size, limits);
  if (refusal) throw refusal;
  return size;
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MiB`;
}
