// Finding a run of lines in a file: exactly first, then whitespace-tolerant; a match must be
// unique (or sit exactly where the model said, when it matches several places).
import { looseLine } from './file-text.js';

/** Where a run of lines is in a file (0-based), or why it cannot be placed. */
export type Location =
  { kind: 'found'; at: number; exact: boolean } | { kind: 'ambiguous'; at: number[] } | { kind: 'missing' };

/** A file's lines prepared for repeated searches. */
export interface LineIndex {
  exact: readonly string[];
  loose: readonly string[];
}

/** Index a file's lines (without line ends) for locateLines. */
export function indexLines(lines: readonly string[]): LineIndex {
  return { exact: lines, loose: lines.map(looseLine) };
}

/**
 * Locate `want` in the file: every exact match, else every whitespace-tolerant one. One match is
 * found; several are found only if one starts at `stated` (where the model's header put it),
 * else ambiguous, listed nearest to `stated` first.
 */
export function locateLines(index: LineIndex, want: readonly string[], stated: number | null): Location {
  if (want.length === 0 || want.length > index.exact.length) return { kind: 'missing' };
  for (const exact of [true, false]) {
    const file = exact ? index.exact : index.loose;
    const w = exact ? want : want.map(looseLine);
    const matches: number[] = [];
    const last = file.length - w.length;
    for (let p = 0; p <= last; p++) {
      if (file[p] !== w[0]) continue;
      let k = 1;
      while (k < w.length && file[p + k] === w[k]) k++;
      if (k === w.length) matches.push(p);
    }
    if (matches.length === 1) return { kind: 'found', at: matches[0]!, exact };
    if (matches.length > 1) {
      if (stated !== null && matches.includes(stated)) return { kind: 'found', at: stated, exact };
      const ref = stated ?? 0;
      return { kind: 'ambiguous', at: matches.sort((a, b) => Math.abs(a - ref) - Math.abs(b - ref) || a - b) };
    }
  }
  return { kind: 'missing' };
}
