// The budgeted choice of what the prompt shows: ranked files whole or as regions, then the map (pure).
import type { SourceAnalysis } from '../syntax/index.js';
import {
  candidateRegions,
  focusRegions,
  mergeRanges,
  renderRegions,
  renderWhole,
  type Cut,
  type RegionTargets,
} from './regions.js';
import { buildRepositoryMap, type MapCandidate } from './repo-map.js';
import type { LineRange, RepositoryMap, ShownFile, ShownReason } from './types.js';

/** A file the context may show, with what is known about it. */
export interface Candidate {
  path: string;
  reason: ShownReason;
  detail: string;
  /** Hops from the failure, the directive or the changes (0 for those files themselves). */
  distance: number;
  /** Discovery order, for ties. */
  order: number;
  /** The text read (null when it was not read or is not text). */
  text: string | null;
  /** The text was cut at the reader's cap. */
  truncated: boolean;
  analysis: SourceAnalysis | null;
  /**
   * Worth showing, not only outlining: a seed, a direct import of one, a file defining a name the failure
   * leads to, or holding a message it prints. Others go to the map unless the repository is shown whole.
   */
  relevant: boolean;
  /** What its strongest lead is worth (see leads.ts's WEIGHT; 0: none): orders the files past the seeds. */
  score: number;
  /** Its place on the call chain from the failing test (orders files of the same worth; Infinity: not on it). */
  chainOrder?: number;
  /** Only the call chain leads to it: shown whole only when small, else as the chain's regions. */
  onlyChain?: boolean;
  targets: RegionTargets;
  /** Names whose definitions are in focus (the strongest leads), when it is not a test. */
  focusNames: readonly string[];
  /** New-side line ranges changed so far (empty for a file not changed). */
  changedRanges: readonly LineRange[];
  changed: boolean;
  test: boolean;
}

/** The sizes the context must fit. */
export interface ContextBudget {
  /** Characters of shown files, markers included. */
  chars: number;
  /** A file larger than this is shown as regions. */
  fileMaxBytes: number;
  /** Characters of the repository map. */
  mapChars: number;
}

/** The share of file_max_bytes up to which a file only the call chain leads to is shown whole. */
const CHAIN_WHOLE_SHARE = 0.5;

/** Characters each shown file costs beyond its text (heading, fence). */
export const FILE_OVERHEAD = 80;

const REASON_RANK: Record<ShownReason, number> = {
  asked: 0,
  failure: 1,
  directive: 2,
  changed: 3,
  import: 4,
  map: 5,
  repository: 6,
};

/**
 * Candidates in the order they are given room: the files the failure, the directive or the changes name
 * (by reason); then the others by their strongest lead (a definition the failing test calls before one it
 * only uses, before a file merely imported), then by distance, reason and references.
 */
export function rankCandidates(candidates: readonly Candidate[], references: ReadonlyMap<string, number>): Candidate[] {
  const refs = (c: Candidate): number =>
    (c.analysis?.definitions ?? []).reduce((n, d) => n + (references.get(d.name) ?? 0), 0);
  const counted = new Map(candidates.map((c) => [c, refs(c)]));
  const seed = (c: Candidate): number => (c.distance === 0 ? 0 : 1);
  return [...candidates].sort(
    (a, b) =>
      seed(a) - seed(b) ||
      (seed(a) === 0 ? 0 : b.score - a.score) ||
      ascending(a.chainOrder ?? Infinity, b.chainOrder ?? Infinity) ||
      a.distance - b.distance ||
      REASON_RANK[a.reason] - REASON_RANK[b.reason] ||
      (counted.get(b) ?? 0) - (counted.get(a) ?? 0) ||
      a.order - b.order,
  );
}

/** -1, 0 or 1 as x is below, equal to or above y (Infinity equals itself). */
function ascending(x: number, y: number): number {
  return x === y ? 0 : x < y ? -1 : 1;
}

/**
 * Choose, in rank order, each file whole (when it is at most fileMaxBytes and fits) or as the regions
 * that matter (as many as fit); then outline the rest in the map. With `wholeRepository` every
 * candidate is shown whole.
 */
