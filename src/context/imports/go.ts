// Go imports to repository files: an import path inside one of the repository's modules (go.mod)
// names a package directory; its non-test files are the package.
import type { ImportRef } from '../../syntax/index.js';
import type { GoModule } from '../manifests.js';
import { joinPath } from '../source-files.js';
import type { TreeIndex } from '../tree-index.js';

/** The files of the package a Go import path names, when it is inside one of the repository's modules. */
export function resolveGo(ref: ImportRef, modules: readonly GoModule[], index: TreeIndex): string[] {
  for (const mod of modules) {
    if (ref.source !== mod.path && !ref.source.startsWith(`${mod.path}/`)) continue;
    return goPackageFiles(index, joinPath(mod.dir, ref.source.slice(mod.path.length + 1)));
  }
  return [];
}

/** The Go files of a directory, code before tests. */
export function goPackageFiles(index: TreeIndex, dir: string): string[] {
  const files = (index.byDir.get(dir) ?? []).filter((p) => p.endsWith('.go'));
  return [...files.filter((p) => !p.endsWith('_test.go')), ...files.filter((p) => p.endsWith('_test.go'))];
}
