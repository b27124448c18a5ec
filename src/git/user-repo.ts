// Finding and checking the user's repository with read-only plumbing only: hammer-box never
// checks out, resets, stashes, adds or reads the working tree there.
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { HammerError } from '../errors.js';
import { runGitResult, type GitOptions } from './git-exec.js';
import { isObjectId } from './object-id.js';
import { resolveBase } from './base-ref.js';

/** The user's repository as hammer-box uses it. */
export interface UserRepo {
  /** The working-tree root (the git dir for a bare repository). */
  root: string;
  /** The absolute git dir (the common dir for a linked worktree is reached through objectsDir). */
  gitDir: string;
  /** The absolute object directory the workbench borrows from. */
  objectsDir: string;
  /** sha1 or sha256. */
  objectFormat: string;
  /** The base as the user named it, else HEAD's branch, else HEAD's commit id (detached). */
  base: string;
  baseCommit: string;
  baseTree: string;
}

/** Git options for read-only plumbing in the user's repo (no discovery: --git-dir is explicit). */
export function userRepoGit(repo: Pick<UserRepo, 'gitDir'>, signal?: AbortSignal): GitOptions {
  return signal ? { gitDir: repo.gitDir, signal } : { gitDir: repo.gitDir };
}

/** Resolve `path` to its repository and `base` ('' = what HEAD is) to a commit; REPO_INVALID with a hint when unusable. */
export async function resolveUserRepo(
  path: string,
  base: string,
  opts: { signal?: AbortSignal } = {},
): Promise<UserRepo> {
  const dir = resolve(path);
  const info = await stat(dir).catch((err: NodeJS.ErrnoException) => err);
  if (info instanceof Error || !info.isDirectory()) {
    const why = info instanceof Error && info.code === 'ENOENT' ? 'does not exist' : 'is not a directory';
    throw new HammerError('REPO_INVALID', `repository path ${why}: ${dir}`, {
      hint: 'pass --repo <path> pointing at a git repository',
    });
  }
  if (base.startsWith('-') || /[\0\n]/.test(base)) {
    throw new HammerError('REPO_INVALID', `not a usable base: ${JSON.stringify(base)}`, {
      hint: 'pass --base <branch> naming an existing branch, tag or commit',
    });
  }
  const at: GitOptions = { cwd: dir, ...(opts.signal ? { signal: opts.signal } : {}) };

  const probe = await runGitResult(
    ['rev-parse', '--is-bare-repository', '--absolute-git-dir', '--git-path', 'objects', '--show-object-format'],
    at,
  );
  if (probe.exitCode !== 0) throw notARepo(dir, probe.stderr);
  const [bare, gitDir = '', objects = '', objectFormat = 'sha1'] = probe.stdout.toString('utf8').split('\n');
  const objectsDir = isAbsolute(objects) ? objects : resolve(dir, objects);

  let root = gitDir;
  if (bare !== 'true') {
    const top = await runGitResult(['rev-parse', '--show-toplevel'], at);
    if (top.exitCode !== 0) throw notARepo(dir, top.stderr);
    root = top.stdout.toString('utf8').trim();
  }

  const git = userRepoGit({ gitDir }, opts.signal);
  const { name, commit: baseCommit } = await resolveBase(base, git, root);
  const tree = await runGitResult(['rev-parse', '--verify', '--quiet', `${baseCommit}^{tree}`], git);
  const baseTree = tree.stdout.toString('utf8').trim();
  if (tree.exitCode !== 0 || !isObjectId(baseTree)) {
    throw new HammerError('REPO_INVALID', `cannot read the tree of ${baseCommit} in ${root}: ${tree.stderr.trim()}`, {
      hint: 'run `git fsck` in the repository',
    });
  }
  return { root, gitDir, objectsDir, objectFormat, base: name, baseCommit, baseTree };
}

function notARepo(dir: string, stderr: string): HammerError {
  if (/dubious ownership/.test(stderr)) {
    return new HammerError('REPO_INVALID', `git refuses ${dir}: it is owned by another user`, {
      hint: 'run hammer-box as the owner of the repository (hammer-box ignores safe.directory from global config on purpose)',
      cause: stderr,
    });
  }
  return new HammerError('REPO_INVALID', `not a git repository: ${dir}`, {
    hint: 'run inside a git repository or pass --repo <path> pointing at one',
    cause: stderr,
  });
}
