// Bringing the finished branch into the user's repository: exactly one new ref, nothing else.
import { setTimeout as sleep } from 'node:timers/promises';
import { HammerError, throwIfAborted } from '../errors.js';
import { branchExists } from './branch-name.js';
import { runGit, runGitResult } from './git-exec.js';
import { assertObjectId } from './object-id.js';
import { userRepoGit, type UserRepo } from './user-repo.js';
import type { Workbench } from './workbench.js';

/** What deliverBranch needs: the commit to publish, built in `workbench` on the user's base. */
export interface DeliverRequest {
  userRepo: UserRepo;
  workbench: Workbench;
  commit: string;
  /**
   * Branch names without refs/heads/, in order of preference (e.g. branchCandidates(prefix, runId)):
   * the branch is made under the first one still free when its ref is created.
   */
  names: Iterable<string>;
  /**
   * Called with each name just before its ref is created (record it there: a run stopped after
   * this is resumed onto that name). Called again with the next name when another process took it.
   */
  claim?: (branch: string) => Promise<void>;
  signal?: AbortSignal;
  /**
   * How long a ref lock (refs/heads/<name>.lock) may stay before the name counts as taken
   * (default REF_LOCK_WAIT_MS).
   */
  lockWaitMs?: number;
}

/**
 * How long to wait for another git's lock on a name before moving to the next name. A live git holds
 * it for milliseconds; one that stays is a git that died holding it (hammer-box never deletes it: it
 * may be the user's).
 */
export const REF_LOCK_WAIT_MS = 3_000;

/**
 * Create refs/heads/<branch> at `commit` in the user's repository under the first free name of
 * `names`, never overwriting a branch.
 *
 * Not `git fetch <workbench>` in the user's repo, on purpose: fetch resolves its source through the
 * repository's config, where url.<x>.insteadOf can turn the path into `ext::<command>` (and
 * protocol.ext.allow=always), and its negotiation runs core.alternateRefsCommand through the shell
 * when the repo has alternates; both fire even with hooks and fsmonitor off. Instead the new
 * objects travel as a pack (`pack-objects` in the workbench, `index-pack --stdin` in the user's
 * repo), connectivity is checked with rev-list, and the ref is created with
 * `update-ref <ref> <commit> ''` (which fails if the ref exists) with no reflog, so the only change
 * besides new objects is the one ref file. None of these runs a hook, a transport or a filter.
 *
 * That create-only update is what decides between runs that want the same name at once (a
 * check beforehand can be overtaken): when it finds the name taken, the next name is claimed and
 * tried, so two runs never fail each other.
 *
 * The writes into the user's repository (index-pack, update-ref) are never killed by `signal`: a git
 * killed while it holds refs/heads/<name>.lock or a temporary pack can leave that file behind. They
 * are local and quick; the signal is checked before the ref is made (a Ctrl-C while the name is
 * being claimed stops the run with no branch) and once the ref exists the branch is delivered (too
 * late to stop).
 */
