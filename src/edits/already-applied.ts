// Edits whose change is already in the file: the lines they would put in place stand where they
// would go (or where the model said) and the lines they remove are gone from there. Applying one
// would insert a second copy of its lines, so it is left out and reported ("already applied").
// Lines are compared exactly, or ignoring whitespace only where that cannot mistake one side for
// the other: an edit that changes only whitespace (a double space made single) is judged exactly,
// and so is a match whose lines are indented unevenly against the edit's (an added line that the
// file has nested one level deeper, under the line the edit removes, is not the edit applied).
import { looseLine } from './file-text.js';
import { indentMap } from './indent.js';
import { locateLines, type LineIndex } from './locate.js';

/** Where an edit's new lines already stand: 0-based line and count. */
export interface AlreadyThere {
  at: number;
  count: number;
}

/** True when the edit changes something (its two sides differ). */
export function changesLines(old: readonly string[], neu: readonly string[]): boolean {
  return old.length !== neu.length || old.some((l, k) => l !== neu[k]);
}

/** The lines an edit removes and adds, counted as multisets (a line on both sides is neither). */
export function changedLines(old: readonly string[], neu: readonly string[]): { removed: string[]; added: string[] } {
  const left = new Map<string, number>();
  for (const l of neu) left.set(l, (left.get(l) ?? 0) + 1);
  const removed: string[] = [];
  for (const l of old) {
    const n = left.get(l) ?? 0;
    if (n > 0) left.set(l, n - 1);
    else removed.push(l);
  }
  const kept = new Map<string, number>();
  for (const l of old) kept.set(l, (kept.get(l) ?? 0) + 1);
  const added: string[] = [];
  for (const l of neu) {
    const n = kept.get(l) ?? 0;
    if (n > 0) kept.set(l, n - 1);
    else added.push(l);
  }
  return { removed, added };
}

/**
 * An edit whose old lines were not found (or match several places): its new lines found in the
 * file instead (one place, or the one where the model's header said), with the lines it removes
 * gone from around them; or null.
 */
export function alreadyInFile(
  index: LineIndex,
  old: readonly string[],
  neu: readonly string[],
  stated: number | null,
): AlreadyThere | null {
  if (neu.length === 0 || !changesLines(old, neu)) return null;
  const loc = locateLines(index, neu, stated);
  if (loc.kind !== 'found') return null;
  if (!loc.exact && !looseMatchCounts(index, loc.at, old, neu)) return null;
  if (removedStand(index, old, neu, loc.at, loc.at + neu.length)) return null;
  return { at: loc.at, count: neu.length };
}

/**
 * An edit whose old lines were found at `at`: its new lines already stand right there (starting
 * up to `neu.length + slack` lines before the match and ending up to as many after it), so
 * applying it would put a second copy of them next to the first. `slack`: edge lines dropped
 * from the edit before it matched, which may lie between the match and the copy. Never when the
 * lines it removes stand at the match (a whitespace-only change counts: it is compared exactly).
 */
export function alreadyAround(
  index: LineIndex,
  at: number,
  old: readonly string[],
  neu: readonly string[],
  slack = 0,
): AlreadyThere | null {
  if (neu.length === 0 || !changesLines(old, neu)) return null;
  if (removedStand(index, old, neu, at, at + old.length, 0)) return null;
  const reach = neu.length + slack;
  const from = Math.max(0, at - reach);
  const to = Math.min(index.exact.length, at + old.length + reach);
  for (const loose of [false, true]) {
    if (loose && !tellsApart(old, neu)) break;
    const file = loose ? index.loose : index.exact;
    const want = loose ? neu.map(looseLine) : neu;
    for (let p = from; p + want.length <= to; p++) {
      let k = 0;
      while (k < want.length && file[p + k] === want[k]) k++;
      if (k === want.length && (!loose || evenIndent(index, p, neu))) return { at: p, count: want.length };
    }
  }
  return null;
}

/**
 * For an edit matched only after edge lines were dropped: the lines it inserts (new lines that
 * are not among its old ones, ignoring blank lines and whitespace) all stand within reach of the
 * match already, so inserting them would copy lines that exist around it. Never when the lines
 * it removes stand at the match.
 */
export function insertedAround(
  index: LineIndex,
  at: number,
  old: readonly string[],
  neu: readonly string[],
  slack: number,
): AlreadyThere | null {
  if (removedStand(index, old, neu, at, at + old.length, 0)) return null;
  const left = new Map<string, number>();
  for (const l of old.map(looseLine)) left.set(l, (left.get(l) ?? 0) + 1);
  const inserted: string[] = [];
  for (const l of neu.map(looseLine)) {
    const n = left.get(l) ?? 0;
    if (n > 0) left.set(l, n - 1);
    else if (l !== '') inserted.push(l);
  }
  if (inserted.length === 0) return null;
  const reach = inserted.length + slack;
  const from = Math.max(0, at - reach);
  const to = Math.min(index.loose.length, at + old.length + reach);
  const window = index.loose.slice(from, to);
  let p = 0;
  let first = -1;
  for (const l of inserted) {
    while (p < window.length && window[p] !== l) p++;
    if (p === window.length) return null;
    if (first < 0) first = p;
    p++;
  }
  return { at: from + first, count: p - first };
}

// Comparing without whitespace can tell the edit's sides apart: no line it adds equals, but for
// whitespace, a line it removes.
function tellsApart(old: readonly string[], neu: readonly string[]): boolean {
  const { removed, added } = changedLines(old, neu);
  const gone = new Set(removed.map(looseLine));
  return !added.some((l) => gone.has(looseLine(l)));
}

// A match of `neu` at `at` found only ignoring whitespace counts when whitespace cannot mistake one
// side for the other and the file's lines are indented like the edit's (all the same, or all
// shifted alike).
function looseMatchCounts(index: LineIndex, at: number, old: readonly string[], neu: readonly string[]): boolean {
  return tellsApart(old, neu) && evenIndent(index, at, neu);
}

function evenIndent(index: LineIndex, at: number, neu: readonly string[]): boolean {
  const lead = (s: string): string => /^[ \t]*/.exec(s)![0];
  const pairs = neu
    .map((w, k) => [index.exact[at + k] ?? '', w] as const)
    .filter(([f, w]) => f.trim() !== '' && w.trim() !== '');
  return pairs.every(([f, w]) => lead(f) === lead(w)) || indentMap(pairs).changes;
}

// Some line the edit removes stands in the file within [from - margin, to + margin): the edit is
// not applied there. A line whose whitespace alone the edit changes is looked for exactly; a
// line the new side holds as often is not counted (it may be the new side's own).
function removedStand(
  index: LineIndex,
  old: readonly string[],
  neu: readonly string[],
  from: number,
  to: number,
  margin?: number,
): boolean {
  const { removed, added } = changedLines(old, neu);
  const addedLoose = new Set(added.map(looseLine));
  const pad = margin ?? removed.length + 1;
  const lo = Math.max(0, from - pad);
  const hi = Math.min(index.exact.length, to + pad);
  for (const r of new Set(removed)) {
    if (r.trim() === '') continue;
    const exact = addedLoose.has(looseLine(r));
    const same = (l: string): boolean => (exact ? l === r : looseLine(l) === looseLine(r));
    let inFile = 0;
    for (let p = lo; p < hi; p++) if (same(index.exact[p]!)) inFile++;
    const inNew = neu.filter(same).length;
    if (inFile > inNew) return true;
  }
  return false;
}
