// Bringing the finished branch into the user's repository: exactly one new ref, nothing else.
import { HammerError } from '../errors.js';
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
  /** The branch name without refs/heads/, e.g. EngineerExternal/20261122T140501Z. */
  branch: string;
  signal?: AbortSignal;
}

/**
 * Create refs/heads/<branch> at `commit` in the user's repository, never overwriting a branch.
 *
 * Not `git fetch <workbench>` in the user's repo, on purpose: fetch resolves its source through the
 * repository's config, where url.<x>.insteadOf can turn the path into `ext::<command>` (and
 * protocol.ext.allow=always), and its negotiation runs core.alternateRefsCommand through the shell
 * when the repo has alternates; both fire even with hooks and fsmonitor off. Instead the new
 * objects travel as a pack (`pack-objects` in the workbench, `index-pack --stdin` in the user's
 * repo), connectivity is checked with rev-list, and the ref is created with
 * `update-ref <ref> <commit> ''` (which fails if the ref exists) with no reflog, so the only change
 * besides new objects is the one ref file. None of these runs a hook, a transport or a filter.
 */
export async function deliverBranch(req: DeliverRequest): Promise<{ branch: string; commit: string }> {
  const { userRepo, workbench, commit, branch, signal } = req;
  assertObjectId(commit);
  const ref = `refs/heads/${branch}`;
  const sig = signal ? { signal } : {};
  const user = userRepoGit(userRepo, signal);

  const format = await runGitResult(['check-ref-format', ref], { cwd: workbench.dir, ...sig });
  if (branch.startsWith('-') || format.exitCode !== 0) {
    throw new HammerError('USAGE', `not a valid branch name: ${JSON.stringify(branch)}`, {
      hint: 'use letters, digits, ".", "_", "-" and "/" in the branch prefix',
    });
  }
  const onBase = await runGitResult(
    ['merge-base', '--is-ancestor', workbench.baseCommit, commit],
    workbench.gitOptions(sig),
  );
  if (onBase.exitCode !== 0) {
    throw new HammerError('INTERNAL', `commit ${commit} does not descend from the base ${workbench.baseCommit}`);
  }
  if (await branchExists(userRepo, branch, signal)) throw branchTaken(branch, userRepo.root);

  await workbench.git(['update-ref', ref, commit], sig);

  const revs = `${commit}\n^${workbench.baseCommit}\n`;
  const listed = await workbench.git(['rev-list', '--objects', '--stdin'], { ...sig, input: revs });
  if (listed.stdout.length > 0) {
    const pack = await workbench.git(['pack-objects', '--revs', '--stdout', '-q'], {
      ...sig,
      input: revs,
      maxBuffer: 2 * 1024 * 1024 * 1024,
    });
    await runGit(['index-pack', '--stdin'], { ...user, input: pack.stdout });
  }
  await runGit(['rev-list', '--objects', '--quiet', commit, '--not', workbench.baseCommit], user);

  const created = await runGitResult(['-c', 'core.logAllRefUpdates=false', 'update-ref', ref, commit, ''], user);
  if (created.exitCode !== 0) {
    if (await branchExists(userRepo, branch, signal)) throw branchTaken(branch, userRepo.root);
    throw new HammerError('GIT_FAILED', `could not create ${ref} in ${userRepo.root}: ${created.stderr.trim()}`);
  }
  const landed = await runGitResult(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], user);
  const actual = landed.stdout.toString('utf8').trim();
  if (landed.exitCode !== 0 || actual !== commit) {
    throw new HammerError('GIT_FAILED', `${ref} in ${userRepo.root} is at ${actual || 'nothing'}, expected ${commit}`);
  }
  return { branch, commit };
}

function branchTaken(branch: string, root: string): HammerError {
  return new HammerError(
    'REPO_INVALID',
    `branch ${branch} already exists in ${root}; hammer-box never overwrites a branch`,
    {
      hint: 'pick another branch prefix, or let hammer-box choose a free name (freeBranchName)',
    },
  );
}
