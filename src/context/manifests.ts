// The few facts the import resolvers read from manifests: Go module paths, Rust crate names and the
// names of a JS/TS workspace's packages (pure).
import { z } from 'zod';
import { baseName, dirName } from './source-files.js';
import type { TreeIndex } from './tree-index.js';

/** A Go module: the directory of its go.mod and its module path. */
export interface GoModule {
  dir: string;
  path: string;
}

/** A Rust package: the directory of its Cargo.toml and its crate name (`-` as `_`). */
export interface RustCrate {
  dir: string;
  name: string;
}

/** A JS/TS package of the repository: the directory of its package.json and its name (`@acme/core`). */
export interface JsPackage {
  dir: string;
  name: string;
}

/** What the resolvers know about the repository's modules, crates and packages. */
export interface ProjectFacts {
  goModules: readonly GoModule[];
  crates: readonly RustCrate[];
  packages: readonly JsPackage[];
}

/** No manifests read. */
export const NO_FACTS: ProjectFacts = { goModules: [], crates: [], packages: [] };

/** The manifests whose content the resolvers need. */
export function isFactManifest(path: string): boolean {
  const base = baseName(path);
  return base === 'go.mod' || base === 'Cargo.toml' || base === 'package.json';
}

/** The only part of a package.json the resolvers read. */
const PackageJsonSchema = z.object({ name: z.string().min(1).max(214).optional() });

/** Facts from the texts of go.mod and Cargo.toml files, by path. */
export function readFacts(manifests: ReadonlyMap<string, string>): ProjectFacts {
  const goModules: GoModule[] = [];
  const crates: RustCrate[] = [];
  const packages: JsPackage[] = [];
  for (const [path, text] of manifests) {
    if (baseName(path) === 'package.json') {
      const name = packageName(text);
      if (name !== null && path !== 'package.json') packages.push({ dir: dirName(path), name });
    } else if (baseName(path) === 'go.mod') {
      const m = /^\s*module\s+"?([^\s"]+)"?/m.exec(text);
      if (m) goModules.push({ dir: dirName(path), path: m[1]! });
    } else {
      const name = cargoPackageName(text);
      if (name !== null) crates.push({ dir: dirName(path), name: name.replace(/-/g, '_') });
    }
  }
  // deepest first: a file belongs to its nearest manifest
  const deepest = (a: { dir: string }, b: { dir: string }): number => b.dir.length - a.dir.length;
  return { goModules: goModules.sort(deepest), crates: crates.sort(deepest), packages };
}

/** The `name` of a package.json, null when it has none or is not JSON. */
function packageName(text: string): string | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = PackageJsonSchema.safeParse(json);
  return parsed.success ? (parsed.data.name ?? null) : null;
}

/** `name` of Cargo.toml's [package] table (or [lib] name when given), null when it has none. */
function cargoPackageName(text: string): string | null {
  let table = '';
  let pkg: string | null = null;
  let lib: string | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const header = /^\[([^\]]+)\]/.exec(line);
    if (header) {
      table = header[1]!.trim();
      continue;
    }
    const m = /^name\s*=\s*"([^"]+)"/.exec(line);
    if (!m) continue;
    if (table === 'package') pkg = m[1]!;
    else if (table === 'lib') lib = m[1]!;
  }
  return lib ?? pkg;
}

/** The nearest item whose directory contains the path. */
export function nearest<T extends { dir: string }>(items: readonly T[], path: string): T | undefined {
  return items.find((i) => i.dir === '' || path.startsWith(`${i.dir}/`));
}

/** Manifests (go.mod, Cargo.toml, package.json) read at most besides those above a seed file. */
const MAX_MANIFESTS = 30;
/** package.json files read at most to know a JS/TS workspace's package names. */
const MAX_PACKAGE_MANIFESTS = 300;

/** The go.mod, Cargo.toml and package.json files above the seeds, and others while they are few. */
export function manifestsFor(index: TreeIndex, seeds: readonly string[]): string[] {
  const above = (m: string): boolean => {
    const dir = dirName(m);
    return seeds.some((s) => dir === '' || s.startsWith(`${dir}/`));
  };
  const own = [...(index.byBase.get('go.mod') ?? []), ...(index.byBase.get('Cargo.toml') ?? [])];
  const out = own.length <= MAX_MANIFESTS ? own : own.filter(above);
  // a JS/TS workspace's packages are imported by the names in their package.json
  if (seeds.some((s) => /\.[cm]?[jt]sx?$/.test(s))) {
    const packages = (index.byBase.get('package.json') ?? []).filter((p) => !p.includes('node_modules/'));
    out.push(...packages.slice(0, MAX_PACKAGE_MANIFESTS));
  }
  return out;
}
