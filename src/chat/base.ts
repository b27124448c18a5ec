// The base a conversation goes on from (a resumed chat, a /run, a /branch): its recorded ref while
// that still names the recorded commit (so the branch is "on main"), else the commit itself.
import { isHammerError } from '../errors.js';
import { resolveUserRepo } from '../git/index.js';
import type { Conversation } from '../state/conversation.js';

/** The recorded base ref when it still resolves to the recorded commit, else that commit's id. */
export async function recordedBase(repo: string, c: Conversation, signal?: AbortSignal): Promise<string> {
  try {
    const now = await resolveUserRepo(repo, c.repo.base_ref, signal ? { signal } : {});
    if (now.baseCommit === c.repo.base_commit) return c.repo.base_ref;
  } catch (err) {
    if (!isHammerError(err) || err.code === 'ABORTED') throw err;
  }
  return c.repo.base_commit;
}
