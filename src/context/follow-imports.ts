// Following imports from the files the failure names: every import for two hops, and further only
// where a name the failure leads to may be defined (re-exports, `__init__` chains, `pub use`, barrel
// files), carrying those names along: a file defining one passes on what that definition calls.
import { languageForPath, type SourceAnalysis } from '../syntax/index.js';
import { goPackageFiles, resolveImport, type ResolvedImport } from './imports/index.js';
import type { ProjectFacts } from './manifests.js';
import { words } from './name-tokens.js';
import type { ContextReader } from './reader.js';
import { MAX_REGION_LINES } from './regions.js';
import { dirName, isSkippedPath, isTestPath } from './source-files.js';
import { conftestsAbove, type TreeIndex } from './tree-index.js';
import type { ShownReason } from './types.js';

/** A file the context may show, as the build learns about it. */
export interface ContextNode {
  path: string;
  reason: ShownReason;
  detail: string;
  /** Hops from the files the failure, the directive or the changes name (0 for those). */
  distance: number;
  order: number;
  /** Reached by an import statement (not only as a file of the same Go package). */
  imported: boolean;
  /** Lines that matter (named by the failure, holding a message it prints, changed so far). */
  lines: number[];
  ranges: { start: number; end: number }[];
  /** Names the failure leads here for, with how many more hops each may be passed on. */
  carried: Map<string, number>;
  /** Why it is shown when a message or a data file led to it (null: its distance and leads say why). */
  lead: { weight: number; detail: string } | null;
}

/** Hops every import is followed. */
const GENERAL_HOPS = 2;
/** Hops an import carrying a name is followed at most. */
export const MAX_HOPS = 8;
/** Hops a name a definition calls is carried. */
const CALLEE_HOPS = 2;
/** Files added per hop at most. */
const MAX_FILES_PER_HOP = 40;
/** Files added past the general hops at most. */
const MAX_DEEP_FILES = 120;
/** Re-exports of one file past which only those whose paths name a carried name are followed. */
const MAX_BARREL_EDGES = 8;

/** Adds a file (or finds it) at a distance; null when the tree has no such file. */
export type AddNode = (path: string, detail: string, distance: number) => ContextNode | null;

