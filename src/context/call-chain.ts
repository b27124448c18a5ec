// The call chain from the failing test (pure): what its failing part calls, resolved to the definitions
// the calls reach (the same file, what the file imports and what those re-export, the Go package, a
// method of a class the caller uses), then what those call, a few hops down. `sqlparse.split` reaches
// FilterStack.run, StatementSplitter.process and _change_splitlevel; `expr.Compile` reaches the
// checker's ParseCheck, Check and visit; a derive macro reaches the functions generating its code.
import type { Definition, SourceAnalysis } from '../syntax/index.js';
import { callSites, namesUsedIn, type CallSite } from './call-sites.js';
import { lineReader } from './name-uses.js';
import { baseName } from './source-files.js';

/** A file the chain may pass through: its analysis and text. */
export interface ChainFile {
  analysis: SourceAnalysis;
  text: string;
}

/** A part of a file whose calls start the chain (a failing test's failing region). */
export interface ChainRoot {
  path: string;
  start: number;
  end: number;
}

/** One definition on the chain: how many calls below the failing test (0: called by it) and why. */
export interface ChainLink {
  path: string;
  definition: Definition;
  depth: number;
  /** Its place in a depth-first walk of the chain (a callee's callees come before its next sibling). */
  order: number;
  /** The link that calls it (null for what the failing test calls). */
  via: ChainLink | null;
}

/** What followCalls needs besides the files. */
export interface ChainInput {
  files: ReadonlyMap<string, ChainFile>;
  roots: readonly ChainRoot[];
  /** Files the code of a file may call into, nearest first (its imports, its Go package, its conftests). */
  scope(path: string): readonly string[];
  /** Other names a called name stands for (a derive macro's name → the function generating it). */
  aliases?: ReadonlyMap<string, string>;
  /** Names never followed (test frameworks, builtins). */
  skip?: (name: string) => boolean;
}

/** Calls followed below what the failing test calls. */
export const MAX_CHAIN_DEPTH = 3;
/** Links kept at most. */
const MAX_LINKS = 80;
/** Definitions one call may resolve to; more, and the call says nothing about where it goes. */
const MAX_CANDIDATES = 4;
/** Definitions found anywhere (not in scope) a call may resolve to. */
const MAX_ANYWHERE = 2;

const RECEIVERS = new Set(['self', 'this', 'cls', 'Self', 'super']);
const CALLABLE = new Set(['function', 'method', 'class', 'struct', 'macro']);
const CONSTRUCTORS = new Set(['__init__', 'constructor', 'new']);

/**
 * Follow the calls of the roots through their definitions, MAX_CHAIN_DEPTH calls deep; returns the
 * links (each definition once, at the least depth it is reached) and the files in scope of a call not
 * resolved that were not given (reading them may resolve it).
 */
