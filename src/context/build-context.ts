// Build what the prompt shows: seed files (failure, directive, changes, asked), their imports to
// depth two, each read once and parsed once per blob, then the budgeted plan. Reads only what it ranks.
import { languageForPath, type SourceAnalysis } from '../syntax/index.js';
import { directiveRefs } from './directive-refs.js';
import { failureFiles } from './failure-files.js';
import { readFailureReport } from './failure-report.js';
import { findDefinitionsByName, findTestsByName } from './find-by-name.js';
import { goPackageFiles, resolveImport } from './imports/index.js';
import { isFactManifest, readFacts } from './manifests.js';
import type { ParseCache } from './parse-cache.js';
import { FILE_OVERHEAD, planContext, rankCandidates, type Candidate, type ContextBudget } from './plan.js';
import { lineRegion } from './regions.js';
import { dirName, isSkippedPath, isTestPath } from './source-files.js';
import type { ContextSource } from './source.js';
import type { TreeIndex } from './tree-index.js';
import type { AskedItem, ContextEntry, ContextResult, ContextText, LineRange, ShownReason } from './types.js';

/** What the context is built from. */
export interface ContextInput {
  /** The tree at the head the prompt shows. */
  tree: readonly ContextEntry[];
  directive: string;
  /** The last test run's output when it failed ('' when it passed or has not run). */
  failureOutput: string;
  /** Files changed so far and their new-side line ranges (see changedRanges). */
  changed: ReadonlyMap<string, readonly LineRange[]>;
  /** Files and ranges a caller adds (the model asked for them). */
  asked?: readonly AskedItem[];
  budget: ContextBudget;
  /** The sandbox's workspace path, stripped from absolute paths in test output (default /workspace). */
  workdir?: string;
}

/** Hops followed from the seed files. */
const MAX_DEPTH = 2;
/** Files added per hop at most. */
const MAX_FILES_PER_DEPTH = 40;
/** Bytes read for one context at most (files past it are left out). */
const MAX_READ_BYTES = 8 * 1024 * 1024;
/** Manifests (go.mod, Cargo.toml) read at most besides those above a seed file. */
const MAX_MANIFESTS = 30;

interface Node {
  path: string;
  reason: ShownReason;
  detail: string;
  distance: number;
  order: number;
  /** Reached by an import statement (not only as a file of the same Go package). */
  imported: boolean;
  lines: number[];
  names: Set<string>;
  ranges: LineRange[];
}

