// The files one context build has read, and their analyses: each read once (through the run's cache of
// texts by blob id), parsed once per blob, within a byte budget for the whole build.
import type { SourceAnalysis } from '../syntax/index.js';
import type { ParseCache } from './parse-cache.js';
import type { ContextSource } from './source.js';
import type { TreeIndex } from './tree-index.js';
import type { ContextEntry, ContextText } from './types.js';

/** Texts and analyses read so far, and the reading itself. */
export class ContextReader {
  readonly texts = new Map<string, ContextText>();
  readonly analyses = new Map<string, SourceAnalysis>();
  /** Bytes read (the files' sizes as listed). */
  bytes = 0;

  constructor(
    private readonly index: TreeIndex,
    private readonly source: ContextSource,
    private readonly cache: ParseCache,
    private readonly maxBytes: number,
  ) {}

  /** Read and analyse the paths not read yet, while the budget lasts (files past it are left out). */
  async read(paths: readonly string[]): Promise<void> {
    const entries: ContextEntry[] = [];
    const fresh: ContextText[] = [];
    for (const p of paths) {
      const e = this.index.byPath.get(p);
      if (e === undefined || this.texts.has(p) || this.bytes + e.size > this.maxBytes) continue;
      this.bytes += e.size;
      const known = this.cache.text(e.oid);
      if (known) fresh.push({ ...known, path: p });
      else entries.push(e);
    }
    const read = entries.length === 0 ? [] : await this.source.read(entries);
    for (const t of read) this.cache.remember(t);
    for (const t of [...fresh, ...read]) this.texts.set(t.path, t);
    await Promise.all(
      [...fresh, ...read].map(async (t) => {
        const a = await this.cache.analyze(t.path, t.oid, t.text);
        if (a) this.analyses.set(t.path, a);
      }),
    );
  }
}
