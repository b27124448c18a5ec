// How a line of code uses a name (pure): called, after a qualifier, as a qualifier or as a key; and a
// text's lines read one by one without splitting all of them.

/** The longest line read for how it uses a name. */
const MAX_LINE = 1000;

/**
 * How a line uses a name: called (`name(`, `name!(`, `name::<T>(`), after which qualifier, as a
 * qualifier, or as a key (`value: 1`, `width=3`: a field or keyword, counted as a qualified read).
 */
export function useOf(line: string, name: string): { called: boolean; qualifier: string | null; qualifies: boolean } {
  // a line this long is generated or minified: read as a plain use (no scan per name of it)
  if (line.length > MAX_LINE) return { called: false, qualifier: null, qualifies: false };
  let at = line.indexOf(name);
  while (at >= 0) {
    const before = at === 0 ? '' : line[at - 1]!;
    const after = line.slice(at + name.length);
    if (!/[\w$]/.test(before) && !/^[\w$]/.test(after)) {
      const called = /^\s*(?:!\s*)?(?:::<[^>]{0,200}>)?\s*[([{]/.test(after) && !/^\s*\[/.test(after);
      const q = /([A-Za-z_$][\w$]*)\s*(?:\.|::|->)\s*$/.exec(line.slice(Math.max(0, at - 200), at));
      const qualifies = /^\s*(?:\.|::)/.test(after);
      const key = !called && /^\s*(?::(?!:)|=(?![=>]))/.test(after);
      return { called, qualifier: q ? q[1]! : key ? '' : null, qualifies };
    }
    at = line.indexOf(name, at + 1);
  }
  return { called: false, qualifier: null, qualifies: false };
}

/** A text's 1-based lines, found when asked for (a big text is not split into all of its lines). */
export function lineReader(text: string): (n: number) => string {
  let starts: number[] | null = null;
  return (n) => {
    if (starts === null) {
      starts = [0];
      for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
    }
    const from = starts[n - 1];
    if (from === undefined) return '';
    const to = starts[n];
    return text.slice(from, to === undefined ? text.length : to - 1);
  };
}