/** Build the context for one prompt, reading through `source` and parsing through `cache`. */
export async function buildContext(
  input: ContextInput,
  source: ContextSource,
  cache: ParseCache,
): Promise<ContextResult> {
  const index = cache.index(input.tree);
  const nodes = new Map<string, Node>();
  const node = (path: string, reason: ShownReason, detail: string, distance: number): Node | null => {
    if (!index.has(path)) return null;
    let n = nodes.get(path);
    if (n === undefined) {
      n = {
        path,
        reason,
        detail,
        distance,
        order: nodes.size,
        imported: false,
        lines: [],
        names: new Set(),
        ranges: [],
      };
      nodes.set(path, n);
    } else if (distance < n.distance) Object.assign(n, { reason, detail, distance });
    return n;
  };

  // the seeds: asked, the failure, the directive, the changes so far
  for (const a of input.asked ?? []) node(a.path, 'asked', 'asked for', 0)?.ranges.push(...(a.ranges ?? []));
  const report = input.failureOutput.trim() === '' ? null : readFailureReport(input.failureOutput, input.workdir);
  for (const f of report ? failureFiles(report, index) : []) {
    const detail = f.lines.length ? `line ${f.lines.slice(0, 3).join(', ')} in the failure` : 'named by the failure';
    node(f.path, 'failure', detail, 0)?.lines.push(...f.lines);
  }
  const refs = directiveRefs(input.directive, index);
  for (const p of refs.paths) node(p, 'directive', 'named in the directive', 0);
  // files changed so far lead somewhere only when nothing else does; otherwise they are added after
  // the imports are followed, keeping the rank (and order) they had before they changed
  let changedAdded = false;
  const addChanged = (): void => {
    if (changedAdded) return;
    changedAdded = true;
    for (const [p, ranges] of input.changed) {
      const n = nodes.get(p) ?? node(p, 'changed', 'changed so far', 0);
      n?.lines.push(...ranges.flatMap((r) => [r.start, r.end]));
    }
  };
  if (
    report &&
    report.testNames.length > 0 &&
    ![...nodes.values()].some((n) => n.reason === 'failure' && isTestPath(n.path))
  ) {
    for (const hit of await findTestsByName(report.testNames, index, source)) {
      node(hit.path, 'failure', `holds the failing test "${hit.name.slice(0, 60)}"`, 0)?.lines.push(hit.line);
    }
  }
  if (nodes.size === 0) addChanged();
  // nothing else to go on (no failure, no path, no change): look for what the directive names
  if (nodes.size === 0) {
    for (const hit of await findDefinitionsByName(refs.names, index, source)) {
      node(hit.path, 'directive', `defines ${hit.name}`, 0)?.names.add(hit.name);
    }
  }
  for (const n of nodes.values()) for (const name of refs.names) n.names.add(name);

  // read: everything when the repository is small, else the seeds and their imports hop by hop
  const texts = new Map<string, ContextText>();
  const analyses = new Map<string, SourceAnalysis>();
  let readBytes = 0;
  const readAll = async (paths: readonly string[]): Promise<void> => {
    const entries: ContextEntry[] = [];
    const fresh: ContextText[] = [];
    for (const p of paths) {
      const e = index.byPath.get(p);
      if (e === undefined || texts.has(p) || readBytes + e.size > MAX_READ_BYTES) continue;
      readBytes += e.size;
      const known = cache.text(e.oid);
      if (known) fresh.push({ ...known, path: p });
      else entries.push(e);
    }
    const read = entries.length === 0 ? [] : await source.read(entries);
    for (const t of read) cache.remember(t);
    for (const t of [...fresh, ...read]) texts.set(t.path, t);
    await Promise.all(
      [...fresh, ...read].map(async (t) => {
        const a = await cache.analyze(t.path, t.oid, t.text);
        if (a) analyses.set(t.path, a);
      }),
    );
  };
  const sourceBytes = index.sources.reduce((n, p) => n + index.byPath.get(p)!.size + FILE_OVERHEAD, 0);
  const wholeRepository = index.sources.length > 0 && sourceBytes <= input.budget.chars;
  const seeds = [...nodes.keys()];
  await readAll([...seeds, ...manifestsFor(index, seeds), ...(wholeRepository ? index.sources : [])]);
  const facts = readFacts(new Map([...texts].filter(([p]) => isFactManifest(p)).map(([p, t]) => [p, t.text])));

  // names the failing code uses, counted: they rank imported files and pick their regions
  const references = new Map<string, number>();
  const focusNames = new Map<string, string[]>();
  for (const n of nodes.values()) {
    if (n.distance !== 0) continue;
    const names = focusIdentifiers(n, analyses.get(n.path));
    focusNames.set(n.path, names);
    for (const name of names) references.set(name, (references.get(name) ?? 0) + 1);
  }

  let frontier = [...nodes.values()].filter((n) => n.distance === 0);
  for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0; depth++) {
    const next: Node[] = [];
    const add = (path: string, detail: string, names: readonly string[], imported: boolean): void => {
      if (isSkippedPath(path)) return;
      const known = nodes.has(path);
      if (!known && next.length >= MAX_FILES_PER_DEPTH) return;
      const n = node(path, 'import', detail, depth + 1);
      if (n === null) return;
      if (n.distance === depth + 1) n.imported ||= imported;
      for (const name of names) n.names.add(name);
      if (!known) next.push(n);
    };
    for (const from of frontier) {
      const analysis = analyses.get(from.path);
      const language = languageForPath(from.path);
      if (analysis === undefined || language === null) continue;
      const used = focusNames.get(from.path) ?? [];
      for (const ref of analysis.imports) {
        for (const r of resolveImport(ref, from.path, language, index, facts)) {
          add(r.path, `imported by ${from.path}`, [...r.names, ...used], true);
        }
      }
      if (language === 'go') {
        for (const p of goPackageFiles(index, dirName(from.path))) {
          if (p !== from.path) add(p, `in the Go package of ${from.path}`, used, false);
        }
      }
    }
    await readAll(next.map((n) => n.path));
    // what the definitions the failing code uses use in turn: followed into the next hop's files
    for (const n of next) focusNames.set(n.path, usedByDefinitions(n, analyses.get(n.path)));
    frontier = next;
  }

  addChanged();
  await readAll([...input.changed.keys()]);

  const candidates: Candidate[] = [];
  const push = (n: Omit<Node, 'lines' | 'names' | 'ranges'> & Partial<Node>): void => {
    const t = texts.get(n.path);
    candidates.push({
      path: n.path,
      reason: n.reason,
      detail: n.detail,
      distance: n.distance,
      order: n.order,
      text: t?.text ?? null,
      truncated: t?.truncated ?? false,
      analysis: analyses.get(n.path) ?? null,
      relevant:
        n.distance === 0 || (n.imported === true && n.distance === 1) || definesAny(analyses.get(n.path), n.names),
      targets: { lines: n.lines ?? [], names: [...(n.names ?? [])], ranges: n.ranges ?? [] },
      changedRanges: input.changed.get(n.path) ?? [],
      changed: input.changed.has(n.path),
      test: isTestPath(n.path),
    });
  };
  for (const n of nodes.values()) push(n);
  if (wholeRepository) {
    for (const p of index.sources) {
      if (!nodes.has(p)) {
        push({ path: p, reason: 'repository', detail: 'small repository', distance: 99, order: 0, imported: false });
      }
    }
  }
  const ranked = rankCandidates(candidates, references);
  const plan = planContext(ranked, input.budget, references, wholeRepository);
  return {
    files: plan.files,
    map: plan.map,
    wholeRepository: wholeRepository && plan.files.length >= index.sources.length,
    sourceFiles: index.sources.length,
    read: [...texts.values()],
  };
}

