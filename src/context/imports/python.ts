// Python imports to repository files: absolute (from the importer's ancestors and their src/),
// relative (by level), packages (__init__.py) and submodules named in `from x import y`.
import type { ImportRef } from '../../syntax/index.js';
import { dirName, joinPath } from '../source-files.js';
import type { TreeIndex } from '../tree-index.js';

/** The files a Python import names, with the names taken from each. */
export function resolvePython(ref: ImportRef, from: string, index: TreeIndex): { path: string; names: string[] }[] {
  const modPath = ref.source.split('.').filter(Boolean).join('/');
  const bases = ref.level > 0 ? relativeBase(from, ref.level) : absoluteRoots(from);
  for (const base of bases) {
    const out: { path: string; names: string[] }[] = [];
    const subs: string[] = [];
    // `from pkg import sub`: a submodule is a file of its own
    for (const name of ref.names) {
      if (name === '*') continue;
      const sub = moduleFile(index, joinPath(base, modPath, name));
      if (sub === null) continue;
      subs.push(name);
      out.push({ path: sub, names: [] });
    }
    const mod = moduleFile(index, joinPath(base, modPath));
    const taken = ref.names.filter((n) => !subs.includes(n));
    if (mod !== null && (out.length === 0 || (modPath !== '' && taken.length > 0)))
      out.unshift({ path: mod, names: taken });
    if (out.length > 0) return out;
  }
  return [];
}

/** `a/b.py` or `a/b/__init__.py`, whichever is in the tree. */
function moduleFile(index: TreeIndex, path: string): string | null {
  if (path === '') return index.has('__init__.py') ? '__init__.py' : null;
  for (const p of [`${path}.py`, `${path}/__init__.py`, `${path}.pyi`]) if (index.has(p)) return p;
  return null;
}

/** The package directory a relative import starts from (`.` is the importer's own package). */
function relativeBase(from: string, level: number): string[] {
  let dir = dirName(from);
  for (let i = 1; i < level; i++) {
    if (dir === '') return [];
    dir = dirName(dir);
  }
  return [dir];
}

/**
 * Where an absolute import may be rooted, nearest first: the importer's directory and each ancestor
 * (pytest's rootdir insertion, monorepo subprojects), each also with src/ (the src layout).
 */
function absoluteRoots(from: string): string[] {
  const roots: string[] = [];
  let dir = dirName(from);
  for (;;) {
    roots.push(dir, joinPath(dir, 'src'));
    if (dir === '') break;
    dir = dirName(dir);
  }
  return [...new Set(roots)];
}
