// Context the file has moved away from: lines of the file that stand between an edit's lines (its
// context skips them), and a placement that would leave, right beside the edit, a line its change
// replaces or already holds (the file changed around it). Both are refused with the closest region.
import { looseLine } from './file-text.js';

/** A line of the file, 1-based, with its text. */
export interface FileLine {
  line: number;
  text: string;
}

/** At most this many lines between an edit's lines count as skipped (more: the lines are elsewhere). */
const MAX_SKIPPED = 3;
/** Lines shorter than these (ignoring whitespace) say too little to be taken as repeated or merged. */
const MIN_REPEATED = 6;
const MIN_MERGED = 12;

/**
 * The lines of `file` that stand between the lines of `want` where all of them are, in order, with
 * at most three other lines among them (the place nearest `stated`, 0-based). Empty when there is
 * no such place, or the lines stand next to each other.
 */
export function skippedLines(file: readonly string[], want: readonly string[], stated: number | null): FileLine[] {
  const w = want.map(looseLine);
  const first = w.findIndex((l) => l !== '');
  if (first < 0 || w.filter((l) => l !== '').length < 2) return [];
  const f = file.map(looseLine);
  let best: FileLine[] = [];
  let bestAt = -1;
  const ref = stated ?? 0;
  for (let p = 0; p < f.length; p++) {
    if (f[p] !== w[first]) continue;
    const skipped: number[] = [];
    let j = first + 1;
    let q = p + 1;
    while (j < w.length && q < f.length && skipped.length <= MAX_SKIPPED) {
      if (f[q] === w[j]) j++;
      else skipped.push(q);
      q++;
    }
    if (j < w.length || skipped.length === 0 || skipped.length > MAX_SKIPPED) continue;
    if (bestAt < 0 || Math.abs(p - ref) < Math.abs(bestAt - ref)) {
      bestAt = p;
      best = skipped.map((k) => ({ line: k + 1, text: file[k]! }));
    }
  }
  return best;
}

/** What a placed edit removes and adds, and whether it has unchanged lines at its first and last line. */
export interface PlacedEdit {
  removed: readonly string[];
  added: readonly string[];
  /** Its first line (last line) is one it keeps: the file line beside it there is its own context. */
  keepsFirst: boolean;
  keepsLast: boolean;
}

/**
 * The file line right beside an edit placed at lines [at, at + count) (0-based), on a side where
 * the edit has no context of its own, that repeats its change: a line it removes (it would stand
 * next to its replacement), or, for an edit that replaces lines, a line whose text one of its
 * added lines holds and none of its removed lines does (the edit merges it). Null when there is none.
 */
export function repeatedBeside(file: readonly string[], at: number, count: number, edit: PlacedEdit): FileLine | null {
  if (edit.added.every((l) => l.trim() === '')) return null;
  const removed = edit.removed.map(looseLine).filter((l) => l !== '');
  const added = edit.added.map(looseLine);
  const sides = [edit.keepsFirst ? -1 : at - 1, edit.keepsLast ? -1 : at + count];
  for (const p of sides) {
    if (p < 0 || p >= file.length) continue;
    const l = looseLine(file[p]!);
    if (!/\w/.test(l)) continue;
    const replaced = l.length >= MIN_REPEATED && removed.includes(l);
    const merged =
      removed.length > 0 &&
      l.length >= MIN_MERGED &&
      added.some((a) => a.includes(l)) &&
      !removed.some((r) => r.includes(l));
    if (replaced || merged) return { line: p + 1, text: file[p]! };
  }
  return null;
}

/** At most this many far lines are named. */
const MAX_APART = 4;

/**
 * The lines of `want` that are lines of the file but stand outside `region` (the place where most
 * of them line up), each at its occurrence nearest the region: context the edit says is beside its
 * change, which the file has elsewhere (14 lines above, or 800). Empty when every line is in the region.
 */
export function apartLines(
  file: readonly string[],
  want: readonly string[],
  region: { start: number; lines: readonly string[] } | null,
): FileLine[] {
  if (region === null) return [];
  const from = region.start - 1;
  const to = from + region.lines.length;
  const inRegion = new Set(file.slice(from, to).map(looseLine));
  const out: FileLine[] = [];
  for (const w of want) {
    const l = looseLine(w);
    if (l === '' || inRegion.has(l) || out.some((o) => looseLine(o.text) === l)) continue;
    let best = -1;
    file.forEach((f, k) => {
      if (looseLine(f) !== l) return;
      const d = k < from ? from - k : k - to;
      if (best < 0 || d < (best < from ? from - best : best - to)) best = k;
    });
    if (best >= 0) out.push({ line: best + 1, text: file[best]! });
    if (out.length >= MAX_APART) break;
  }
  return out;
}
