// Finding files by what they hold when nothing names their path: the failing tests by their names
// (TAP and custom runners print none), and the definitions of names the directive mentions.
import { languageForPath } from '../syntax/index.js';
import { isSourcePath, isTestPath } from './source-files.js';
import { wordIn, type ContextSource, type SearchHit } from './source.js';
import type { TreeIndex } from './tree-index.js';
import type { ContextEntry } from './types.js';

/** Files found at most by one search. */
export const MAX_FOUND_FILES = 5;
/** Test files read to look for names when the source cannot search. */
const MAX_SCANNED_TESTS = 200;
/** Lines a search returns at most. */
const MAX_HITS = 400;

/** A file holding a name, the line, and the name. */
export interface NamedHit extends SearchHit {
  name: string;
}

/** The test files holding the failing tests' names (as written in the test, e.g. a TAP description). */
export async function findTestsByName(
  names: readonly string[],
  index: TreeIndex,
  source: ContextSource,
): Promise<NamedHit[]> {
  const wanted = names.filter((n) => n.length >= 4).slice(0, 10);
  if (wanted.length === 0) return [];
  const isTest = (p: string): boolean => isTestPath(p) && isSourcePath(p) && languageForPath(p) !== null;
  let hits: SearchHit[];
  const tests = index.sources.filter(isTest);
  if (source.search) {
    hits = await source.search(wanted, { words: false, maxHits: MAX_HITS, paths: tests });
  } else {
    const entries: ContextEntry[] = tests.slice(0, MAX_SCANNED_TESTS).map((p) => index.byPath.get(p)!);
    hits = [];
    for (const t of await source.read(entries)) {
      t.text.split('\n').forEach((line, i) => {
        if (wanted.some((n) => line.includes(n))) hits.push({ path: t.path, line: i + 1, text: line });
      });
    }
  }
  return firstPerFile(wanted.flatMap((name) => hits.filter((h) => h.text.includes(name)).map((h) => ({ ...h, name }))));
}

/** The files defining names the directive mentions (a definition keyword, or an assignment, before the name). */
export async function findDefinitionsByName(
  names: readonly string[],
  index: TreeIndex,
  source: ContextSource,
): Promise<NamedHit[]> {
  if (!source.search || names.length === 0) return [];
  const wanted = names.slice(0, 10);
  const code = index.sources.filter((p) => languageForPath(p) !== null);
  const hits = await source.search(wanted, { words: true, maxHits: MAX_HITS, paths: code });
  const out: NamedHit[] = [];
  for (const name of wanted) {
    const esc = name.replace(/[$]/g, '\\$');
    const defines = new RegExp(
      `(?:\\b(?:def|class|function|func|fn|struct|enum|trait|type|interface|impl|mod)\\s+(?:\\([^)]*\\)\\s*)?${esc}\\b)|(?:^\\s*(?:export\\s+)?(?:const|let|var|pub\\s+fn)?\\s*${esc}\\s*[:=(])`,
    );
    for (const h of hits)
      if (wordIn(h.text, name) && defines.test(h.text) && isSourcePath(h.path)) out.push({ ...h, name });
  }
  return firstPerFile(out);
}

function firstPerFile(hits: NamedHit[]): NamedHit[] {
  const out: NamedHit[] = [];
  for (const h of hits) {
    if (out.some((o) => o.path === h.path)) continue;
    out.push(h);
    if (out.length >= MAX_FOUND_FILES) break;
  }
  return out;
}
