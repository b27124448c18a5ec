// Where the context layer reads the tree from: an interface the caller implements (git, or memory).
import type { ContextEntry, ContextText } from './types.js';

/** A line found by a search. */
export interface SearchHit {
  path: string;
  line: number;
  text: string;
}

/** How to search. */
export interface SearchOptions {
  words: boolean;
  maxHits: number;
  /** Search these files only. */
  paths?: readonly string[];
}

/** Read access to one tree (a commit): texts of chosen files and a fixed-string search. */
export interface ContextSource {
  /** The texts of these files (each cut at the source's cap; binary files left out). */
  read(entries: readonly ContextEntry[]): Promise<ContextText[]>;
  /**
   * Lines holding any of the fixed strings (as whole words when `words`), at most `maxHits`, in
   * `paths` only when given; optional: without it, tests are found by name among the test files read.
   */
  search?(strings: readonly string[], options: SearchOptions): Promise<SearchHit[]>;
}

/** A ContextSource over texts in memory (tests, benchmarks, a tree already read). */
export function memorySource(texts: ReadonlyMap<string, string>, cap = Number.POSITIVE_INFINITY): ContextSource {
  return {
    read: (entries) =>
      Promise.resolve(
        entries.flatMap((e) => {
          const text = texts.get(e.path);
          if (text === undefined || text.includes('\0')) return [];
          const truncated = text.length > cap;
          return [{ path: e.path, oid: e.oid, text: truncated ? text.slice(0, cap) : text, truncated }];
        }),
      ),
    search: (strings, options) => {
      const hits: SearchHit[] = [];
      const only = options.paths ? new Set(options.paths) : null;
      for (const [path, text] of texts) {
        if (only && !only.has(path)) continue;
        const lines = text.split('\n');
        for (let i = 0; i < lines.length && hits.length < options.maxHits; i++) {
          const line = lines[i]!;
          if (strings.some((s) => (options.words ? wordIn(line, s) : line.includes(s))))
            hits.push({ path, line: i + 1, text: line });
        }
      }
      return Promise.resolve(hits);
    },
  };
}

/** `word` occurs in `line` with no word character on either side. */
export function wordIn(line: string, word: string): boolean {
  let at = line.indexOf(word);
  while (at >= 0) {
    const before = at === 0 ? '' : line[at - 1]!;
    const after = line[at + word.length] ?? '';
    if (!/\w/.test(before) && !/\w/.test(after)) return true;
    at = line.indexOf(word, at + 1);
  }
  return false;
}
