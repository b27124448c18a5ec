// Which regions of a file too big to show whole are worth showing: the whole enclosing definition
// of each line that matters, the definitions named (strongest first, long containers last), and what
// those call in the same file, two levels deep (pure).
import { enclosingDefinitions, type Definition, type IdentifierUse } from '../syntax/index.js';
import type { LineRange } from './types.js';

/** What makes part of a file worth showing. */
export interface RegionTargets {
  /** Lines named by the failure, or changed so far. */
  lines: readonly number[];
  /** Names the failure leads to (used by the failing code, mentioned in the directive), strongest first. */
  names: readonly string[];
  /** Ranges asked for as they are. */
  ranges: readonly LineRange[];
  /** Names whose users in the file are worth showing too (the method returning the class the test names). */
  callersOf?: readonly string[];
  /** Lines worth a hunk-sized window around them (where the directive's quoted names are). */
  windows?: readonly number[];
  /** The file has no head of imports worth showing (a changelog). */
  noHead?: boolean;
}

/** A candidate region, in the order it should be given room. */
export interface Region extends LineRange {
  why: 'range' | 'line' | 'name' | 'caller' | 'window' | 'callee' | 'imports';
}

/** The longest definition shown whole as a line's region; a longer one is shown around the line. */
export const MAX_REGION_LINES = 160;
/** Lines shown each side of a line outside any definition (or inside one too long to show). */
const WINDOW = 12;
/** Definitions of one name shown at most. */
const MAX_SAME_NAME = 4;
/** Callees added at most (both levels). */
const MAX_CALLEES = 16;
/** Lines of a file's head (its imports) shown when any region is. */
const IMPORT_LINES = 25;
/** The longest function shown whole when a lead names it (a longer one: its head, after the rest). */
export const MAX_FUNCTION_LINES = 400;
/** Users of names added at most, and of one name. */
const MAX_CALLERS = 6;
const MAX_CALLERS_EACH = 3;
/** Lines shown each side of a line a window is asked around (a diff hunk's context and a little more). */
const HUNK_WINDOW = 6;
/** Windows added at most. */
const MAX_WINDOWS = 6;

/** Candidate regions of a file, in priority order (not merged; may overlap). */
export function candidateRegions(
  definitions: readonly Definition[],
  identifiers: readonly IdentifierUse[],
  totalLines: number,
  targets: RegionTargets,
): Region[] {
  const out: Region[] = [];
  const clip = (r: LineRange): LineRange => ({
    start: Math.max(1, Math.min(r.start, totalLines)),
    end: Math.max(1, Math.min(r.end, totalLines)),
  });
  for (const r of targets.ranges) out.push({ ...clip(r), why: 'range' });
  for (const line of targets.lines) {
    if (line > totalLines) continue;
    out.push({ ...clip(lineRegion(definitions, line)), why: 'line' });
  }
  const primary = new Set<Definition>();
  const long: Definition[] = [];
  // the users of what the test names by another spelling (the method that builds the class it names),
  // right after the definitions they use
  const wanted = new Set(targets.callersOf ?? []);
  let callers = 0;
  const addCallers = (name: string): void => {
    // a long class has users everywhere: they say nothing about it
    if (!definitions.some((d) => d.name === name && d.endLine - d.startLine < MAX_REGION_LINES)) return;
    const using = identifiers.filter((id) => id.name === name).map((id) => id.line);
    let own = 0;
    for (const d of definitions) {
      if (callers >= MAX_CALLERS || own >= MAX_CALLERS_EACH) return;
      if (primary.has(d) || d.name === name || (d.kind !== 'function' && d.kind !== 'method')) continue;
      if (d.endLine - d.startLine + 1 > MAX_REGION_LINES || !using.some((l) => d.startLine <= l && l <= d.endLine))
        continue;
      primary.add(d);
      out.push({ ...clip(definitionRegion(d)), why: 'caller' });
      callers++;
      own++;
    }
  };
  const byName = new Map<string, Definition[]>();
  for (const d of definitions) {
    for (const key of d.qualifiedName === d.name ? [d.name] : [d.name, d.qualifiedName]) {
      const list = byName.get(key);
      if (list === undefined) byName.set(key, [d]);
      else list.push(d);
    }
  }
  for (const name of targets.names) {
    const defs = (byName.get(name) ?? []).slice(0, MAX_SAME_NAME);
    for (const d of defs) {
      primary.add(d);
      const lines = d.endLine - d.startLine + 1;
      const fn = d.kind === 'function' || d.kind === 'method';
      // a long function is shown whole where it ranks; a definition too long to show whole (a big
      // class, a huge function) shows only its head, after every short one (and so does a long
      // function that did not fit)
      if (lines > MAX_REGION_LINES && fn && lines <= MAX_FUNCTION_LINES)
        out.push({ ...clip({ start: d.startLine, end: d.endLine }), why: 'name' });
      if (lines > MAX_REGION_LINES) long.push(d);
      else out.push({ ...clip(definitionRegion(d)), why: 'name' });
    }
    if (wanted.has(name)) addCallers(name);
  }
  for (const line of (targets.windows ?? []).slice(0, MAX_WINDOWS)) {
    if (line > totalLines) continue;
    out.push({ ...clip({ start: line - HUNK_WINDOW, end: line + HUNK_WINDOW }), why: 'window' });
  }
  // what the regions so far call in the same file, and what those call: two levels of callees
  let callees = 0;
  for (let level = 0; level < 2; level++) {
    // the lines shown so far, marked once: a big file has tens of thousands of identifiers
    const shown = new Uint8Array(totalLines + 2);
    for (const r of out) shown.fill(1, Math.max(0, r.start), Math.min(totalLines, r.end) + 1);
    const called = new Set<string>();
    for (const id of identifiers) if (shown[id.line] === 1) called.add(id.name);
    for (const d of definitions) {
      if (callees >= MAX_CALLEES) break;
      if (primary.has(d) || !called.has(d.name) || d.kind === 'variable') continue;
      if (d.endLine - d.startLine + 1 > MAX_REGION_LINES && d.kind !== 'function' && d.kind !== 'method') continue;
      if (out.some((r) => r.start <= d.startLine && d.endLine <= r.end)) continue;
      out.push({ ...clip(definitionRegion(d)), why: 'callee' });
      callees++;
    }
  }
  for (const d of long) out.push({ ...clip(definitionRegion(d)), why: 'name' });
  if (out.length > 0 && targets.noHead !== true) {
    const first = definitions.reduce((min, d) => (d.depth === 0 ? Math.min(min, d.startLine) : min), totalLines + 1);
    const head = Math.min(first - 1, IMPORT_LINES, totalLines);
    if (head >= 1) out.push({ start: 1, end: head, why: 'imports' });
  }
  return out;
}

