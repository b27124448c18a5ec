// What the context layer keeps for a run, by blob id: texts read and their parses. A file unchanged
// between prompts is read and parsed once, a tree listed once is indexed once, and a search of one
// tree for the same texts runs once.
import { analyzeSource, languageForPath, type LanguageId, type SourceAnalysis } from '../syntax/index.js';
import { indexTree, type TreeIndex } from './tree-index.js';
import type { ContextEntry, ContextText } from './types.js';

/** Bytes of texts kept at most (the oldest are dropped first). */
const MAX_TEXT_BYTES = 64 * 1024 * 1024;
/** Parses kept at most (the oldest are dropped first). */
const MAX_PARSES = 4000;

/** Texts and their definitions, imports and identifiers, cached by blob id (and language). */
export class ParseCache {
  private readonly parses = new Map<string, Promise<SourceAnalysis>>();
  private readonly texts = new Map<string, ContextText>();
  private textBytes = 0;
  private readonly indexes = new WeakMap<readonly ContextEntry[], TreeIndex>();
  private readonly searches = new WeakMap<TreeIndex, Map<string, Promise<unknown>>>();

  /** How many texts were parsed (not served from the cache). */
  parsed = 0;

  /** The analysis of a file's text, or null when hammer-box has no grammar for its path. */
  analyze(path: string, oid: string, text: string): Promise<SourceAnalysis> | null {
    const language = languageForPath(path);
    if (language === null) return null;
    const key = `${language}:${oid}`;
    let pending = this.parses.get(key);
    if (pending === undefined) {
      this.parsed++;
      pending = analyzeSource(language, text, { definitions: true, imports: true, identifiers: true });
      this.parses.set(key, pending);
      pending.catch(() => this.parses.delete(key));
      if (this.parses.size > MAX_PARSES) this.parses.delete(this.parses.keys().next().value!);
    }
    return pending;
  }

  /**
   * Load the grammars of the languages among `paths` and compile their queries (see warmContext,
   * which rehearses a build in them too); returns those languages.
   */
  async loadGrammars(paths: readonly string[]): Promise<LanguageId[]> {
    const languages = [...new Set(paths.map(languageForPath).filter((l) => l !== null))];
    await Promise.all(
      languages.map((l) => analyzeSource(l, '', { definitions: true, imports: true, identifiers: true })),
    );
    return languages;
  }

  /** The index of a tree listing, built once per listing (a workbench lists each commit once). */
  index(tree: readonly ContextEntry[]): TreeIndex {
    let index = this.indexes.get(tree);
    if (index === undefined) {
      index = indexTree(tree);
      this.indexes.set(tree, index);
    }
    return index;
  }

  /** The result of a search of one tree (its index) by key, run once: a later prompt of the same tree reuses it. */
  searchOnce<T>(index: TreeIndex, key: string, run: () => Promise<T>): Promise<T> {
    let byKey = this.searches.get(index);
    if (byKey === undefined) this.searches.set(index, (byKey = new Map<string, Promise<unknown>>()));
    let pending = byKey.get(key) as Promise<T> | undefined;
    if (pending === undefined) {
      pending = run();
      byKey.set(key, pending);
      pending.catch(() => byKey.delete(key));
    }
    return pending;
  }

  /** A text read earlier for this blob (under any path: the caller sets the path). */
  text(oid: string): Omit<ContextText, 'path'> | undefined {
    return this.texts.get(oid);
  }

  /** Keep a text read for its blob. */
  remember(text: ContextText): void {
    if (this.texts.has(text.oid)) return;
    this.texts.set(text.oid, text);
    this.textBytes += text.text.length;
    while (this.textBytes > MAX_TEXT_BYTES && this.texts.size > 1) {
      const [oldest, t] = this.texts.entries().next().value!;
      this.texts.delete(oldest);
      this.textBytes -= t.text.length;
    }
  }
}