export async function deliverBranch(req: DeliverRequest): Promise<{ branch: string; commit: string }> {
  const { userRepo, workbench, commit, signal } = req;
  assertObjectId(commit);
  const sig = signal ? { signal } : {};
  const unkillable = userRepoGit(userRepo);

  const onBase = await runGitResult(
    ['merge-base', '--is-ancestor', workbench.baseCommit, commit],
    workbench.gitOptions(sig),
  );
  if (onBase.exitCode !== 0) {
    throw new HammerError('INTERNAL', `commit ${commit} does not descend from the base ${workbench.baseCommit}`);
  }
  await sendObjects(req);

  const taken: string[] = [];
  for (const branch of req.names) {
    const ref = `refs/heads/${branch}`;
    const format = await runGitResult(['check-ref-format', ref], { cwd: workbench.dir, ...sig });
    if (branch.startsWith('-') || format.exitCode !== 0) {
      throw new HammerError('USAGE', `not a valid branch name: ${JSON.stringify(branch)}`, {
        hint: 'use letters, digits, ".", "_", "-" and "/" in the branch prefix',
      });
    }
    if (await branchExists(userRepo, branch, signal)) {
      taken.push(branch);
      continue;
    }
    await req.claim?.(branch);
    throwIfAborted(signal, `creating ${ref}`);
    const created = await createRef(req, branch);
    if (created === 'taken' || created === 'locked') {
      // another process made this branch since the check (or holds its lock): take the next name
      taken.push(created === 'locked' ? `${branch} (locked)` : branch);
      continue;
    }
    const landed = await runGitResult(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], unkillable);
    const actual = landed.stdout.toString('utf8').trim();
    if (landed.exitCode !== 0 || actual !== commit) {
      throw new HammerError(
        'GIT_FAILED',
        `${ref} in ${userRepo.root} is at ${actual || 'nothing'}, expected ${commit}`,
      );
    }
    return { branch, commit };
  }
  throw new HammerError(
    'REPO_INVALID',
    `every branch name tried already exists in ${userRepo.root} (${describeTaken(taken)}); hammer-box never overwrites a branch`,
    { hint: 'pick another branch prefix (git.branch_prefix), or delete branches you no longer need' },
  );
}

/**
 * `update-ref refs/heads/<branch> <commit> ''` without the abort signal: 'made', 'taken' (the ref exists), or
 * 'locked' (another git's lock on it stayed past lockWaitMs). Any other failure is GIT_FAILED.
 */
async function createRef(req: DeliverRequest, branch: string): Promise<'made' | 'taken' | 'locked'> {
  const { userRepo, commit } = req;
  const ref = `refs/heads/${branch}`;
  const git = userRepoGit(userRepo);
  const deadline = Date.now() + (req.lockWaitMs ?? REF_LOCK_WAIT_MS);
  for (let pause = 25; ; pause = Math.min(pause * 2, 250)) {
    const created = await runGitResult(['-c', 'core.logAllRefUpdates=false', 'update-ref', ref, commit, ''], git);
    if (created.exitCode === 0) return 'made';
    if (await branchExists(userRepo, branch)) return 'taken';
    // LC_ALL=C (git-hardening): "cannot lock ref '<ref>': Unable to create '<ref>.lock': File exists."
    const locked = /\.lock'?: File exists/.test(created.stderr);
    if (!locked) {
      throw new HammerError('GIT_FAILED', `could not create ${ref} in ${userRepo.root}: ${created.stderr.trim()}`);
    }
    if (Date.now() >= deadline) return 'locked';
    await sleep(pause);
  }
}

/** The commits between the base and `commit` into the user's repository as a pack, checked for connectivity. */
async function sendObjects(req: DeliverRequest): Promise<void> {
  const { userRepo, workbench, commit, signal } = req;
  const sig = signal ? { signal } : {};
  const user = userRepoGit(userRepo, signal);
  const revs = `${commit}\n^${workbench.baseCommit}\n`;
  const listed = await workbench.git(['rev-list', '--objects', '--stdin'], { ...sig, input: revs });
  if (listed.stdout.length > 0) {
    const pack = await workbench.git(['pack-objects', '--revs', '--stdout', '-q'], {
      ...sig,
      input: revs,
      maxBuffer: 2 * 1024 * 1024 * 1024,
    });
    // not killed by the signal: an interrupted index-pack leaves a temporary pack in the user's repository
    await runGit(['index-pack', '--stdin'], { ...userRepoGit(userRepo), input: pack.stdout });
  }
  await runGit(['rev-list', '--objects', '--quiet', commit, '--not', workbench.baseCommit], user);
}

function describeTaken(taken: readonly string[]): string {
  if (taken.length === 0) return 'none was given';
  if (taken.length <= 3) return taken.join(', ');
  return `${taken[0]} to ${taken.at(-1)}, ${taken.length} names`;
}
