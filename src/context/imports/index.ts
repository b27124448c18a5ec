// One import, written in any supported language, to the repository files it names (pure).
import type { ImportRef, LanguageId } from '../../syntax/index.js';
import { nearest, type ProjectFacts } from '../manifests.js';
import type { TreeIndex } from '../tree-index.js';
import { resolveGo } from './go.js';
import { resolveJavaScript } from './javascript.js';
import { resolvePython } from './python.js';
import { resolveRust } from './rust.js';

export { goPackageFiles } from './go.js';

/** A file an import names, and the names it takes from it (empty: the module as a whole). */
export interface ResolvedImport {
  path: string;
  names: string[];
}

/** The repository files an import of `from` names (none for the standard library and dependencies). */
export function resolveImport(
  ref: ImportRef,
  from: string,
  language: LanguageId,
  index: TreeIndex,
  facts: ProjectFacts,
): ResolvedImport[] {
  let out: ResolvedImport[];
  switch (language) {
    case 'python':
      out = resolvePython(ref, from, index);
      break;
    case 'javascript':
    case 'typescript':
    case 'tsx':
      out = resolveJavaScript(ref, from, index, facts.packages);
      break;
    case 'go': {
      const own = nearest(facts.goModules, from);
      const modules = own ? [own, ...facts.goModules.filter((m) => m !== own)] : facts.goModules;
      out = resolveGo(ref, modules, index).map((path) => ({ path, names: [] }));
      break;
    }
    case 'rust':
      out = resolveRust(ref, from, facts.crates, index);
      break;
  }
  return out.filter((r) => r.path !== from);
}
