// Each task attempt gets a repository of its own under the batch directory: a bare repository made
// with `git init` whose objects/info/alternates names the source's object directory (the user's
// repository, or the batch's copy of a URL), with its base commit on `refs/heads/base`. Nothing is
// ever written to the source; the run delivers its branch into the attempt's repository; runs never
// share one. All git here is hardened host git (src/git/git-exec.ts).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HammerError } from '../errors.js';
import { runGit, runGitResult, type GitOptions } from '../git/git-exec.js';
import { assertObjectId } from '../git/object-id.js';
import { treeEntries } from '../git/tree-entries.js';

/** Where an attempt's objects come from, and its base commit there. */
export interface SourceRepo {
  /** The object directory the attempt's repository borrows from. */
  objectsDir: string;
  objectFormat: string;
  /** The base commit (full id). */
  commit: string;
}

/** The largest `.hammer/config.toml` taken from a task's commit (as a checkout would have it). */
export const MAX_REPO_CONFIG_BYTES = 64 * 1024;
/** The branch of an attempt's repository that points at the task's commit. */
export const BASE_BRANCH = 'base';

/**
 * Make the bare repository `dir` (which must not exist) over `source`: alternates, `base` at the
 * commit (HEAD names it), and the commit's `.hammer/config.toml` when it tracks one as a small
 * regular file, so the run reads the repository's own settings as from a checkout of that commit.
 */
export async function makeAttemptRepo(dir: string, source: SourceRepo, signal?: AbortSignal): Promise<void> {
  assertObjectId(source.commit);
  if (/[\n"]/.test(source.objectsDir))
    throw new HammerError('REPO_INVALID', `unsupported characters in the repository path: ${source.objectsDir}`);
  const sig = signal ? { signal } : {};
  const init = ['init', '--bare', '--quiet', '--template=', `--initial-branch=${BASE_BRANCH}`];
  await runGit([...init, `--object-format=${source.objectFormat}`, dir], sig);
  await writeFile(join(dir, 'objects', 'info', 'alternates'), `${source.objectsDir}\n`);
  const git: GitOptions = { gitDir: dir, ...sig };
  // update-ref refuses an object that is not there, or is not a commit, for a branch
  const base = await runGitResult(['update-ref', '--no-deref', `refs/heads/${BASE_BRANCH}`, source.commit, ''], git);
  if (base.exitCode !== 0)
    throw new HammerError('REPO_INVALID', `commit ${source.commit} cannot be read from the task's repository`, {
      hint: 'check the task\'s "commit"',
      cause: base.stderr,
    });
  await copyRepoConfig(dir, source.commit, git);
}

/** The commit's `.hammer/config.toml` into `<dir>/.hammer/` (a regular file within the cap only). */
async function copyRepoConfig(dir: string, commit: string, git: GitOptions): Promise<void> {
  let entry: { oid: string; size: number; kind: string } | undefined;
  for await (const e of treeEntries(commit, { ...git, paths: ['.hammer/config.toml'] })) {
    if (e.path === '.hammer/config.toml') entry = e;
  }
  if (!entry) return;
  if ((entry.kind !== 'file' && entry.kind !== 'executable') || entry.size > MAX_REPO_CONFIG_BYTES)
    throw new HammerError(
      'CONFIG_INVALID',
      `the task's commit tracks .hammer/config.toml as ${entry.kind === 'symlink' ? 'a symlink' : entry.kind === 'submodule' ? 'a submodule' : `a ${entry.size}-byte file`}`,
      { hint: "a repository's config must be a small plain TOML file" },
    );
  const blob = await runGit(['cat-file', 'blob', entry.oid], { ...git, maxBuffer: MAX_REPO_CONFIG_BYTES });
  await mkdir(join(dir, '.hammer'));
  await writeFile(join(dir, '.hammer', 'config.toml'), blob.stdout, { flag: 'wx' });
}
