// The context layer's reads for one prompt: blobs of the workbench head by id, and `git grep` over it.
import type { ContextSource, ContextText } from '../context/index.js';
import { GREP_TIMEOUT_MS, type Workbench } from '../git/index.js';

/** The most bytes of one file the context reads (a longer file is cut, and never shown whole). */
export const CONTEXT_READ_BYTES = 1024 * 1024;

/**
 * A ContextSource over `commit` of the workbench. Each search is bounded (see grepTree); with
 * `deadline` (a time in ms since the epoch), searches also stop there, so one answer to the
 * model's requests has a deadline however many searches it makes.
 */
export function workbenchSource(wb: Workbench, commit: string, signal?: AbortSignal, deadline?: number): ContextSource {
  const sig = signal ? { signal } : {};
  return {
    async read(entries) {
      const blobs = await wb.readBlobs(entries, { maxBytesPerFile: CONTEXT_READ_BYTES, ...sig });
      const out: ContextText[] = [];
      for (const b of blobs) {
        if (b === null || b.binary) continue;
        out.push({ path: b.path, oid: b.oid, text: b.content, truncated: b.truncated });
      }
      return out;
    },
    search: (strings, options) =>
      wb.grep(commit, strings, {
        ...options,
        ...sig,
        ...(deadline === undefined ? {} : { timeoutMs: Math.min(GREP_TIMEOUT_MS, deadline - Date.now()) }),
      }),
  };
}
