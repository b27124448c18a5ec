// Rung 5, and the only rung of SEARCH/REPLACE answers: find the SEARCH lines (exact, then
// whitespace-insensitive; a unique match) and put the REPLACE lines in their place, one edit after
// another. Edits made from a diff's hunks may also drop context lines at their edges that are no
// line of the file at all (lines the model invented), as long as what is left still matches
// exactly one place and holds the change; a context line that is a line of the file, near or far,
// is never dropped: the edit is placed only where it stands with the rest (when the file has
// other lines between, the edit is refused with the closest region). An edit whose REPLACE lines already
// stand where it would put them is left out as already applied, never inserted a second time
// (also when edge lines were dropped: its inserted lines near the match); the others still apply.
import { alreadyAround, alreadyInFile, changedLines, insertedAround } from './already-applied.js';
import { alreadyApplied, notFound, repeatsBeside, type EditFailure } from './failures.js';
import { looseLine, type FileText } from './file-text.js';
import { indentMap } from './indent.js';
import { indexLines, locateLines, type LineIndex } from './locate.js';
import { spliceLines, type NewLine } from './splice.js';
import { repeatedBeside } from './stale-context.js';

/** One edit: the lines to find and the lines to put in their place. */
export interface SearchEdit {
  /** How feedback names it: "SEARCH/REPLACE block 2", "hunk 1 (@@ -5,6 +5,6 @@)". */
  what: string;
  search: string[];
  replace: string[];
}

/** What may be dropped from the edges of a SEARCH that does not match: lines the REPLACE repeats ('context') or only blank ones ('blank'). */
export type TrimMode = 'context' | 'blank';

/**
 * The file after every edit, or the edits that could not be placed (with those already applied).
 * `skipped`: the edits left out because they are already applied.
 */
export type SearchResult =
  | { ok: true; text: FileText; created: boolean; adjusted: boolean; skipped: EditFailure[] }
  | { ok: false; failures: EditFailure[] };

/** Apply the edits in order to `text` (null: the file does not exist yet). */
export function applySearchEdits(
  path: string,
  start: FileText | null,
  edits: readonly SearchEdit[],
  trim: TrimMode,
): SearchResult {
  let text = start;
  let created = false;
  let adjusted = false;
  const failures: EditFailure[] = [];
  for (const e of edits) {
    if (e.search.every((l) => l.trim() === '')) {
      if (text === null || text.lines.length === 0) {
        text = { lines: [...e.replace], eols: e.replace.map(() => '\n') };
        created ||= start === null;
      } else failures.push({ path, what: e.what, kind: 'exists' });
      continue;
    }
    if (text === null) {
      failures.push({ path, what: e.what, kind: 'no_file' });
      continue;
    }
    const r = applyOne(path, text, e, trim);
    if ('kind' in r) failures.push(r);
    else {
      text = r.text;
      adjusted ||= r.adjusted;
    }
  }
  if (failures.some((f) => f.kind !== 'already_applied')) return { ok: false, failures };
  return { ok: true, text: text!, created, adjusted, skipped: failures };
}

interface Match {
  at: number;
  lead: number;
  trail: number;
  /** The edge lines it dropped fit the file around it (see droppedFit): it may be placed there. */
  safe: boolean;
}

function applyOne(
  path: string,
  text: FileText,
  e: SearchEdit,
  trim: TrimMode,
): { text: FileText; adjusted: boolean } | EditFailure {
  const index = indexLines(text.lines);
  const common = commonEdges(e.search, e.replace, trim);
  let firstAmbiguous: number[] | null = null;
  for (let k = 0; k <= common.lead + common.trail; k++) {
    const found: Match[] = [];
    for (let lead = Math.min(k, common.lead); lead >= 0 && k - lead <= common.trail; lead--) {
      const trail = k - lead;
      const search = e.search.slice(lead, e.search.length - trail);
      if (k > 0 && !substantial(search, lead, trail, common)) continue;
      const loc = locateLines(index, search, null);
      if (loc.kind === 'found') {
        const at = loc.at - lead;
        found.push({ at, lead, trail, safe: droppedFit(index, e.search, at, lead, trail) });
      } else if (loc.kind === 'ambiguous' && k === 0) firstAmbiguous = loc.at.map((p) => p + 1);
    }
    // already applied is recognised whatever was dropped: it only leaves the edit out
    for (const m of found) {
      const twice = copiesAround(path, index, e, m);
      if (twice !== null) return twice;
    }
    const placeable = found.filter((m) => m.safe);
    const starts = new Set(placeable.map((f) => f.at));
    if (starts.size > 1)
      return { path, what: e.what, kind: 'ambiguous', at: [...starts].map((p) => p + 1).sort((a, b) => a - b) };
    if (placeable.length > 0) {
      const m = placeable[0]!;
      const beside = besideFailure(path, text.lines, e, m);
      return beside ?? splice(text, e, m, common);
    }
    if (k === 0) {
      const done = alreadyInFile(index, e.search, e.replace, null);
      if (done !== null) return alreadyApplied(path, e.what, done);
    }
  }
  if (firstAmbiguous !== null) return { path, what: e.what, kind: 'ambiguous', at: firstAmbiguous };
  return notFound(path, e.what, text.lines, e.search, null);
}

