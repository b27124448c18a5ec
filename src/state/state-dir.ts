// Where a repository's runs are kept: `[state] dir` inside the repository, a real directory at
// every level (never a symlink, dangling or not), and nothing of it tracked by the base commit.
import { lstat } from 'node:fs/promises';
import { isAbsolute, join, normalize, sep } from 'node:path';
import { HammerError } from '../errors.js';

/** Why `[state] dir` cannot name a directory inside the repository, or null (pure). */
export function stateDirRefusal(rel: string): string | null {
  if (isAbsolute(rel)) return 'it is an absolute path';
  const parts = normalize(rel)
    .split(sep)
    .filter((p) => p !== '' && p !== '.');
  if (parts.length === 0) return 'it names the repository itself';
  if (rel.split(/[\\/]/).includes('..')) return 'it climbs out with ..';
  if (parts[0] === '.git') return 'it is inside .git';
  return null;
}

/**
 * The absolute state directory of `repo` ([state] dir, relative to it). REPO_INVALID when it is not
 * inside the repository or any existing level of it is a symlink or not a directory. Nothing is made.
 */
export async function stateDirIn(repo: string, rel: string): Promise<string> {
  const refusal = stateDirRefusal(rel);
  if (refusal)
    throw new HammerError(
      'REPO_INVALID',
      `[state] dir ${JSON.stringify(rel)} is not a directory inside the repository: ${refusal}`,
      {
        hint: 'set [state] dir to a relative path such as ".hammer"',
      },
    );
  let path = repo;
  for (const part of normalize(rel)
    .split(sep)
    .filter((p) => p !== '' && p !== '.')) {
    path = join(path, part);
    const st = await lstat(path).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (st === null) break;
    if (st.isSymbolicLink() || !st.isDirectory())
      throw new HammerError(
        'REPO_INVALID',
        `${path} is ${st.isSymbolicLink() ? 'a symlink' : 'not a directory'}; hammer-box keeps runs only in a plain directory inside the repository and never writes through a symlink`,
        {
          hint: `remove ${path} (a repository must not carry hammer-box's state), or set [state] dir to another directory`,
        },
      );
  }
  return join(repo, normalize(rel));
}

/**
 * REPO_INVALID when the base commit tracks anything under the state directory other than the
 * repository's own config file: a committed run, or a symlink where the state directory goes.
 * `tracked` are those paths (relative to the repository root), `allowed` the config file's path.
 */
export function trackedStateRefusal(tracked: readonly string[], stateRel: string, allowed: string): HammerError | null {
  const bad = tracked.filter((p) => p !== allowed);
  if (bad.length === 0) return null;
  const shown = bad.slice(0, 5).map((p) => JSON.stringify(p));
  return new HammerError(
    'REPO_INVALID',
    `the base commit tracks ${bad.length === 1 ? '' : `${bad.length} paths `}under the state directory ${JSON.stringify(stateRel)}: ${shown.join(', ')}${bad.length > 5 ? ', ...' : ''}; run states are never taken from a repository`,
    {
      hint: `remove them from the repository (git rm -r --cached ${JSON.stringify(stateRel)}), keep only ${JSON.stringify(allowed)} there, or set [state] dir elsewhere`,
    },
  );
}
