// Lines added and removed per file between two commits (`git diff --numstat`), for PR_SUMMARY.md.
import { runGit, type GitOptions } from './git-exec.js';
import { assertObjectId } from './object-id.js';

/** One file's change; null counts for a binary file. A rename names its source in `from`. */
export interface DiffstatEntry {
  path: string;
  from?: string;
  added: number | null;
  removed: number | null;
}

/** The numstat of `from`..`to` in the repository `git` points at (renames detected; no external diff or textconv). */
export async function diffstat(git: GitOptions, from: string, to: string): Promise<DiffstatEntry[]> {
  assertObjectId(from);
  assertObjectId(to);
  if (from === to) return [];
  const r = await runGit(
    ['diff', '--numstat', '-z', '-M', '--no-ext-diff', '--no-textconv', '--no-color', from, to, '--'],
    git,
  );
  return parseNumstat(r.stdout.toString('utf8'));
}

/** Parse `git diff --numstat -z`: "added\tremoved\tpath\0", or "added\tremoved\t\0from\0to\0" for a rename. */
export function parseNumstat(text: string): DiffstatEntry[] {
  const fields = text.split('\0');
  const out: DiffstatEntry[] = [];
  const count = (s: string | undefined): number | null => (s === undefined || s === '-' ? null : Number(s));
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field === '') continue;
    const [added, removed, path] = field.split('\t');
    if (path === undefined) continue;
    if (path !== '') {
      out.push({ path, added: count(added), removed: count(removed) });
      continue;
    }
    const from = fields[++i];
    const to = fields[++i];
    if (from === undefined || to === undefined) break;
    out.push({ path: to, from, added: count(added), removed: count(removed) });
  }
  return out;
}
