// Names of the branch hammer-box delivers: `<prefix><run id>`, e.g. EngineerExternal/20261122T140501Z-k3b7qa,
// so a branch names the run that made it; then `-2`, `-3`, ... after it should that name be taken.
import { runGitResult } from './git-exec.js';
import { userRepoGit, type UserRepo } from './user-repo.js';

/** How many names branchCandidates offers: the run's, then `-2` up to `-<this>`. */
export const MAX_BRANCH_CANDIDATES = 100;

/** `<prefix><run id>`. */
export function branchName(prefix: string, runId: string): string {
  return `${prefix}${runId}`;
}

/**
 * The names a run may deliver its branch under, in the order it tries them: branchName(prefix, runId),
 * then the same with `-2`, `-3`, ... (the next free one is taken when the name is taken already).
 */
export function* branchCandidates(prefix: string, runId: string): Generator<string, void, undefined> {
  const name = branchName(prefix, runId);
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
