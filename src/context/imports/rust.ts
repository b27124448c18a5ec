// Rust imports to repository files: `mod x;` beside or below its parent, and `use` paths from
// `crate::`, `self::`, `super::`, a crate of the repository (tests/ and other workspace members, path
// dependencies) or a child module of the current one.
import type { ImportRef } from '../../syntax/index.js';
import { nearest, type RustCrate } from '../manifests.js';
import { baseName, dirName, joinPath } from '../source-files.js';
import type { TreeIndex } from '../tree-index.js';

/** The files a Rust `mod` or `use` names, with the item name taken from each. */
export function resolveRust(
  ref: ImportRef,
  from: string,
  crates: readonly RustCrate[],
  index: TreeIndex,
): { path: string; names: string[] }[] {
  if (ref.kind === 'mod') {
    const dir = isModuleRoot(from) ? dirName(from) : joinPath(dirName(from), baseName(from).replace(/\.rs$/, ''));
    const hit = moduleFile(index, joinPath(dir, ref.source));
    return hit === null ? [] : [{ path: hit, names: [] }];
  }
  if (ref.kind !== 'use') return [];
  const segs = ref.source.split('::').filter((s) => s !== '' && s !== '{' && s !== '}');
  if (segs[0] === '' || segs.length === 0) return [];
  const own = nearest(crates, from);
  let crate: RustCrate | undefined;
  let modPath: string[];
  let rest: string[];
  const first = segs[0]!;
  if (first === 'crate' || first === 'self' || first === 'super') {
    crate = own;
    if (crate === undefined) return [];
    modPath = first === 'crate' ? [] : modulePathOf(from, crate);
    rest = segs.slice(1);
    if (first === 'super') modPath = modPath.slice(0, -1);
    while (rest[0] === 'super') {
      modPath = modPath.slice(0, -1);
      rest = rest.slice(1);
    }
  } else {
    crate = crates.find((c) => c.name === first);
    modPath = [];
    rest = segs.slice(1);
    // a path relative to the current module (2018 edition): `use kebab::ToKebabCase;` beside `mod kebab;`
    if (crate === undefined && own !== undefined) {
      const relative = modulePathOf(from, own);
      if (moduleFile(index, joinPath(own.dir, 'src', ...relative, first)) === null) return [];
      crate = own;
      modPath = relative;
      rest = segs;
    }
    if (crate === undefined) return [];
  }
  const item = rest.at(-1) ?? '';
  const srcDir = joinPath(crate.dir, 'src');
  for (let n = rest.length; n >= 1; n--) {
    const hit = moduleFile(index, joinPath(srcDir, ...modPath, ...rest.slice(0, n)));
    if (hit !== null) return [{ path: hit, names: n === rest.length ? [] : [item] }];
  }
  const root =
    modPath.length > 0
      ? moduleFile(index, joinPath(srcDir, ...modPath))
      : [joinPath(srcDir, 'lib.rs'), joinPath(srcDir, 'main.rs')].find((p) => index.has(p));
  return root === null || root === undefined || root === from ? [] : [{ path: root, names: item === '' ? [] : [item] }];
}

/** `x.rs` or `x/mod.rs`, whichever is in the tree. */
function moduleFile(index: TreeIndex, path: string): string | null {
  for (const p of [`${path}.rs`, `${path}/mod.rs`]) if (index.has(p)) return p;
  return null;
}

/** lib.rs, main.rs, mod.rs and a tests/ or examples/ file own the directory they are in. */
function isModuleRoot(path: string): boolean {
  const base = baseName(path);
  if (base === 'lib.rs' || base === 'main.rs' || base === 'mod.rs' || base === 'build.rs') return true;
  const parent = baseName(dirName(path));
  return parent === 'tests' || parent === 'examples' || parent === 'benches' || parent === 'bin';
}

/** The module path of a file of the crate's src/ (`src/a/b.rs` and `src/a/b/mod.rs` are [a, b]). */
function modulePathOf(path: string, crate: RustCrate): string[] {
  const src = `${joinPath(crate.dir, 'src')}/`;
  if (!path.startsWith(src)) return [];
  const segs = path.slice(src.length).replace(/\.rs$/, '').split('/');
  const last = segs.at(-1);
  if (last === 'mod' || ((last === 'lib' || last === 'main') && segs.length === 1)) segs.pop();
  return segs;
}
