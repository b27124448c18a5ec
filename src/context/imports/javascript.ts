// JavaScript/TypeScript imports to repository files: relative specifiers (ESM and CommonJS) with
// extensions, TypeScript's `.js` for `.ts`, index files, and workspace packages by name or directory.
import type { ImportRef } from '../../syntax/index.js';
import type { JsPackage } from '../manifests.js';
import { baseName, dirName, isSkippedPath, joinPath, normalizePath } from '../source-files.js';
import type { TreeIndex } from '../tree-index.js';

const EXTENSIONS = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'];
/** What a written extension may stand for (TypeScript's ESM imports name the built .js). */
const SWAPS: Record<string, string[]> = {
  '.js': ['.ts', '.tsx', '.jsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

/** The file a JS/TS import names, with the names taken from it. */
export function resolveJavaScript(
  ref: ImportRef,
  from: string,
  index: TreeIndex,
  packages: readonly JsPackage[] = [],
): { path: string; names: string[] }[] {
  const spec = ref.source.split(/[?#]/)[0]!;
  if (spec === '') return [];
  const names = ref.names.filter((n) => n !== '*');
  if (spec.startsWith('.')) {
    const target = normalizePath(joinPath(dirName(from), spec));
    const hit = target === null ? null : fileFor(index, target);
    return hit === null ? [] : [{ path: hit, names }];
  }
  const hit = workspacePackage(index, spec, packages) ?? aliasTarget(index, spec);
  return hit === null ? [] : [{ path: hit, names }];
}

/** Prefixes of path aliases (tsconfig `paths`, bundler aliases, Node's `#imports`): `@/x`, `~/x`, `#x`, `$lib/x`. */
const ALIAS = /^(?:@|~|#|\$[A-Za-z]+)\/|^#(?=[A-Za-z])/;

/**
 * The file an aliased specifier most likely names, without reading the config that maps it: the one
 * file of the tree whose path ends as the specifier does after the alias (`@/lib/money` →
 * `src/lib/money.ts`), with an extension or as an index; nothing when several do.
 */
function aliasTarget(index: TreeIndex, spec: string): string | null {
  if (!ALIAS.test(spec)) return null;
  const rest = spec.replace(ALIAS, '');
  if (rest === '' || rest.split('/').includes('..')) return null;
  const hits = new Set<string>();
  for (const e of [...EXTENSIONS, ...EXTENSIONS.map((x) => `/index${x}`)]) {
    const tail = `${rest}${e}`;
    for (const p of index.byBase.get(tail.slice(tail.lastIndexOf('/') + 1)) ?? []) {
      if ((p === tail || p.endsWith(`/${tail}`)) && !isSkippedPath(p)) hits.add(p);
    }
  }
  return hits.size === 1 ? [...hits][0]! : null;
}

/** The file a path without or with an extension stands for: itself, with an extension, or its index. */
export function fileFor(index: TreeIndex, target: string): string | null {
  if (target !== '' && index.has(target) && /\.[cm]?[jt]sx?$/.test(target)) return target;
  const ext = /\.[a-z]+$/.exec(target)?.[0];
  if (ext !== undefined) {
    for (const swap of SWAPS[ext] ?? []) {
      const p = `${target.slice(0, -ext.length)}${swap}`;
      if (index.has(p)) return p;
    }
  }
  for (const e of EXTENSIONS) if (index.has(`${target}${e}`)) return `${target}${e}`;
  for (const e of EXTENSIONS) {
    const p = joinPath(target, `index${e}`);
    if (index.has(p)) return p;
  }
  return null;
}

/**
 * A bare specifier that names a package of this repository (a monorepo's workspace): the package of
 * that name (its package.json's), else a directory with a package.json named like it; then the
 * package's entry (src/index, index, lib/index) or subpath.
 */
function workspacePackage(index: TreeIndex, spec: string, packages: readonly JsPackage[]): string | null {
  const parts = spec.split('/');
  const scoped = spec.startsWith('@');
  const name = scoped ? parts[1] : parts[0];
  const sub = parts.slice(scoped ? 2 : 1).join('/');
  if (name === undefined || name === '') return null;
  const full = scoped ? `${parts[0]}/${name}` : name;
  const named = packages.filter((p) => p.name === full).map((p) => p.dir);
  const byDir = (index.byBase.get('package.json') ?? [])
    .map(dirName)
    .filter((dir) => dir !== '' && baseName(dir) === name);
  for (const dir of [...named, ...byDir]) {
    if (isSkippedPath(`${dir}/package.json`)) continue;
    const tries = sub === '' ? ['src/index', 'index', 'lib/index', 'src/main', 'main'] : [`src/${sub}`, sub];
    for (const t of tries) {
      const hit = fileFor(index, joinPath(dir, t));
      if (hit !== null) return hit;
    }
  }
  return null;
}
