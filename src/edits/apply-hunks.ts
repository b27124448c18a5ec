// Rung 4: each hunk placed by its context in the current file content (exact, then
// whitespace-tolerant; a unique match, or the one where the header says), applied in memory. A
// hunk already applied is left out (the others still apply); one whose placement would leave a
// line it replaces, or merges, right beside it is refused (the file changed around it).
import type { PatchHunk } from '../patch/parse-patch.js';
import { alreadyAround, alreadyInFile, changedLines } from './already-applied.js';
import { alreadyApplied, notFound, repeatsBeside, type EditFailure } from './failures.js';
import { dominantEol, hasFinalNewline, type FileText } from './file-text.js';
import { indentMap } from './indent.js';
import { indexLines, locateLines } from './locate.js';
import { overlaps, spliceLines, type Replacement } from './splice.js';
import { repeatedBeside } from './stale-context.js';

/** A hunk's two sides, from its body lines. */
export interface HunkSides {
  /** Context and removed lines, without prefixes: what must be in the file. */
  old: string[];
  /** Context and added lines: what replaces them. */
  new: string[];
  /** For each body line in order: 'c' context, '-' removed, '+' added, with its text. */
  ops: { op: 'c' | '-' | '+'; text: string }[];
  /** The new side ends without a newline ("\ No newline at end of file" after it). */
  noFinalNewline: boolean;
}

/** Split a hunk's body into its sides. */
export function hunkSides(hunk: PatchHunk): HunkSides {
  const sides: HunkSides = { old: [], new: [], ops: [], noFinalNewline: false };
  let lastOp: 'c' | '-' | '+' | null = null;
  for (const l of hunk.lines) {
    if (l.startsWith('\\')) {
      if (lastOp === '+' || lastOp === 'c') sides.noFinalNewline = true;
      continue;
    }
    const op = l === '' || l[0] === ' ' ? 'c' : l[0] === '-' ? '-' : '+';
    const text = l.slice(1);
    sides.ops.push({ op, text });
    if (op !== '+') sides.old.push(text);
    if (op !== '-') sides.new.push(text);
    lastOp = op;
  }
  return sides;
}

/** A short name for a hunk in feedback: "hunk 2 (@@ -5,6 +5,6 @@)". */
export function hunkLabel(hunk: PatchHunk, k: number): string {
  const head = hunk.header.replace(/^(@@[^@]*@@).*$/, '$1').slice(0, 40);
  return `hunk ${k + 1} (${head})`;
}

/**
 * The file after every hunk was placed and applied, or the hunks that could not be placed (with
 * those already applied). `adjusted`: the model's added lines were changed to fit the file
 * (re-indented, given the file's CRLF line ends, or its missing final newline kept), so git's own
 * whitespace-tolerant apply, which inserts them verbatim, would give a different file. `skipped`:
 * the hunks left out because they are already applied (all of them: the text is unchanged).
 */
export type HunkResult =
  | { ok: true; text: FileText; exact: boolean; adjusted: boolean; skipped: EditFailure[] }
  | { ok: false; failures: EditFailure[] };

/** Place each hunk by its context in `text` and apply them all. */
export function applyHunks(path: string, text: FileText, hunks: readonly PatchHunk[]): HunkResult {
  const index = indexLines(text.lines);
  // in hunk order: the hunks that cannot be placed, and those already applied
  const failures: EditFailure[] = [];
  const replacements: Replacement[] = [];
  let exact = true;
  let adjusted = false;
  const crlf = dominantEol(text) === '\r\n';
  const noFinal = !hasFinalNewline(text);
  hunks.forEach((h, k) => {
    const sides = hunkSides(h);
    const what = hunkLabel(h, k);
    const stated = h.numbered ? Math.max(0, h.oldStart - 1) : null;
    if (sides.old.length === 0) {
      if (text.lines.length === 0)
        replacements.push({ at: 0, count: 0, lines: sides.new.map((t) => ({ text: t, eol: null })) });
      else failures.push({ path, what, kind: 'no_context' });
      return;
    }
    const loc = locateLines(index, sides.old, stated);
    if (loc.kind !== 'found') {
      const done = alreadyInFile(index, sides.old, sides.new, h.numbered ? Math.max(0, h.newStart - 1) : null);
      if (done !== null) {
        failures.push(alreadyApplied(path, what, done));
        return;
      }
    }
    if (loc.kind === 'missing') {
      failures.push(notFound(path, what, text.lines, sides.old, stated));
      return;
    }
    if (loc.kind === 'ambiguous') {
      failures.push({ path, what, kind: 'ambiguous', at: loc.at.map((p) => p + 1) });
      return;
    }
    const twice = alreadyAround(index, loc.at, sides.old, sides.new);
    if (twice !== null) {
      failures.push(alreadyApplied(path, what, twice));
      return;
    }
    const beside = repeatedBeside(text.lines, loc.at, sides.old.length, {
      ...changedLines(sides.old, sides.new),
      keepsFirst: sides.ops[0]?.op === 'c',
      keepsLast: sides.ops.at(-1)?.op === 'c',
    });
    if (beside !== null) {
      failures.push(repeatsBeside(path, what, text.lines, sides.old, loc.at, beside));
      return;
    }
    exact &&= loc.exact;
    const pairs = sides.old.map((w, i) => [text.lines[loc.at + i]!, w] as const);
    const map = indentMap(pairs);
    const adds = sides.ops.some((o) => o.op === '+');
    adjusted ||= map.changes || (crlf && adds) || (noFinal && loc.at + sides.old.length === text.lines.length);
    const lines: Replacement['lines'] = [];
    let i = 0;
    for (const { op, text: t } of sides.ops) {
      if (op === 'c') {
        lines.push({ text: text.lines[loc.at + i]!, eol: text.eols[loc.at + i]! });
        i++;
      } else if (op === '-') i++;
      else lines.push({ text: map.apply(t), eol: null });
    }
    replacements.push({ at: loc.at, count: sides.old.length, lines });
  });
  if (failures.some((f) => f.kind !== 'already_applied')) return { ok: false, failures };
  const sorted = [...replacements].sort((a, b) => a.at - b.at);
  if (overlaps(sorted)) return { ok: false, failures: [{ path, what: `${hunks.length} hunks`, kind: 'overlap' }] };
  return { ok: true, text: spliceLines(text, sorted), exact, adjusted, skipped: failures };
}