/** The region of one line: its outermost enclosing definition short enough to show, else a window. */
export function lineRegion(definitions: readonly Definition[], line: number): LineRange {
  const { start, end } = regionOf(definitions, line);
  return { start, end };
}

function regionOf(definitions: readonly Definition[], line: number): LineRange & { definition?: Definition } {
  const enclosing = enclosingDefinitions(definitions, line);
  for (const d of enclosing) {
    if (d.endLine - d.startLine + 1 <= MAX_REGION_LINES) return { start: d.startLine, end: d.endLine, definition: d };
  }
  const inner = enclosing.at(-1);
  const lo = inner ? inner.startLine : 1;
  const hi = inner ? inner.endLine : Number.MAX_SAFE_INTEGER;
  return { start: Math.max(lo, line - WINDOW), end: Math.min(hi, line + WINDOW) };
}

/** The regions holding the given ranges (each a line's region, merged), named by their definition. */
export function focusRegions(
  definitions: readonly Definition[],
  totalLines: number,
  points: readonly LineRange[],
): (LineRange & { label: string })[] {
  const parts: (LineRange & { label: string })[] = [];
  for (const c of points) {
    const a = regionOf(definitions, Math.min(c.start, totalLines));
    const b = regionOf(definitions, Math.min(c.end, totalLines));
    const start = Math.max(1, Math.min(a.start, b.start));
    const end = Math.min(totalLines, Math.max(a.end, b.end));
    const same = a.definition !== undefined && a.definition === b.definition;
    parts.push({ start, end, label: same ? a.definition!.qualifiedName : `lines ${start}-${end}` });
  }
  parts.sort((x, y) => x.start - y.start);
  const out: (LineRange & { label: string })[] = [];
  for (const p of parts) {
    const last = out.at(-1);
    if (last && p.start <= last.end + 1) {
      last.end = Math.max(last.end, p.end);
      last.label = last.label === p.label ? last.label : `lines ${last.start}-${last.end}`;
    } else out.push({ ...p });
  }
  return out.filter((p) => p.end >= p.start);
}

/** A definition's region: all of it, or its head when it is too long. */
function definitionRegion(d: Definition): LineRange {
  return { start: d.startLine, end: Math.min(d.endLine, d.startLine + MAX_REGION_LINES - 1) };
}

/** Sorted, merged ranges (touching or a few lines apart become one). */
export function mergeRanges(ranges: readonly LineRange[], gap = 3): LineRange[] {
  const sorted = [...ranges].map((r) => ({ start: r.start, end: r.end })).sort((a, b) => a.start - b.start);
  const out: LineRange[] = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last && r.start <= last.end + gap + 1) last.end = Math.max(last.end, r.end);
    else out.push(r);
  }
  return out;
}

/** A part of the text left out of a rendering, with the marker that stands in for it. */
export interface Cut extends LineRange {
  marker: string;
}

/**
 * The file's regions with a marker before each saying its first and last line, and one for each gap
 * between them; lines of `cuts` are replaced by their marker.
 */
export function renderRegions(
  lines: readonly string[],
  ranges: readonly LineRange[],
  cuts: readonly Cut[] = [],
): string {
  const total = lines.length;
  const out: string[] = [];
  let next = 1;
  for (const r of ranges) {
    if (r.start > next) out.push(`[... lines ${next}-${r.start - 1} not shown ...]`);
    out.push(`[lines ${r.start}-${r.end}]`);
    out.push(...withCuts(lines, r, cuts));
    next = r.end + 1;
  }
  if (next <= total) out.push(`[... lines ${next}-${total} not shown ...]`);
  return out.join('\n');
}

/** The whole text with the lines of `cuts` replaced by their marker. */
export function renderWhole(text: string, lines: readonly string[], cuts: readonly Cut[]): string {
  if (cuts.length === 0) return text;
  return `${withCuts(lines, { start: 1, end: lines.length }, cuts).join('\n')}\n`;
}

function withCuts(lines: readonly string[], r: LineRange, cuts: readonly Cut[]): string[] {
  const out: string[] = [];
  for (let n = r.start; n <= r.end; n++) {
    const cut = cuts.find((c) => c.start <= n && n <= c.end);
    if (cut === undefined) out.push(lines[n - 1]!);
    else if (n === Math.max(cut.start, r.start)) out.push(cut.marker);
  }
  return out;
}
