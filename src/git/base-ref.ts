// Which commit a run starts from: the base the user named, else what HEAD is (the checked-out branch,
// or the commit a detached HEAD points at, as on CI checkouts). A base that does not resolve is
// refused with what the repository does have.
import { HammerError } from '../errors.js';
import { runGitResult, type GitOptions } from './git-exec.js';
import { isObjectId } from './object-id.js';

/** The base a run starts from: the name recorded (a branch, tag, or a commit id when HEAD is detached) and its commit. */
export interface ResolvedBase {
  name: string;
  commit: string;
}

/** How many names of each kind an error lists. */
const LISTED = 10;

/** `base` ('' = HEAD's branch, else HEAD's commit) as a commit in the repository at `git`; REPO_INVALID naming what exists. */
export async function resolveBase(base: string, git: GitOptions, root: string): Promise<ResolvedBase> {
  if (base !== '') {
    const commit = await commitOf(base, git);
    if (commit) return { name: base, commit };
    const refs = await existingRefs(git);
    if (refs.total === 0 && (await headState(git)).kind === 'unborn') throw noCommits(root);
    throw new HammerError('REPO_INVALID', `base ${JSON.stringify(base)} is not a commit in ${root}`, {
      hint: `pass --base <ref> naming one that exists, or leave --base out to start from HEAD; ${describeRefs(refs, await headState(git))}`,
    });
  }
  const head = await headState(git);
  switch (head.kind) {
    case 'branch':
      return { name: head.branch, commit: head.commit };
    case 'detached':
      return { name: head.commit, commit: head.commit };
    case 'unborn': {
      const refs = await existingRefs(git);
      if (refs.total === 0) throw noCommits(root);
      throw new HammerError(
        'REPO_INVALID',
        `HEAD in ${root} is on ${head.branch ? `branch ${JSON.stringify(head.branch)}, which has no commits yet` : 'no commit'}`,
        { hint: `pass --base <ref> naming the commit to start from; ${describeRefs(refs, head)}` },
      );
    }
  }
}

/** What HEAD is: a branch with a commit, a detached commit, or nothing yet (an unborn branch). */
type HeadState =
  | { kind: 'branch'; branch: string; commit: string }
  | { kind: 'detached'; commit: string }
  | { kind: 'unborn'; branch: string | null };

async function headState(git: GitOptions): Promise<HeadState> {
  const sym = await runGitResult(['symbolic-ref', '--quiet', 'HEAD'], git);
  const ref = sym.exitCode === 0 ? sym.stdout.toString('utf8').trim() : '';
  const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
  const commit = await commitOf('HEAD', git);
  if (!commit) return { kind: 'unborn', branch };
  return branch ? { kind: 'branch', branch, commit } : { kind: 'detached', commit };
}

async function commitOf(rev: string, git: GitOptions): Promise<string | null> {
  const r = await runGitResult(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], git);
  const id = r.stdout.toString('utf8').trim();
  return r.exitCode === 0 && isObjectId(id) ? id : null;
}

interface Refs {
  branches: string[];
  remote: string[];
  tags: string[];
  total: number;
}

async function existingRefs(git: GitOptions): Promise<Refs> {
  const r = await runGitResult(['for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/remotes', 'refs/tags'], git);
  const names = r.exitCode === 0 ? r.stdout.toString('utf8').split('\n').filter(Boolean) : [];
  const under = (prefix: string): string[] =>
    names.filter((n) => n.startsWith(prefix) && !n.endsWith('/HEAD')).map((n) => n.slice(prefix.length));
  return {
    branches: under('refs/heads/'),
    remote: under('refs/remotes/'),
    tags: under('refs/tags/'),
    total: names.length,
  };
}

/** "branches here: a, b; remote branches: origin/x; HEAD: detached at abc123" (what a wrong base can be replaced with). */
function describeRefs(refs: Refs, head: HeadState): string {
  const list = (label: string, names: string[]): string[] =>
    names.length === 0 ? [] : [`${label}: ${names.slice(0, LISTED).join(', ')}${names.length > LISTED ? ', ...' : ''}`];
  const parts = [
    ...list('branches here', refs.branches),
    ...list('remote branches', refs.remote),
    ...list('tags', refs.tags),
  ];
  if (refs.branches.length === 0) parts.push('no local branches');
  if (head.kind === 'detached') parts.push(`HEAD: detached at ${head.commit.slice(0, 12)}`);
  else if (head.kind === 'branch') parts.push(`HEAD: ${head.branch}`);
  return parts.join('; ');
}

function noCommits(root: string): HammerError {
  return new HammerError('REPO_INVALID', `the repository at ${root} has no commits yet`, {
    hint: 'commit the starting point first (git add . && git commit), then run hammer-box again',
  });
}