export function followCalls(input: ChainInput): { links: ChainLink[]; unread: string[] } {
  const { files } = input;
  const unread = new Set<string>();
  const readers = new Map<string, (n: number) => string>();
  const lineOf = (path: string): ((n: number) => string) => {
    let r = readers.get(path);
    if (r === undefined) readers.set(path, (r = lineReader(files.get(path)!.text)));
    return r;
  };
  const byName = definitionsByName(files);
  const edges = new Map<string, { path: string; definition: Definition }[]>();

  /** What one call made in `from` (inside `caller`, or a root region) resolves to. */
  const resolve = (call: CallSite, from: string, caller: Definition | null, used: ReadonlySet<string>) => {
    const names = [call.name];
    const alias = input.aliases?.get(call.name);
    if (alias !== undefined) names.push(alias);
    // every callable definition of the name (few), then those of the files in reach
    const all = names.flatMap((n) => byName.get(n) ?? []).filter((f) => f.definition !== caller);
    if (all.length === 0) {
      // defined in no file read: those in reach not read yet may define it
      for (const p of input.scope(from)) if (!files.has(p)) unread.add(p);
      return [];
    }
    const named = (path: string): Definition[] => all.filter((f) => f.path === path).map((f) => f.definition);
    const pick = (found: { path: string; definition: Definition }[]) => narrow(found, call, used);
    // a method of the caller's own class or receiver: `self._reset()`, `v.visit(…)`
    const container = caller === null ? null : containerOf(caller);
    if (container !== null && (RECEIVERS.has(call.qualifier) || call.qualifier !== '')) {
      const own = [from, ...input.scope(from)].flatMap((p) =>
        named(p)
          .filter((d) => containerOf(d) === container)
          .map((definition) => ({ path: p, definition })),
      );
      if (own.length > 0) return own;
    }
    const same = named(from).map((definition) => ({ path: from, definition }));
    if (same.length > 0) return pick(same);
    // what the file imports (and its Go package), then what those re-export
    const direct = input.scope(from);
    for (const p of direct) if (!files.has(p)) unread.add(p);
    const near = direct.flatMap((p) => named(p).map((definition) => ({ path: p, definition })));
    if (near.length > 0) return pick(near);
    const barrels = direct.filter((p) => files.has(p) && isBarrel(p, files.get(p)!.analysis));
    const through = [...new Set(barrels.flatMap((b) => input.scope(b)))];
    for (const p of through) if (!files.has(p)) unread.add(p);
    const far = through.flatMap((p) => named(p).map((definition) => ({ path: p, definition })));
    if (far.length > 0) return pick(far);
    return all.length <= MAX_ANYWHERE ? all : [];
  };

  const callsOf = (path: string, start: number, end: number, test: boolean): CallSite[] =>
    callSites(files.get(path)!.analysis, lineOf(path), start, end, test).filter(
      (c) => c.name.length >= 2 && !(input.skip?.(c.name) ?? false),
    );
  const usedIn = (path: string, start: number, end: number): Set<string> =>
    namesUsedIn(files.get(path)!.analysis, start, end);
  const expand = (found: { path: string; definition: Definition }[]) =>
    found.flatMap((f) => [f, ...constructorsOf(files.get(f.path)!.analysis, f)]);

  // breadth first: each definition at the least depth it is reached
  const depthOf = new Map<string, number>();
  const rootTargets: { path: string; definition: Definition }[] = [];
  for (const r of input.roots) {
    if (!files.has(r.path)) continue;
    const used = usedIn(r.path, r.start, r.end);
    for (const call of callsOf(r.path, r.start, r.end, true)) {
      for (const t of expand(resolve(call, r.path, null, used))) {
        if (!depthOf.has(keyOf(t)) && depthOf.size < MAX_LINKS) {
          depthOf.set(keyOf(t), 0);
          rootTargets.push(t);
        }
      }
    }
  }
  let frontier = rootTargets;
  for (let depth = 0; depth < MAX_CHAIN_DEPTH && frontier.length > 0; depth++) {
    const next: { path: string; definition: Definition }[] = [];
    for (const f of frontier) {
      const d = f.definition;
      if (!walkable(d)) continue;
      const used = usedIn(f.path, d.startLine, d.endLine);
      const out: { path: string; definition: Definition }[] = [];
      for (const call of callsOf(f.path, d.startLine, d.endLine, false)) {
        for (const t of expand(resolve(call, f.path, d, used))) {
          if (keyOf(t) === keyOf(f) || out.some((o) => keyOf(o) === keyOf(t))) continue;
          out.push(t);
          if (!depthOf.has(keyOf(t)) && depthOf.size < MAX_LINKS) {
            depthOf.set(keyOf(t), depth + 1);
            next.push(t);
          }
        }
      }
      edges.set(keyOf(f), out);
    }
    frontier = next;
  }

  // depth first, for the order: a callee's callees come before the caller's next callee
  const links: ChainLink[] = [];
  const placed = new Set<string>();
  const visit = (t: { path: string; definition: Definition }, via: ChainLink | null): void => {
    const key = keyOf(t);
    if (placed.has(key) || !depthOf.has(key)) return;
    placed.add(key);
    const link: ChainLink = { ...t, depth: depthOf.get(key)!, order: links.length, via };
    links.push(link);
    for (const c of edges.get(key) ?? []) if ((depthOf.get(keyOf(c)) ?? -1) > link.depth) visit(c, link);
  };
  for (const t of rootTargets) visit(t, null);
  return { links, unread: [...unread].filter((p) => !files.has(p)) };
}

