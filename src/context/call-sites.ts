// The calls a part of a file makes (pure): each called name once, in the order first called, with the
// qualifier written before it (`engine.FilterStack(…)`, `self._reset()`, `p.lx.nextItem()`).
import type { SourceAnalysis } from '../syntax/index.js';
import { useOf } from './name-uses.js';

/** One name called in a part of a file. */
export interface CallSite {
  name: string;
  /** What is written before it (`self`, `engine`, `lx`), '' for none. */
  qualifier: string;
  line: number;
}

/** Names called at most per part (a dispatch over node kinds calls many; the first are kept). */
export const MAX_CALLS = 40;

/**
 * The calls made on lines `start` to `end` (1-based, inclusive), each name once in the order of its
 * first call; a Go call whose first argument is the test's `t` (`require.NoError(t, err)`) is a test
 * helper, not code under test, and is left out when `skipTestHelpers`.
 */
export function callSites(
  analysis: SourceAnalysis,
  lineOf: (n: number) => string,
  start: number,
  end: number,
  skipTestHelpers = false,
): CallSite[] {
  const ids = analysis.identifiers;
  const out: CallSite[] = [];
  const seen = new Set<string>();
  for (let k = firstAtOrAfter(ids, start); k < ids.length && ids[k]!.line <= end && out.length < MAX_CALLS; k++) {
    const { name, line } = ids[k]!;
    if (seen.has(name)) continue;
    const text = lineOf(line);
    const use = useOf(text, name);
    // a derive runs its macro: `#[derive(DeJson)]` calls DeJson
    const derived = analysis.language === 'rust' && isDerived(text, name);
    if (!use.called && !derived) continue;
    if (skipTestHelpers && analysis.language === 'go' && isTestHelperCall(text, name)) continue;
    seen.add(name);
    out.push({ name, qualifier: use.qualifier ?? '', line });
  }
  return out;
}

/** `require.NoError(t, err)`, `assertEqual(t, got, want)`: a Go call given the test's *testing.T first. */
export function isTestHelperCall(line: string, name: string): boolean {
  const at = line.indexOf(`${name}(`);
  return at >= 0 && /^\(\s*(?:t|b|tb|f)\s*[,)]/.test(line.slice(at + name.length));
}

/** The name is one of a `#[derive(…)]` attribute's on this line. */
function isDerived(line: string, name: string): boolean {
  const m = /#\[derive\(([^)\]]{1,400})\)/.exec(line);
  return m !== null && m[1]!.split(',').some((n) => n.trim().split('::').at(-1) === name);
}

/** The names used on lines `start` to `end` (1-based, inclusive). */
export function namesUsedIn(analysis: SourceAnalysis, start: number, end: number): Set<string> {
  const ids = analysis.identifiers;
  const out = new Set<string>();
  for (let k = firstAtOrAfter(ids, start); k < ids.length && ids[k]!.line <= end; k++) out.add(ids[k]!.name);
  return out;
}

/** The index of the first identifier on `line` or after it (identifiers are in source order). */
function firstAtOrAfter(ids: SourceAnalysis['identifiers'], line: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid]!.line < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
