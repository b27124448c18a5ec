// For feedback: the region of a file that looks most like lines the model expected there, and
// which of those lines are not in the file at all.
import { looseLine } from './file-text.js';

/** A region of a file: its first line (1-based) and its lines. */
export interface Region {
  start: number;
  lines: string[];
}

const PAD = 2;
const MAX_REGION_LINES = 30;
const MAX_MISSING = 8;

/** The lines of `want` (non-blank) that occur nowhere in the file, even ignoring whitespace. */
export function missingLines(file: readonly string[], want: readonly string[]): string[] {
  const have = new Set(file.map(looseLine));
  return want.filter((w) => looseLine(w) !== '' && !have.has(looseLine(w))).slice(0, MAX_MISSING);
}

/**
 * The window of the file where the most lines of `want` line up (each line votes for the start it
 * implies; votes within two lines count together), with two lines of margin; ties go to the one
 * nearest `stated` (0-based). Null when no line of `want` is in the file.
 */
export function closestRegion(file: readonly string[], want: readonly string[], stated: number | null): Region | null {
  const positions = new Map<string, number[]>();
  file.forEach((l, p) => {
    const k = looseLine(l);
    if (k === '') return;
    const list = positions.get(k);
    if (list) list.push(p);
    else positions.set(k, [p]);
  });
  const votes = new Map<number, number>();
  want.forEach((w, i) => {
    const hits = positions.get(looseLine(w));
    if (!hits || hits.length > 50) return; // a line found everywhere ("}", "return") says nothing
    for (const p of hits) votes.set(p - i, (votes.get(p - i) ?? 0) + 1);
  });
  if (votes.size === 0) return null;
  let best: number | null = null;
  let bestScore = -1;
  const ref = stated ?? 0;
  for (const s of [...votes.keys()].sort((a, b) => a - b)) {
    let score = 0;
    for (let d = -PAD; d <= PAD; d++) score += votes.get(s + d) ?? 0;
    if (score > bestScore || (score === bestScore && best !== null && Math.abs(s - ref) < Math.abs(best - ref))) {
      best = s;
      bestScore = score;
    }
  }
  const from = Math.max(0, best! - PAD);
  const to = Math.min(file.length, Math.max(from + 1, best! + want.length + PAD), from + MAX_REGION_LINES);
  return { start: from + 1, lines: file.slice(from, to) };
}
