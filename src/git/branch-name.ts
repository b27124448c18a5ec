// Names of the branch hammer-box delivers: `<prefix><UTC timestamp>`, e.g. EngineerExternal/20261122T140501Z,
// then `-2`, `-3`, ... after it when runs finishing in the same second want the same name.
import { runGitResult } from './git-exec.js';
import { userRepoGit, type UserRepo } from './user-repo.js';

/** How many names branchCandidates offers: the timestamp, then `-2` up to `-<this>`. */
export const MAX_BRANCH_CANDIDATES = 100;

/** `<prefix>YYYYMMDDTHHMMSSZ` for `date` in UTC. */
export function branchName(prefix: string, date: Date): string {
  const stamp = date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${prefix}${stamp}`;
}

/**
 * The names a run may deliver its branch under, in the order it tries them: branchName(prefix, date),
 * then the same with `-2`, `-3`, ... (the next free one is taken when another run got there first).
 */
export function* branchCandidates(prefix: string, date: Date): Generator<string, void, undefined> {
  const name = branchName(prefix, date);
  yield name;
  for (let n = 2; n <= MAX_BRANCH_CANDIDATES; n++) yield `${name}-${n}`;
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
