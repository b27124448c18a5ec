// What of the user's checkout a run leaves out: it starts from the committed tip, so files changed
// (staged or not) and untracked files are not in it. Only said, never read: the working tree is
// looked at by name and stat (as git compares it with its index), no file's content is read, no
// filter or hook can run, and a link is never followed.
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runGitResult } from './git-exec.js';
import { indexStatEntries, type IndexStatEntry } from './index-file.js';
import { userExcludesFile } from './user-identity.js';
import type { UserRepo } from './user-repo.js';

/** Files of the checkout that differ from the committed tip, and untracked ones (names or directories). */
export interface UncommittedWork {
  changed: number;
  untracked: number;
  /** The counts are at least these (a listing was cut, or the index is one this does not read). */
  atLeast: boolean;
}

/** Untracked names listed at most (a directory counts once). */
const UNTRACKED_BYTES = 1024 * 1024;
/** Files stat'ed at once. */
const PARALLEL = 64;

/** What the checkout holds beyond its committed tip (null for a bare repository or one whose HEAD has no commit). */
export async function uncommittedWork(
  repo: Pick<UserRepo, 'root' | 'gitDir' | 'objectFormat'>,
  signal?: AbortSignal,
  hostEnv: Readonly<Record<string, string | undefined>> = process.env,
): Promise<UncommittedWork | null> {
  if (repo.root === repo.gitDir) return null;
  const sig = signal ? { signal } : {};
  const git = { gitDir: repo.gitDir, cwd: repo.root, ...sig };
  const head = await runGitResult(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], git);
  if (head.exitCode !== 0) return null;
  // the files you ignore everywhere are ignored here too, as in your `git status`
  const excludes = await userExcludesFile(hostEnv, signal);
  const [staged, worktree, untracked] = await Promise.all([
    runGitResult(
      ['diff-index', '--cached', '--no-renames', '--name-only', '-z', head.stdout.toString().trim(), '--'],
      git,
    ),
    changedInWorktree(repo),
    runGitResult(
      [
        `--work-tree=${repo.root}`,
        'ls-files',
        '-z',
        '--others',
        '--exclude-standard',
        '--directory',
        '--no-empty-directory',
        ...(excludes === null ? [] : [`--exclude-from=${excludes}`]),
      ],
      { ...git, maxBuffer: UNTRACKED_BYTES },
    ).catch(() => null),
  ]);
  const names = (r: { stdout: Buffer } | null): string[] =>
    r === null
      ? []
      : r.stdout
          .toString('utf8')
          .split('\0')
          .filter((n) => n !== '');
  const changed = new Set([...(staged.exitCode === 0 ? names(staged) : []), ...(worktree ?? [])]);
  return {
    changed: changed.size,
    untracked: untracked?.exitCode === 0 ? names(untracked).length : 0,
    atLeast: worktree === null || staged.exitCode !== 0 || untracked === null || untracked.exitCode !== 0,
  };
}

/** Paths whose working-tree file is not as the index recorded it (null: the index is not one this reads). */
async function changedInWorktree(repo: Pick<UserRepo, 'root' | 'gitDir' | 'objectFormat'>): Promise<string[] | null> {
  const data = await readFile(join(repo.gitDir, 'index')).catch(() => null);
  if (data === null) return [];
  const entries = indexStatEntries(data, repo.objectFormat === 'sha256' ? 32 : 20);
  if (entries === null) return null;
  const changed: string[] = [];
  const todo = entries.filter((e) => !e.skip && e.mode !== '160000');
  for (let i = 0; i < todo.length; i += PARALLEL) {
    const batch = todo.slice(i, i + PARALLEL);
    const differs = await Promise.all(batch.map((e) => differsFromIndex(repo.root, e)));
    batch.forEach((e, k) => differs[k] && changed.push(e.path));
  }
  return changed;
}

/** Whether the file at the entry's path (never followed) is gone, of another kind, size or time. */
async function differsFromIndex(root: string, e: IndexStatEntry): Promise<boolean> {
  const st = await lstat(join(root, e.path), { bigint: true }).catch(() => null);
  if (st === null) return true;
  const link = e.mode === '120000';
  if (link ? !st.isSymbolicLink() : !st.isFile()) return true;
  if (Number(st.size % 2n ** 32n) !== e.size) return true;
  const sec = Number(st.mtimeNs / 1_000_000_000n);
  const nsec = Number(st.mtimeNs % 1_000_000_000n);
  return sec !== e.mtimeSec || (e.mtimeNsec !== 0 && nsec !== e.mtimeNsec);
}

/** "2 changed files and 1 untracked file are not in this run: it starts from the committed tip of main (1a2b3c4d5e6f)", or null. */
export function uncommittedLine(work: UncommittedWork | null, base: string): string | null {
  if (work === null || (work.changed === 0 && work.untracked === 0)) return null;
  const n = (k: number, one: string, many: string): string =>
    `${work.atLeast ? 'at least ' : ''}${k} ${k === 1 ? one : many}`;
  const parts = [
    ...(work.changed > 0 ? [n(work.changed, 'changed file', 'changed files')] : []),
    ...(work.untracked > 0 ? [n(work.untracked, 'untracked file', 'untracked files')] : []),
  ];
  const verb = work.changed + work.untracked === 1 ? 'is' : 'are';
  return `${parts.join(' and ')} of your checkout ${verb} not in this run: it starts from the committed tip of ${base}`;
}
