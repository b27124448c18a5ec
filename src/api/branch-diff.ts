// The change a run delivered, as a diff of its branch against its base, read from the user's
// repository with the hardened git (no external diff, no textconv, no colour): for a terminal.
import { runGitResult } from '../git/git-exec.js';
import { isObjectId } from '../git/object-id.js';
import { resolveUserRepo, userRepoGit } from '../git/user-repo.js';
import type { RunState } from '../state/run-state.js';

/** The most of a diff read, in bytes (a terminal shows far less). */
const MAX_DIFF_BYTES = 1024 * 1024;

/** The branch's diff against the base (null: no branch, or it cannot be read, or it is too large to show). */
export async function branchDiff(state: RunState, signal?: AbortSignal): Promise<string | null> {
  const branch = state.branch;
  if (branch === null || !isObjectId(branch.commit) || !isObjectId(state.repo.base_commit)) return null;
  if (branch.commit === state.repo.base_commit) return '';
  try {
    const repo = await resolveUserRepo(state.repo.path, state.repo.base_commit, signal ? { signal } : {});
    const r = await runGitResult(
      ['diff', '--no-ext-diff', '--no-textconv', '--no-color', '-M', state.repo.base_commit, branch.commit, '--'],
      { ...userRepoGit(repo, signal), maxBuffer: MAX_DIFF_BYTES },
    );
    return r.exitCode === 0 ? r.stdout.toString('utf8') : null;
  } catch {
    return null;
  }
}
