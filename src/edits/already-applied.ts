// Edits whose change is already in the file: the lines they would put in place are there (around
// where they would go, or where the model said) and the lines they remove are not. Applying one
// would insert a second copy of its lines, so it is reported instead ("already applied").
import { looseLine } from './file-text.js';
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

/**
 * An edit whose old lines were not found (or match several places): its new lines found in the
 * file instead (one place, or the one where the model's header said), or null.
 */
export function alreadyInFile(
  index: LineIndex,
  old: readonly string[],
  neu: readonly string[],
  stated: number | null,
): AlreadyThere | null {
  if (neu.length === 0 || !changesLines(old, neu)) return null;
  const loc = locateLines(index, neu, stated);
  return loc.kind === 'found' ? { at: loc.at, count: neu.length } : null;
}

/**
 * An edit whose old lines were found at `at`: its new lines already stand right there (starting
 * up to `neu.length + slack` lines before the match and ending up to as many after it), so
 * applying it would put a second copy of them next to the first. `slack`: edge lines dropped
 * from the edit before it matched, which may lie between the match and the copy.
 */
export function alreadyAround(
  index: LineIndex,
  at: number,
  old: readonly string[],
  neu: readonly string[],
  slack = 0,
): AlreadyThere | null {
  if (neu.length === 0 || !changesLines(old, neu)) return null;
  const reach = neu.length + slack;
  const from = Math.max(0, at - reach);
  const to = Math.min(index.exact.length, at + old.length + reach);
  for (const file of [index.exact, index.loose]) {
    const want = file === index.exact ? neu : neu.map(looseLine);
    for (let p = from; p + want.length <= to; p++) {
      let k = 0;
      while (k < want.length && file[p + k] === want[k]) k++;
      if (k === want.length) return { at: p, count: want.length };
    }
  }
  return null;
}

/**
 * For an edit matched only after edge lines were dropped: the lines it inserts (new lines that
 * are not among its old ones, ignoring blank lines and whitespace) all stand within reach of the
 * match already, so inserting them would copy lines that exist around it.
 */
export function insertedAround(
  index: LineIndex,
  at: number,
  old: readonly string[],
  neu: readonly string[],
  slack: number,
): AlreadyThere | null {
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
