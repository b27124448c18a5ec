// Finding files by what they hold when nothing names their path: the failing tests by their names
// (TAP and custom runners print none), the definitions of names the directive mentions, and the code
// holding a message the failure asserts or prints.
import { languageForPath } from '../syntax/index.js';
import { isSourcePath, isTestPath } from './source-files.js';
import type { MessageString } from './message-strings.js';
import { wordIn, type ContextSource, type SearchHit } from './source.js';
import type { TreeIndex } from './tree-index.js';
import type { ContextEntry, ContextText } from './types.js';

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

/** Bytes of code one message search reads at most (git grep reads every blob it searches). */
const MAX_SEARCH_BYTES = 8 * 1024 * 1024;
/** Files a message may be found in and still say where the code is. */
const MAX_MESSAGE_FILES = 3;
/** Lines of one file kept per message. */
const MAX_MESSAGE_LINES = 4;

/** A file holding a message, the lines it is on, and the message. */
export interface MessageHit {
  path: string;
  lines: number[];
  message: MessageString;
}

/**
 * The code files (not tests) holding each message, for the messages a few files hold. The search reads
 * at most MAX_SEARCH_BYTES: in a bigger tree, the files nearest `near` (the failure's directories) first.
 * Without a search, the texts given are searched.
 */
export async function findMessageFiles(
  messages: readonly MessageString[],
  index: TreeIndex,
  source: ContextSource,
  near: readonly string[],
  texts: readonly ContextText[],
): Promise<MessageHit[]> {
  if (messages.length === 0) return [];
  const wanted = messages.map((m) => m.text);
  let hits: SearchHit[];
  if (source.search) {
    const paths = searchPaths(index, near);
    if (paths.length === 0) return [];
    hits = await source.search(wanted, { words: false, maxHits: MAX_HITS, paths });
  } else {
    hits = [];
    for (const t of texts) {
      if (isTestPath(t.path)) continue;
      t.text.split('\n').forEach((line, i) => {
        if (wanted.some((w) => line.includes(w))) hits.push({ path: t.path, line: i + 1, text: line });
      });
    }
  }
  const out: MessageHit[] = [];
  for (const message of messages) {
    const files = new Map<string, number[]>();
    for (const h of hits) {
      if (!h.text.includes(message.text) || isTestPath(h.path)) continue;
      const lines = files.get(h.path) ?? [];
      if (lines.length < MAX_MESSAGE_LINES) lines.push(h.line);
      files.set(h.path, lines);
    }
    if (files.size === 0 || files.size > MAX_MESSAGE_FILES) continue;
    for (const [path, lines] of files) out.push({ path, lines, message });
  }
  return out;
}

/** The code files a message search reads: all of them when they are few, else the nearest to `near`. */
function searchPaths(index: TreeIndex, near: readonly string[]): string[] {
  const size = (p: string): number => index.byPath.get(p)?.size ?? 0;
  const code = (p: string): boolean => !isTestPath(p) && !isManifestName(p);
  let total = 0;
  for (const p of index.sources) total += size(p);
  if (total <= MAX_SEARCH_BYTES) return index.sources.filter(code);
  // nearest first, by directory: how many leading directories it shares with one of `near`
  const isSource = new Set(index.sources);
  const nearSegs = near.map((d) => d.split('/').filter(Boolean));
  const dirs = [...index.byDir.keys()]
    .map((dir) => ({ dir, c: Math.max(0, ...nearSegs.map((n) => sharedDirs(dir, n))) }))
    .filter((d) => d.c > 0)
    .sort((a, b) => b.c - a.c);
  const out: string[] = [];
  let used = 0;
  for (const { dir } of dirs) {
    for (const p of index.byDir.get(dir) ?? []) {
      if (!isSource.has(p) || !code(p)) continue;
      if (used + size(p) > MAX_SEARCH_BYTES) return out;
      used += size(p);
      out.push(p);
    }
  }
  return out;
}

/** How many leading segments a directory shares with another (given as segments). */
function sharedDirs(dir: string, segs: readonly string[]): number {
  const a = dir === '' ? [] : dir.split('/');
  let n = 0;
  while (n < a.length && n < segs.length && a[n] === segs[n]) n++;
  return n;
}

function isManifestName(path: string): boolean {
  return !/\.[a-z]+$/.test(path) || /(^|\/)(package\.json|Cargo\.toml|go\.mod|pyproject\.toml|setup\.cfg)$/.test(path);
}
