// The file an edit names outside a diff header or before a SEARCH block: "In `src/calc.py`:",
// "### File: calc.py", "**calc.py**", a fence info string such as ```calc.py.

const PATH_TOKEN = /^[A-Za-z0-9_.\-/@+]+$/;

/** A path-looking token (has an extension or a directory, no spaces, not a URL or flag), or null. */
export function asPath(token: string): string | null {
  const t = token
    .trim()
    .replace(/^(?:#+\s*)?(?:[*_]+)?(?:(?:file(?:name)?|path)\s*:\s*)?/i, '')
    .replace(/^[`'"*_]+|[`'"*_:,.]+$/g, '')
    .replace(/^\.\//, '');
  if (t === '' || !PATH_TOKEN.test(t) || t.startsWith('-') || t.startsWith('/') || t.includes('//')) return null;
  if (!/\.[A-Za-z0-9]+$/.test(t) && !t.includes('/')) return null;
  if (/^\d+(\.\d+)+$/.test(t)) return null; // a version number
  return t;
}

/** A line that holds only a path (with markdown decoration), as in aider's SEARCH/REPLACE format. */
export function pathLine(line: string): string | null {
  const fence = /^\s*(?:`{3,}|~{3,})\s*(\S*)\s*$/.exec(line);
  if (fence) return fence[1] && /[./]/.test(fence[1]) ? asPath(fence[1].replace(/^[a-z]+:/i, '')) : null;
  return asPath(line);
}

/**
 * The path named nearest the end of `lines` (the text just before a diff without file headers):
 * the last backticked or bare path-looking token of the last three non-empty lines.
 */
export function pathHintBefore(lines: readonly string[]): string | null {
  let seen = 0;
  for (let k = lines.length - 1; k >= 0 && seen < 3; k--) {
    const line = lines[k]!;
    if (line.trim() === '') continue;
    seen++;
    const quoted = [...line.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);
    const words = quoted.length > 0 ? quoted : line.split(/\s+/);
    for (let w = words.length - 1; w >= 0; w--) {
      const p = asPath(words[w]!);
      if (p !== null) return p;
    }
  }
  return null;
}