/** Follow the imports of `seeds` hop by hop, reading each hop's files; returns the nodes added. */
export async function followImports(
  seeds: readonly ContextNode[],
  add: AddNode,
  reader: ContextReader,
  index: TreeIndex,
  facts: ProjectFacts,
): Promise<ContextNode[]> {
  const added: ContextNode[] = [];
  // the words of names, each split once (the same names are carried by many files)
  const split = new Map<string, string[]>();
  const wordsOf = (name: string): string[] => {
    let w = split.get(name);
    if (w === undefined) split.set(name, (w = words(name)));
    return w;
  };
  let frontier = [...seeds];
  let deep = 0;
  for (let depth = 0; depth < MAX_HOPS && frontier.length > 0; depth++) {
    const general = depth < GENERAL_HOPS;
    const wanted = new Map<string, { detail: string; carried: Map<string, number>; imported: boolean; rank: number }>();
    const offer = (
      path: string,
      detail: string,
      carried: Map<string, number>,
      imported: boolean,
      rank: number,
    ): void => {
      if (isSkippedPath(path)) return;
      const known = wanted.get(path);
      if (known === undefined) wanted.set(path, { detail, carried: new Map(carried), imported, rank });
      else {
        merge(known.carried, carried);
        known.imported ||= imported;
        known.rank = Math.max(known.rank, rank);
      }
    };
    for (const from of frontier) {
      const analysis = reader.analyses.get(from.path);
      const language = languageForPath(from.path);
      if (analysis === undefined || language === null) continue;
      const pass = passedOn(from, analysis);
      if (!general && pass.size === 0) continue;
      let edges = analysis.imports
        .flatMap((ref) => resolveImport(ref, from.path, language, index, facts))
        .map((r) => ({ path: r.path, rank: relevance(r, pass) }))
        .filter((e) => general || e.rank > 0);
      // past the general hops, a barrel of many re-exports is followed where its paths name what is carried
      if (!general && edges.length > MAX_BARREL_EDGES) {
        const words = new Set([...pass.keys()].flatMap(wordsOf));
        const named = edges.filter((e) => e.rank === 2 || pathWords(e.path, words) > 0);
        if (named.length > 0) edges = named;
      }
      for (const e of edges) offer(e.path, `imported by ${from.path}`, pass, true, e.rank);
      // pytest loads the conftest.py files above a test: its fixtures are imports in all but name
      if (language === 'python' && isTestPath(from.path)) {
        for (const p of conftestsAbove(index, from.path)) offer(p, `conftest of ${from.path}`, pass, true, 1);
      }
      if (language === 'go' && general) {
        for (const p of goPackageFiles(index, dirName(from.path))) {
          if (p !== from.path) offer(p, `in the Go package of ${from.path}`, pass, false, 0);
        }
      }
    }
    // the most promising first when there are more than a hop takes: names, then path words
    const names = new Set([...new Set(frontier.flatMap((f) => [...f.carried.keys()]))].flatMap(wordsOf));
    const near = new Map([...wanted.keys()].map((p) => [p, pathWords(p, names)]));
    const ordered = [...wanted].sort(([pa, a], [pb, b]) => b.rank - a.rank || near.get(pb)! - near.get(pa)!);
    const next: ContextNode[] = [];
    for (const [path, w] of ordered) {
      const fresh = !reader.texts.has(path) && added.every((n) => n.path !== path);
      if (fresh && (next.length >= MAX_FILES_PER_HOP || (!general && deep >= MAX_DEEP_FILES))) continue;
      const n = add(path, w.detail, depth + 1);
      if (n === null) continue;
      merge(n.carried, w.carried);
      if (n.distance === depth + 1) n.imported ||= w.imported;
      if (!fresh) continue;
      if (!general) deep++;
      next.push(n);
      added.push(n);
    }
    await reader.read(next.map((n) => n.path));
    frontier = next;
  }
  return added;
}

/**
 * The names a file passes on to what it imports: those it does not define (it re-exports them) with one
 * hop less (none less through a file that only re-exports: a barrel or an `__init__`), and what its
 * definitions of the others use, for CALLEE_HOPS.
 */
function passedOn(from: ContextNode, analysis: SourceAnalysis): Map<string, number> {
  const out = new Map<string, number>();
  const barrel = analysis.definitions.length === 0 && analysis.imports.length > 0;
  for (const [name, hops] of from.carried) {
    if (hops <= 0) continue;
    const defs = analysis.definitions.filter((d) => d.name === name);
    if (defs.length === 0) {
      setMax(out, name, barrel ? hops : hops - 1);
      continue;
    }
    for (const d of defs) {
      // a long class or impl: what it uses is all of its members, no lead
      if (d.endLine - d.startLine >= MAX_REGION_LINES && d.kind !== 'function' && d.kind !== 'method') continue;
      for (const id of analysis.identifiers) {
        if (id.line >= d.startLine && id.line <= d.endLine && id.name !== name)
          setMax(out, id.name, Math.min(hops - 1, CALLEE_HOPS));
      }
    }
  }
  return out;
}

/** How promising an import is: 2 when it names a carried name, 1 for a whole module or a glob, 0 otherwise. */
function relevance(r: ResolvedImport, pass: ReadonlyMap<string, number>): number {
  const named = r.names.filter((n) => n !== '*');
  if (named.some((n) => pass.has(n))) return 2;
  if (pass.size > 0 && (named.length === 0 || r.names.includes('*'))) return 1;
  return 0;
}

/** How many of a path's words (of its last two segments) are words of the names. */
function pathWords(path: string, names: ReadonlySet<string>): number {
  return path
    .split('/')
    .slice(-2)
    .flatMap((s) => words(s.replace(/\.[^.]*$/, '')))
    .filter((w) => names.has(w)).length;
}

function merge(into: Map<string, number>, from: ReadonlyMap<string, number>): void {
  for (const [k, v] of from) setMax(into, k, v);
}

function setMax(m: Map<string, number>, k: string, v: number): void {
  if ((m.get(k) ?? -1) < v) m.set(k, v);
}