/** The shortest way to say how a link is reached: `split → FilterStack.run → StatementSplitter.process`. */
export function chainPath(link: ChainLink): string {
  const names: string[] = [];
  for (let l: ChainLink | null = link; l !== null && names.length < 5; l = l.via)
    names.unshift(l.definition.qualifiedName);
  return names.join(' → ');
}

function keyOf(t: { path: string; definition: Definition }): string {
  return `${t.path}#${t.definition.startLine}#${t.definition.qualifiedName}`;
}

/** A definition whose calls are followed: a function, a method or a macro (a class's are its constructor's). */
function walkable(d: Definition): boolean {
  return d.kind === 'function' || d.kind === 'method' || d.kind === 'macro';
}

/** The class, impl or receiver type a method belongs to (null for a plain function). */
function containerOf(d: Definition): string | null {
  const cut = Math.max(d.qualifiedName.lastIndexOf('.'), d.qualifiedName.lastIndexOf('::'));
  return cut <= 0 ? null : d.qualifiedName.slice(0, cut);
}

/** A class's constructor: calling the class runs it. */
function constructorsOf(
  analysis: SourceAnalysis,
  f: { path: string; definition: Definition },
): { path: string; definition: Definition }[] {
  if (f.definition.kind !== 'class' && f.definition.kind !== 'struct') return [];
  const own = f.definition.qualifiedName;
  return analysis.definitions
    .filter((d) => CONSTRUCTORS.has(d.name) && containerOf(d) === own)
    .map((definition) => ({ path: f.path, definition }));
}

/**
 * Of several definitions of a called name, those that belong to what the caller uses: `stack.run(…)`
 * in code that builds a FilterStack is FilterStack.run; a qualified call's own type (`Foo::new`).
 */
function narrow(
  found: { path: string; definition: Definition }[],
  call: CallSite,
  used: ReadonlySet<string>,
): { path: string; definition: Definition }[] {
  if (found.length <= 1) return found;
  // a variable is often named after its type: \`config.Check()\` on a Config
  const q = call.qualifier.toLowerCase();
  const byQualifier = found.filter((f) => containerOf(f.definition)?.split(/\.|::/).at(-1)?.toLowerCase() === q);
  if (byQualifier.length > 0) return byQualifier;
  const ofUsed = found.filter((f) => {
    const c = containerOf(f.definition);
    return c !== null && used.has(c.split(/\.|::/).at(-1)!);
  });
  if (ofUsed.length > 0) return ofUsed.slice(0, MAX_CANDIDATES);
  const plain = found.filter((f) => containerOf(f.definition) === null);
  if (plain.length > 0 && plain.length <= MAX_CANDIDATES && call.qualifier === '') return plain;
  return found.length <= MAX_CANDIDATES ? found : [];
}

/** A file that passes names on without defining code: a package's __init__, an index, lib.rs, mod.rs. */
function isBarrel(path: string, analysis: SourceAnalysis): boolean {
  const base = baseName(path);
  if (/^(?:__init__\.py|index\.[cm]?[jt]sx?|lib\.rs|mod\.rs)$/.test(base)) return true;
  return analysis.definitions.every((d) => d.kind === 'variable' || d.kind === 'const');
}

/** Callable definitions by name, over every file given. */
function definitionsByName(
  files: ReadonlyMap<string, ChainFile>,
): Map<string, { path: string; definition: Definition }[]> {
  const out = new Map<string, { path: string; definition: Definition }[]>();
  for (const [path, f] of files) {
    for (const definition of f.analysis.definitions) {
      if (!CALLABLE.has(definition.kind)) continue;
      const list = out.get(definition.name) ?? [];
      list.push({ path, definition });
      out.set(definition.name, list);
    }
  }
  return out;
}
