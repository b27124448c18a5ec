// When a model's lines matched the file only with different indentation, added lines get the
// same shift: a constant prefix added or removed, or tabs and spaces converted at a fixed width.

const lead = (s: string): string => /^[ \t]*/.exec(s)![0];

/** Re-indents one added line; `changes` is false when lines pass through unchanged. */
export interface IndentMap {
  apply: (line: string) => string;
  changes: boolean;
}

const IDENTITY: IndentMap = { apply: (l) => l, changes: false };

/** The indentation shift from the model's lines to the file's, learned from matched pairs (file line, model line). */
export function indentMap(pairs: readonly (readonly [string, string])[]): IndentMap {
  const ps = pairs.filter(([f, w]) => f.trim() !== '' && w.trim() !== '').map(([f, w]) => [lead(f), lead(w)] as const);
  if (ps.length === 0 || ps.every(([f, w]) => f === w)) return IDENTITY;
  // the file's indentation = X + the model's
  const add = constant(ps.map(([f, w]) => (f.endsWith(w) ? f.slice(0, f.length - w.length) : null)));
  if (add !== null && add !== '') return { apply: (l) => (l.trim() === '' ? l : add + l), changes: true };
  // the model's indentation = X + the file's
  const drop = constant(ps.map(([f, w]) => (w.endsWith(f) ? w.slice(0, w.length - f.length) : null)));
  if (drop !== null && drop !== '')
    return { apply: (l) => (l.startsWith(drop) ? l.slice(drop.length) : l), changes: true };
  // the same structure at another indentation unit (2 spaces in the model, 4 in the file)
  if (ps.every(([f, w]) => /^ *$/.test(f) && /^ *$/.test(w) && (f === '') === (w === ''))) {
    const ratios = ps.filter(([, w]) => w !== '').map(([f, w]) => f.length / w.length);
    const r = ratios[0];
    if (r !== undefined && r !== 1 && ratios.every((x) => x === r)) {
      return {
        apply: (l) => l.replace(/^ +/, (sp) => (Number.isInteger(sp.length * r) ? ' '.repeat(sp.length * r) : sp)),
        changes: true,
      };
    }
  }
  for (const width of [4, 2, 8]) {
    if (ps.every(([f, w]) => /^\t*$/.test(f) && /^ *$/.test(w) && w.length === f.length * width)) {
      return {
        apply: (l) => l.replace(/^ +/, (s) => '\t'.repeat(Math.floor(s.length / width)) + ' '.repeat(s.length % width)),
        changes: true,
      };
    }
    if (ps.every(([f, w]) => /^ *$/.test(f) && /^\t*$/.test(w) && f.length === w.length * width)) {
      return { apply: (l) => l.replace(/^\t+/, (s) => ' '.repeat(s.length * width)), changes: true };
    }
  }
  return IDENTITY;
}

function constant(values: readonly (string | null)[]): string | null {
  const first = values[0];
  if (first === undefined || first === null) return null;
  return values.every((v) => v === first) ? first : null;
}