export function planContext(
  ranked: readonly Candidate[],
  budget: ContextBudget,
  references: ReadonlyMap<string, number>,
  wholeRepository = false,
): { files: ShownFile[]; map: RepositoryMap | null } {
  const files: ShownFile[] = [];
  const outlined: MapCandidate[] = [];
  let left = budget.chars;
  for (const c of ranked) {
    if (c.text === null) continue;
    if (!c.relevant && !wholeRepository) {
      if (c.analysis !== null)
        outlined.push({ path: c.path, definitions: c.analysis.definitions, distance: c.distance, references });
      continue;
    }
    const lines = splitText(c.text);
    const parts = focusOf(c, lines.length);
    const cuts: Cut[] = parts.map((p) => ({ ...p, marker: `[... ${p.label}: shown below, in "Code in focus" ...]` }));
    const shown = (whole: boolean, ranges: LineRange[], text: string): ShownFile => ({
      path: c.path,
      reason: c.reason,
      detail: c.detail,
      whole,
      ranges,
      totalLines: lines.length,
      text,
      stableText: whole ? renderWhole(text, lines, cuts) : renderRegions(lines, ranges, cuts),
      focusParts: parts
        .filter((p) => ranges.some((r) => r.start <= p.start && p.end <= r.end))
        .map((p) => ({
          ...p,
          changed: c.changedRanges.some((r) => r.start <= p.end && p.start <= r.end),
          text: lines.slice(p.start - 1, p.end).join('\n'),
        })),
      changed: c.changed,
      test: c.test,
    });
    const wholeCost = c.text.length + FILE_OVERHEAD;
    const wholeMax = budget.fileMaxBytes * (c.onlyChain === true ? CHAIN_WHOLE_SHARE : 1);
    const fitsWhole = !c.truncated && (wholeRepository || c.text.length <= wholeMax) && wholeCost <= left;
    if (fitsWhole && !(c.reason === 'asked' && c.targets.ranges.length > 0)) {
      files.push(shown(true, [{ start: 1, end: Math.max(1, lines.length) }], c.text));
      left -= wholeCost;
      continue;
    }
    const ranges = chooseRegions(c, lines, Math.min(left, budget.fileMaxBytes + FILE_OVERHEAD));
    if (ranges.length > 0) {
      const text = renderRegions(lines, ranges);
      files.push(shown(false, ranges, text));
      left -= text.length + FILE_OVERHEAD;
    } else if (c.analysis !== null) {
      outlined.push({ path: c.path, definitions: c.analysis.definitions, distance: c.distance, references });
    }
  }
  return { files, map: budget.mapChars > 0 ? buildRepositoryMap(outlined, budget.mapChars) : null };
}

/** Focus parts of one file at most. */
const MAX_FOCUS_PARTS = 6;
/** Kinds of definitions that become focus parts when the failing code uses them. */
const FOCUS_KINDS = new Set(['function', 'method', 'class', 'struct', 'enum', 'impl', 'trait', 'interface', 'type']);

/**
 * The parts of a file in focus: what the changes so far touched, the regions of the lines the failure
 * names, and (outside tests) the definitions the failing code uses, at most MAX_FOCUS_PARTS.
 */
function focusOf(c: Candidate, totalLines: number): (LineRange & { label: string })[] {
  const defs = c.analysis?.definitions ?? [];
  const points: LineRange[] = [...c.changedRanges];
  if (!c.test) {
    for (const l of c.targets.lines) points.push({ start: l, end: l });
    const names = new Set(c.focusNames);
    for (const d of defs) {
      if (names.has(d.name) && FOCUS_KINDS.has(d.kind)) points.push({ start: d.startLine, end: d.startLine });
    }
  }
  // the first points only: more could never make fewer parts, and each try costs all of them
  const first = points.slice(0, MAX_FOCUS_PARTS * 2);
  let parts = focusRegions(defs, totalLines, first);
  for (let k = first.length - 1; parts.length > MAX_FOCUS_PARTS && k > 0; k--) {
    parts = focusRegions(defs, totalLines, first.slice(0, k));
  }
  return parts.slice(0, MAX_FOCUS_PARTS);
}

/** The regions of a file that fit `room` characters, most important first, merged and sorted. */
function chooseRegions(c: Candidate, lines: readonly string[], room: number): LineRange[] {
  const analysis = c.analysis;
  const regions = candidateRegions(analysis?.definitions ?? [], analysis?.identifiers ?? [], lines.length, c.targets);
  // the characters of the lines before each line, to price a trial without rendering it
  const before = new Array<number>(lines.length + 1);
  before[0] = 0;
  for (let i = 0; i < lines.length; i++) before[i + 1] = before[i]! + lines[i]!.length;
  let chosen: LineRange[] = [];
  for (const r of regions) {
    const trial = mergeRanges([...chosen, r]);
    if (renderedLength(before, lines.length, trial) + FILE_OVERHEAD <= room) chosen = trial;
  }
  return chosen;
}

/** The length of renderRegions(lines, ranges), from the lines' prefix sums of lengths. */
export function renderedLength(before: readonly number[], total: number, ranges: readonly LineRange[]): number {
  let chars = 0;
  let parts = 0;
  let next = 1;
  for (const r of ranges) {
    if (r.start > next) {
      chars += `[... lines ${next}-${r.start - 1} not shown ...]`.length;
      parts++;
    }
    chars += `[lines ${r.start}-${r.end}]`.length + before[r.end]! - before[r.start - 1]!;
    parts += 1 + r.end - r.start + 1;
    next = r.end + 1;
  }
  if (next <= total) {
    chars += `[... lines ${next}-${total} not shown ...]`.length;
    parts++;
  }
  return chars + Math.max(0, parts - 1);
}

/** A text's lines, without a phantom line after the final newline. */
export function splitText(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}
