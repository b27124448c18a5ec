// Names of the branch hammer-box delivers: `<prefix><UTC timestamp>`, e.g. EngineerExternal/20261122T140501Z.
import { randomBytes } from 'node:crypto';
import { runGitResult } from './git-exec.js';
import { userRepoGit, type UserRepo } from './user-repo.js';

/** `<prefix>YYYYMMDDTHHMMSSZ` for `date` in UTC. */
export function branchName(prefix: string, date: Date): string {
  const stamp = date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${prefix}${stamp}`;
}

/** The commit refs/heads/<branch> points at in the user's repo, or null when there is no such branch. */
export async function branchCommit(
  repo: Pick<UserRepo, 'gitDir'>,
  branch: string,
  signal?: AbortSignal,
): Promise<string | null> {
  const result = await runGitResult(
    ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`],
    userRepoGit(repo, signal),
  );
  return result.exitCode === 0 ? result.stdout.toString('utf8').trim() : null;
}

/** True when refs/heads/<branch> exists in the user's repo. */
export async function branchExists(
  repo: Pick<UserRepo, 'gitDir'>,
  branch: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const result = await runGitResult(
    ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`],
    userRepoGit(repo, signal),
  );
  return result.exitCode === 0;
}

/**
 * branchName(prefix, date), with a short random suffix (`-1a2b`) when that name is already taken
 * in the user's repo (two runs finishing in the same second).
 */
export async function freeBranchName(
  repo: Pick<UserRepo, 'gitDir'>,
  prefix: string,
  date: Date,
  opts: { signal?: AbortSignal; suffix?: () => string } = {},
): Promise<string> {
  const name = branchName(prefix, date);
  if (!(await branchExists(repo, name, opts.signal))) return name;
  const suffix = opts.suffix ?? (() => randomBytes(2).toString('hex'));
  for (let attempt = 0; attempt < 16; attempt++) {
    const candidate = `${name}-${suffix()}`;
    if (!(await branchExists(repo, candidate, opts.signal))) return candidate;
  }
  return `${name}-${randomBytes(6).toString('hex')}`;
}
