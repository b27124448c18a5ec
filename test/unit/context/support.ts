// A tree in memory for the context tests: entries with content-derived blob ids, and a source over them.
import { createHash } from 'node:crypto';
import {
  buildContext,
  memorySource,
  ParseCache,
  type ContextEntry,
  type ContextInput,
  type ContextResult,
} from '../../../src/context/index.js';

/** Tree entries for files given by path and text. */
export function treeOf(files: Record<string, string>): ContextEntry[] {
  return Object.entries(files).map(([path, text]) => ({
    path,
    oid: createHash('sha1').update(text).digest('hex'),
    size: Buffer.byteLength(text),
    kind: 'file',
  }));
}

/** Default budget of the tests (the shipped defaults). */
export const BUDGET = { chars: 48_000, fileMaxBytes: 16_000, mapChars: 6_000 };

/** Build the context of files in memory. */
export async function contextOf(
  files: Record<string, string>,
  input: Partial<Omit<ContextInput, 'tree'>> = {},
  opts: { search?: boolean; cache?: ParseCache } = {},
): Promise<ContextResult> {
  const source = memorySource(new Map(Object.entries(files)));
  if (opts.search === false) delete source.search;
  return buildContext(
    { tree: treeOf(files), directive: '', failureOutput: '', changed: new Map(), budget: BUDGET, ...input },
    source,
    opts.cache ?? new ParseCache(),
  );
}

/** A Python file of `n` filler functions with `inner` placed after the first `at` of them. */
export function bigPython(n: number, at: number, inner: string): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i === at) parts.push(inner);
    parts.push(`def filler_${i}(x):\n    """Filler ${i}."""\n    y = x * ${i}\n    return y + ${i}\n`);
  }
  return parts.join('\n');
}
