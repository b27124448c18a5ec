// Replacing runs of lines in a FileText, keeping its line ends and its final-newline state.
import { dominantEol, hasFinalNewline, type FileText } from './file-text.js';

/** A new line: its text, and the line end it keeps from the file (null: the file's usual one). */
export interface NewLine {
  text: string;
  eol: string | null;
}

/** Lines [at, at + count) of a file replaced by `lines`. */
export interface Replacement {
  at: number;
  count: number;
  lines: NewLine[];
}

/** Apply non-overlapping replacements (any order) to a file; the result ends in a newline exactly when the file did. */
export function spliceLines(text: FileText, replacements: readonly Replacement[]): FileText {
  const eol = dominantEol(text);
  const final = hasFinalNewline(text);
  const sorted = [...replacements].sort((a, b) => a.at - b.at);
  const lines: string[] = [];
  const eols: string[] = [];
  let p = 0;
  for (const r of sorted) {
    for (; p < r.at; p++) {
      lines.push(text.lines[p]!);
      eols.push(text.eols[p]!);
    }
    for (const l of r.lines) {
      lines.push(l.text);
      eols.push(l.eol === null || l.eol === '' ? eol : l.eol);
    }
    p = r.at + r.count;
  }
  for (; p < text.lines.length; p++) {
    lines.push(text.lines[p]!);
    eols.push(text.eols[p]!);
  }
  for (let k = 0; k < eols.length - 1; k++) if (eols[k] === '') eols[k] = eol;
  if (eols.length > 0) eols[eols.length - 1] = final ? eols.at(-1) || eol : '';
  return { lines, eols };
}

/** True when two replacements' old ranges overlap (a pure insertion at the end of another's range does not). */
export function overlaps(sorted: readonly Replacement[]): boolean {
  for (let k = 1; k < sorted.length; k++) {
    const prev = sorted[k - 1]!;
    if (sorted[k]!.at < prev.at + prev.count) return true;
  }
  return false;
}
