// Writing where a repository may have shaped the directory (a checkout holds what its commits put
// there): no path hammer-box writes through is a symlink, and a directory it writes into again holds
// only regular files and directories. The paths a user names are checked below the places a
// repository can reach (the current directory, where a checkout usually is, and the repository).
import { lstat, mkdir, readdir } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { HammerError } from '../errors.js';

/** What a refusal names: the option or the place, for the message and the hint. */
export interface PathUse {
  /** E.g. "--bundle", "--out". */
  what: string;
  hint: string;
}

/**
 * USAGE unless every existing level of `path` below each of `roots` that holds it is a real
 * directory (the last level may also be a file or absent): a symlink on the way, dangling or not, is
 * refused, so nothing is created or written through a link a repository committed.
 */
export async function refuseLinkedLevels(path: string, roots: readonly string[], use: PathUse): Promise<void> {
  const target = resolve(path);
  for (const root of roots.map((r) => resolve(r))) {
    const rel = relative(root, target);
    if (rel === '' || rel.startsWith('..') || rel.startsWith(sep)) continue;
    const parts = rel.split(sep);
    let at = root;
    for (const [i, part] of parts.entries()) {
      at = join(at, part);
      const st = await lstat(at).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return null;
        throw err;
      });
      if (st === null) break;
      const last = i === parts.length - 1;
      if (st.isSymbolicLink() || (!last && !st.isDirectory()))
        throw new HammerError(
          'USAGE',
          `${use.what} ${path}: ${at} is ${st.isSymbolicLink() ? 'a symlink' : 'not a directory'}; hammer-box never writes through a link`,
          { hint: use.hint },
        );
    }
  }
}

/** The first entry under `dir` (walked without following links) that is neither a regular file nor a directory, or null. */
export async function oddEntry(dir: string): Promise<{ path: string; kind: string } | null> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      const inner = await oddEntry(path);
      if (inner) return inner;
    } else if (!e.isFile())
      return {
        path,
        kind: e.isSymbolicLink() ? 'a symlink' : e.isFIFO() ? 'a FIFO' : e.isSocket() ? 'a socket' : 'a device',
      };
  }
  return null;
}

/** USAGE when the existing directory `dir` holds anything but regular files and directories (at any depth). */
export async function refuseOddEntries(dir: string, use: PathUse): Promise<void> {
  const odd = await oddEntry(dir);
  if (odd)
    throw new HammerError(
      'USAGE',
      `${use.what} ${dir} holds ${odd.kind}, ${odd.path}: a directory hammer-box writes into again may hold only regular files and directories`,
      { hint: use.hint },
    );
}

/**
 * Make `parts` below the real directory `base`, one level at a time, never through a link: a level
 * that exists must be a real directory. Returns the path made.
 */
export async function makeRealDirs(base: string, parts: readonly string[], use: PathUse): Promise<string> {
  let at = base;
  for (const part of parts) {
    at = join(at, part);
    await mkdir(at).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
    const st = await lstat(at);
    if (!st.isDirectory())
      throw new HammerError(
        'USAGE',
        `${use.what}: ${at} is ${st.isSymbolicLink() ? 'a symlink' : 'not a directory'}; hammer-box never writes through a link`,
        { hint: use.hint },
      );
  }
  return at;
}