// The edit's REPLACE lines (as far as they match) already around the match: it was applied before.
function copiesAround(path: string, index: LineIndex, e: SearchEdit, m: Match): EditFailure | null {
  const search = e.search.slice(m.lead, e.search.length - m.trail);
  const replace = e.replace.slice(m.lead, e.replace.length - m.trail);
  const at = m.at + m.lead;
  const slack = m.lead + m.trail;
  const twice =
    alreadyAround(index, at, search, replace, slack) ??
    (slack > 0 ? insertedAround(index, at, search, replace, slack) : null);
  return twice === null ? null : alreadyApplied(path, e.what, twice);
}

// The edge lines dropped from the SEARCH (`lead` first, `trail` last; the whole SEARCH would start
// at `at`) fit the file around the kept part: read outward from it, each is the file's next line
// there, or blank, or a line the model invented (it is nowhere in the file). A dropped line that
// is a line of the file, however far from the match (14 lines above, or 800), means the edit's
// context is not all where it says: it is not dropped, and the edit is not placed.
function droppedFit(index: LineIndex, search: readonly string[], at: number, lead: number, trail: number): boolean {
  if (lead + trail === 0) return true;
  const inFile = new Set(index.loose);
  const invented = (l: string): boolean => l === '' || !inFile.has(l);
  let p = at + lead - 1;
  for (let j = lead - 1; j >= 0; j--) {
    const d = looseLine(search[j]!);
    if (p >= 0 && index.loose[p] === d) p--;
    else if (!invented(d)) return false;
  }
  let q = at + search.length - trail;
  for (let j = search.length - trail; j < search.length; j++) {
    const d = looseLine(search[j]!);
    if (q < index.loose.length && index.loose[q] === d) q++;
    else if (!invented(d)) return false;
  }
  return true;
}

// Placed at `m`, the edit would leave a line it replaces (or merges into its added lines) right
// beside it, on an edge where it kept no unchanged line: refused with the closest region.
function besideFailure(path: string, file: readonly string[], e: SearchEdit, m: Match): EditFailure | null {
  const search = e.search.slice(m.lead, e.search.length - m.trail);
  const replace = e.replace.slice(m.lead, e.replace.length - m.trail);
  const at = m.at + m.lead;
  const beside = repeatedBeside(file, at, search.length, {
    ...changedLines(search, replace),
    keepsFirst: search.length > 0 && search[0] === replace[0],
    keepsLast: search.length > 0 && search.at(-1) === replace.at(-1),
  });
  return beside === null ? null : repeatsBeside(path, e.what, file, search, at, beside);
}

// Lines at the start and end that SEARCH and REPLACE share (the edit's context), or only the blank ones.
function commonEdges(
  search: readonly string[],
  replace: readonly string[],
  trim: TrimMode,
): { lead: number; trail: number } {
  const max = Math.min(search.length, replace.length);
  const same = (a: string, b: string): boolean => a === b && (trim === 'context' || a.trim() === '');
  let lead = 0;
  while (lead < max && same(search[lead]!, replace[lead]!)) lead++;
  let trail = 0;
  while (trail < max - lead && same(search[search.length - 1 - trail]!, replace[replace.length - 1 - trail]!)) trail++;
  return { lead, trail };
}

// What is left after trimming must still say where: two non-blank lines, or a non-blank line the edit removes.
function substantial(
  search: readonly string[],
  lead: number,
  trail: number,
  common: { lead: number; trail: number },
): boolean {
  const nonBlank = search.filter((l) => l.trim() !== '').length;
  if (nonBlank >= 2) return true;
  const changed = search.slice(Math.max(0, common.lead - lead), search.length - Math.max(0, common.trail - trail));
  return changed.some((l) => l.trim() !== '');
}

function splice(
  text: FileText,
  e: SearchEdit,
  m: Match,
  common: { lead: number; trail: number },
): { text: FileText; adjusted: boolean } {
  const search = e.search.slice(m.lead, e.search.length - m.trail);
  const replace = e.replace.slice(m.lead, e.replace.length - m.trail);
  const at = m.at + m.lead;
  const keepLead = common.lead - m.lead;
  const keepTrail = common.trail - m.trail;
  const map = indentMap(search.map((w, i) => [text.lines[at + i]!, w] as const));
  const lines: NewLine[] = replace.map((r, i) => {
    const fromEnd = replace.length - 1 - i;
    if (i < keepLead) return { text: text.lines[at + i]!, eol: text.eols[at + i]! };
    if (fromEnd < keepTrail) {
      const p = at + search.length - 1 - fromEnd;
      return { text: text.lines[p]!, eol: text.eols[p]! };
    }
    // a line the edit leaves as it is keeps the file's text (the match may have been whitespace-tolerant)
    if (i < search.length && r === search[i]) return { text: text.lines[at + i]!, eol: text.eols[at + i]! };
    return { text: map.apply(r), eol: null };
  });
  return { text: spliceLines(text, [{ at, count: search.length, lines }]), adjusted: map.changes };
}
