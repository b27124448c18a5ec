// Removing a branch hammer-box delivered, and nothing else: only while it still points at the commit
// hammer-box made, is not checked out in any worktree, carries hammer-box's branch prefix, and is
// known on no remote.
import { runGitResult } from './git-exec.js';
import { isObjectId } from './object-id.js';
import { userRepoGit, type UserRepo } from './user-repo.js';

/** What happened to the branch: removed, or kept and why. */
export type BranchRemoval =
  | { removed: true }
  | {
      removed: false;
      reason: 'gone' | 'moved' | 'checked_out' | 'not_hammer_box' | 'on_remote' | 'failed';
      detail: string;
    };

/** What a run recorded about its branch, and the prefix the current config gives hammer-box's branches. */
export interface RecordedBranch {
  name: string;
  commit: string;
  /** The run's base commit (an empty branch points at it). */
  baseCommit: string;
  prefix: string;
  /** The run that made it (its commits name it in a Hammer-Box-Run trailer). */
  runId: string;
  /** Where the branch was pushed to, as far as hammer-box knows (`pr`'s record): a remote name each. */
  pushedTo: readonly string[];
}

/**
 * Delete refs/heads/<name> when it is exactly the branch a run made: the name starts with `prefix`,
 * the ref still points at the recorded commit, that commit is the run's (its Hammer-Box-Run trailer,
 * or "hammer: iteration" in the subject of older runs) or the run's base, no worktree has it checked
 * out, and no remote has it as far as the repository knows (a remote-tracking ref of that name, an
 * upstream set for it, or a push `pr` recorded). The delete is a compare-and-delete
 * (`update-ref -d <ref> <commit>`), so a branch moved meanwhile is never lost.
 */
export async function removeRecordedBranch(
  repo: Pick<UserRepo, 'gitDir'>,
  branch: RecordedBranch,
  signal?: AbortSignal,
): Promise<BranchRemoval> {
  const git = userRepoGit(repo, signal);
  const ref = `refs/heads/${branch.name}`;
  const keep = (reason: Exclude<BranchRemoval, { removed: true }>['reason'], detail: string): BranchRemoval => ({
    removed: false,
    reason,
    detail,
  });
  if (branch.prefix === '' || !branch.name.startsWith(branch.prefix) || !isObjectId(branch.commit))
    return keep('not_hammer_box', `its name does not start with the branch prefix ${JSON.stringify(branch.prefix)}`);
  const format = await runGitResult(['check-ref-format', ref], git);
  if (format.exitCode !== 0) return keep('not_hammer_box', 'not a valid branch name');
  const tip = await runGitResult(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], git);
  if (tip.exitCode !== 0) return keep('gone', 'the branch no longer exists');
  if (tip.stdout.toString('utf8').trim() !== branch.commit)
    return keep('moved', 'it has moved since the run made it (someone committed to it)');
  if (branch.commit !== branch.baseCommit) {
    const message = await runGitResult(['log', '-1', '--no-show-signature', '--format=%B', branch.commit, '--'], git);
    if (message.exitCode !== 0 || !madeByRun(message.stdout.toString('utf8'), branch.runId))
      return keep('not_hammer_box', 'its tip is not a commit hammer-box made');
  }
  if (branch.pushedTo.length > 0)
    return keep(
      'on_remote',
      `it was pushed to ${branch.pushedTo.join(', ')} (hammer-box pr): its pull request needs it`,
    );
  const tracking = await runGitResult(['for-each-ref', '--format=%(refname)', 'refs/remotes/'], git);
  const remoteRef = tracking.stdout
    .toString('utf8')
    .split('\n')
    .find((r) => r.endsWith(`/${branch.name}`));
  if (tracking.exitCode !== 0 || remoteRef !== undefined)
    return keep('on_remote', `a remote has it (${remoteRef ?? 'the remote-tracking refs could not be read'})`);
  const upstream = await runGitResult(['config', '--get', `branch.${branch.name}.remote`], git);
  if (upstream.exitCode === 0)
    return keep('on_remote', `it tracks a branch of ${upstream.stdout.toString('utf8').trim()}`);
  const worktrees = await runGitResult(['worktree', 'list', '--porcelain'], git);
  const checkedOut = worktrees.stdout
    .toString('utf8')
    .split('\n')
    .some((l) => l === `branch ${ref}`);
  if (worktrees.exitCode !== 0 || checkedOut) return keep('checked_out', 'it is checked out in a worktree');
  // without the abort signal: a git killed while it holds the ref's lock can leave <ref>.lock behind
  const deleted = await runGitResult(
    ['-c', 'core.logAllRefUpdates=false', 'update-ref', '-d', ref, branch.commit],
    userRepoGit(repo),
  );
  if (deleted.exitCode !== 0)
    return keep('failed', deleted.stderr.trim() || `git update-ref -d exited ${deleted.exitCode}`);
  return { removed: true };
}

/** True when a commit message is one hammer-box wrote for `runId` (or, before trailers, any of its own). */
export function madeByRun(message: string, runId: string): boolean {
  if (message.startsWith('hammer: iteration ')) return true;
  return message.split('\n').some((l) => l.trim() === `Hammer-Box-Run: ${runId}`);
}
