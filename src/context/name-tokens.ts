// Words of names, paths and test titles (pure): a definition named like the failing test
// (`lexRawString` for `TestLex/unterminated_raw_string`), and the source files named after what a
// data-driven test's data file or title names (`components/prism-java.js` for `tests/languages/java/x.test`).
import { isSourcePath, isTestPath } from './source-files.js';
import type { TreeIndex } from './tree-index.js';

/** Words that name no component: the vocabulary of tests and layouts. */
const GENERIC = new Set(
  [
    'test', 'tests', 'spec', 'specs', 'data', 'testdata', 'fixture', 'language', 'case', 'feature', 'input', 'output',
    'expect', 'expected', 'golden', 'snapshot', 'example', 'sample', 'src', 'lib', 'main', 'index', 'util', 'common',
    'core', 'should', 'pass', 'fail', 'when', 'then', 'with', 'the', 'and', 'for', 'from', 'into', 'not', 'does',
    'return', 'returns', 'get', 'set', 'new', 'has', 'can', 'check', 'error', 'handle', 'run', 'make', 'default',
  ], // prettier-ignore
);

/** Files named after one word at most: more, and the word names nothing in particular. */
const MAX_NAMED_FILES = 3;
/** Words of titles and data paths used at most. */
const MAX_WORDS = 24;

/** The words of a name or text, lower-case, plurals made singular (`parseInlineTables` → parse, inline, table). */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 2)
    .map(singular);
}

function singular(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) return w.slice(0, -1);
  return w;
}

/** The words of the failing tests' titles worth matching against definitions' names. */
export function titleWords(titles: readonly string[]): Set<string> {
  return new Set(titles.flatMap(words).filter((w) => w.length >= 3));
}

/** Names named like the failing test kept at most: more share the best match, and none says much. */
const MAX_NAMED_LIKE = 4;

/**
 * How many of a name's words (three letters or more, not generic) are words of the title, when at least
 * two are and they are at least two thirds of them (0 otherwise); a word may be a longer form of the
 * title's (`partially` for `partial`).
 */
export function titleMatch(name: string, title: ReadonlySet<string>): number {
  const own = [...new Set(words(name))].filter((w) => w.length >= 3 && !GENERIC.has(w));
  if (own.length < 2) return 0;
  const hit = own.filter((w) => title.has(w) || [...title].some((t) => t.length >= 5 && w.startsWith(t)));
  return hit.length >= 2 && hit.length * 3 >= own.length * 2 ? hit.length : 0;
}

/**
 * The names named most like the failing test, when few share the best match (`lexRawString` for
 * `TestLex/unterminated_raw_string`; nothing when every `…AsyncIssue` matches `… async … issue`).
 */
export function namedLike(names: Iterable<string>, title: ReadonlySet<string>): string[] {
  const scored = new Map<string, number>();
  const specific = [...title].filter((w) => !GENERIC.has(w));
  if (specific.length < 2) return [];
  for (const n of names) {
    if (scored.has(n)) continue;
    // a name holding fewer than two of the title's words (as text) cannot match: no need to split it
    const lower = n.toLowerCase();
    let held = 0;
    for (const w of specific) if (lower.includes(w.slice(0, 5)) && ++held >= 2) break;
    scored.set(n, held >= 2 ? titleMatch(n, title) : 0);
  }
  const best = Math.max(0, ...scored.values());
  if (best === 0) return [];
  const top = [...scored].filter(([, s]) => s === best).map(([n]) => n);
  return top.length <= MAX_NAMED_LIKE ? top : [];
}

/**
 * The words a data-driven failure names: the directories and name of each data file it names (not
 * source code), and the quoted parts and bracketed parameters of its titles (`Testing language 'java'`,
 * `test_functional[unused_argument]`).
 */
export function dataWords(dataFiles: readonly string[], titles: readonly string[]): string[] {
  const out: string[] = [];
  const add = (text: string): void => {
    for (const w of words(text)) if (w.length >= 3 && !GENERIC.has(w) && !out.includes(w)) out.push(w);
  };
  for (const p of dataFiles) add(p.replace(/\.[^./]*$/, ''));
  for (const t of titles) {
    for (const m of t.matchAll(/'([^'\n]{2,80})'|"([^"\n]{2,80})"|\[([^\]\n]{2,80})\]/g)) add(m[1] ?? m[2] ?? m[3]!);
  }
  return out.slice(0, MAX_WORDS);
}

/** Source files (not tests) whose name has one of the words, for each word that names a few of them. */
export function filesNamedAfter(wanted: readonly string[], index: TreeIndex): { word: string; paths: string[] }[] {
  if (wanted.length === 0) return [];
  const want = new Set(wanted);
  const byWord = new Map<string, string[]>();
  // most names hold none of the words: only those that do are split into words
  const holds = new RegExp(wanted.map((w) => w.replace(/[^a-z0-9]/g, '')).join('|'), 'i');
  for (const p of index.sources) {
    const base = p.slice(p.lastIndexOf('/') + 1);
    if (!holds.test(base)) continue;
    const stem = base.replace(/\.[^.]*$/, '');
    for (const w of new Set(words(stem))) {
      if (!want.has(w)) continue;
      const list = byWord.get(w) ?? [];
      list.push(p);
      byWord.set(w, list);
    }
  }
  return wanted.flatMap((word) => {
    const paths = (byWord.get(word) ?? []).filter((p) => !isTestPath(p) && isSourcePath(p));
    return paths.length > 0 && paths.length <= MAX_NAMED_FILES ? [{ word, paths }] : [];
  });
}
