// The paths a commit tracks at or under one directory (read-only plumbing in the user's repository).
import type { GitOptions } from './git-exec.js';
import { treeEntries } from './tree-entries.js';

/** Up to `max` paths of `commit`'s tree at or under `dir` (the entry itself when it is a file or link). */
export async function trackedUnder(commit: string, dir: string, git: GitOptions, max = 100): Promise<string[]> {
  const out: string[] = [];
  for await (const e of treeEntries(commit, { ...git, paths: [dir] })) {
    if (e.path !== dir && !e.path.startsWith(`${dir}/`)) continue;
    out.push(e.path);
    if (out.length >= max) break;
  }
  return out;
}
