// Opening a repository's run store for the API: the state directory checked, the user's key loaded,
// and the base commit refused when it carries anything where the runs go.
import { realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { REPO_CONFIG_PATH } from '../config/resolve.js';
import type { Config } from '../config/schema.js';
import { trackedUnder, userRepoGit, type UserRepo } from '../git/index.js';
import { stateDirIn, trackedStateRefusal } from '../state/state-dir.js';
import { loadStateKey } from '../state/state-key.js';
import { RunStore } from '../state/store.js';

/** The run store of `repo` ([state] dir inside it, a real directory at every level) under the user's state key. */
export async function openRunStore(repo: string, config: Config, env: NodeJS.ProcessEnv): Promise<RunStore> {
  const dir = await stateDirIn(repo, config.state.dir);
  return new RunStore({ dir, key: await loadStateKey(env) });
}

/**
 * REPO_INVALID when `commit` tracks anything under the state directory of `repo` other than the
 * repository's `.hammer/config.toml` (called before a run writes anything).
 */
export async function assertStateUntracked(
  repo: string,
  userRepo: UserRepo,
  config: Config,
  commit: string,
  signal?: AbortSignal,
): Promise<void> {
  const realRepo = await realpath(repo).catch(() => repo);
  const toRoot = (p: string): string => relative(userRepo.root, join(realRepo, p)).split(sep).join('/');
  const stateRel = toRoot(config.state.dir);
  // a --repo path outside the tree it names (cannot happen for a real checkout) has nothing tracked there
  if (stateRel === '' || stateRel.startsWith('../')) return;
  const tracked = await trackedUnder(commit, stateRel, userRepoGit(userRepo, signal));
  const refusal = trackedStateRefusal(tracked, stateRel, toRoot(join(...REPO_CONFIG_PATH)));
  if (refusal) throw refusal;
}
