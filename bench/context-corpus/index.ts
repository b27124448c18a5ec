// The context corpus: every case, with `{{path#text}}` in outputs replaced by line numbers.
import { CHAIN_CASES } from './chains.js';
import { GO_CASES } from './go.js';
import { JAVASCRIPT_CASES } from './javascript.js';
import { PINPOINT_CASES } from './pinpoint.js';
import { PYTHON_CASES } from './python.js';
import { REGION_CASES } from './regions.js';
import { REACH_CASES } from './reach.js';
import { RUST_CASES } from './rust.js';
import { moduleTail, testTail, type ContextCase } from './shapes.js';

export type { ContextCase } from './shapes.js';
export { bigFile, noise } from './shapes.js';

/** The 1-based line of `path` holding `text`; throws unless exactly one line does. */
export function lineOf(files: Record<string, string>, path: string, text: string): number {
  const lines = (files[path] ?? '').split('\n');
  const hits = lines.flatMap((l, i) => (l.includes(text) ? [i + 1] : []));
  if (hits.length !== 1) throw new Error(`${path}: ${hits.length} lines hold ${JSON.stringify(text)}`);
  return hits[0]!;
}

/** Files smaller than this (the case's own modules and tests) get a realistic size. */
const SMALL = 3000;
const EXTENSIONS = /\.(py|[cm]?[jt]sx?|go|rs)$/;
const TESTS = /(^|\/)(tests?|spec)\/|_test\.(py|go)$|(^|\/)test_[^/]*\.py$|\.(test|spec)\.[cm]?[jt]sx?$/;

/**
 * Every case of the corpus, ready to use: the case's own small modules and tests get more functions
 * and passing tests appended (real files are not five lines; appending keeps every line number).
 */
export function contextCorpus(): ContextCase[] {
  return [
    ...PYTHON_CASES,
    ...JAVASCRIPT_CASES,
    ...GO_CASES,
    ...RUST_CASES,
    ...REACH_CASES,
    ...PINPOINT_CASES,
    ...CHAIN_CASES,
    ...REGION_CASES,
  ].map((c) => {
    const files = { ...c.files };
    for (const [path, text] of Object.entries(files)) {
      if (path.includes('legacy/') || !EXTENSIONS.test(path) || text.length >= SMALL || text.trim() === '') continue;
      const tail = TESTS.test(path) ? testTail(c.language, 8) : moduleTail(c.language, 25);
      files[path] = `${text.replace(/\n*$/, '\n')}\n${tail}`;
    }
    return {
      ...c,
      shape: c.shape ?? 'basic (the first corpus)',
      files,
      output: c.output.replace(/\{\{([^#}]+)#([^}]+)\}\}/g, (_, p: string, t: string) => String(lineOf(files, p, t))),
    };
  });
}