/** The file defines one of the names. */
function definesAny(analysis: SourceAnalysis | undefined, names: ReadonlySet<string> | undefined): boolean {
  return analysis !== undefined && names !== undefined && analysis.definitions.some((d) => names.has(d.name));
}

/** The names used inside the definitions of a file that the failing code (or a nearer file) uses. */
function usedByDefinitions(n: Node, analysis: SourceAnalysis | undefined): string[] {
  if (analysis === undefined) return [];
  const used = analysis.definitions.filter((d) => n.names.has(d.name));
  return analysis.identifiers
    .filter((i) => used.some((d) => d.startLine <= i.line && i.line <= d.endLine))
    .map((i) => i.name);
}

/** The go.mod and Cargo.toml files above the seeds, and others while they are few. */
function manifestsFor(index: TreeIndex, seeds: readonly string[]): string[] {
  const all = [...(index.byBase.get('go.mod') ?? []), ...(index.byBase.get('Cargo.toml') ?? [])];
  if (all.length <= MAX_MANIFESTS) return all;
  return all.filter((m) => {
    const dir = dirName(m);
    return seeds.some((s) => dir === '' || s.startsWith(`${dir}/`));
  });
}

/** The names a seed file's failing part uses: inside the regions of its named lines, else the whole file. */
function focusIdentifiers(n: Node, analysis: SourceAnalysis | undefined): string[] {
  if (analysis === undefined) return [];
  const lines = n.lines.filter((l) => l > 0);
  if (lines.length === 0) return analysis.identifiers.map((i) => i.name);
  const regions = lines.map((l) => lineRegion(analysis.definitions, l));
  return analysis.identifiers
    .filter((i) => regions.some((r) => r.start <= i.line && i.line <= r.end))
    .map((i) => i.name);
}
