// The tree as the context layer looks things up in it: by path, by base name, by directory.
import { baseName, dirName, isSkippedDir, isSkippedPath, isSourceName, joinPath } from './source-files.js';
import type { ContextEntry } from './types.js';

/** Lookups over a tree's regular files (symlinks and submodules left out). */
export interface TreeIndex {
  byPath: ReadonlyMap<string, ContextEntry>;
  /** Paths by their last segment. */
  byBase: ReadonlyMap<string, readonly string[]>;
  /** The files directly inside each directory ('' for the root). */
  byDir: ReadonlyMap<string, readonly string[]>;
  /** Source files and manifests outside vendored or generated directories, in tree order. */
  sources: readonly string[];
  has(path: string): boolean;
}

/** Index a tree listing (each directory is classified once, not each path). */
export function indexTree(entries: readonly ContextEntry[]): TreeIndex {
  const byPath = new Map<string, ContextEntry>();
  const byBase = new Map<string, string[]>();
  const byDir = new Map<string, string[]>();
  const skippedDirs = new Map<string, boolean>();
  const sources: string[] = [];
  for (const e of entries) {
    if (e.kind === 'symlink' || e.kind === 'submodule') continue;
    const slash = e.path.lastIndexOf('/');
    const dir = slash < 0 ? '' : e.path.slice(0, slash);
    const base = e.path.slice(slash + 1);
    byPath.set(e.path, e);
    push(byBase, base, e.path);
    const siblings = byDir.get(dir);
    if (siblings) siblings.push(e.path);
    else {
      byDir.set(dir, [e.path]);
      skippedDirs.set(dir, isSkippedDir(dir));
    }
    if (!skippedDirs.get(dir) && isSourceName(base)) sources.push(e.path);
  }
  return { byPath, byBase, byDir, sources, has: (p) => byPath.has(p) };
}

/** The tree's paths ending in `/suffix` (or equal to it), outside vendored directories. */
export function pathsEndingWith(index: TreeIndex, suffix: string): string[] {
  const base = baseName(suffix);
  return (index.byBase.get(base) ?? []).filter((p) => (p === suffix || p.endsWith(`/${suffix}`)) && !isSkippedPath(p));
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The conftest.py files of a test's directory and the directories above it (pytest loads them all). */
export function conftestsAbove(index: TreeIndex, test: string): string[] {
  const out: string[] = [];
  for (let dir = dirName(test); ; dir = dirName(dir)) {
    const p = joinPath(dir, 'conftest.py');
    if (p !== test && index.has(p)) out.push(p);
    if (dir === '') return out;
  }
}
