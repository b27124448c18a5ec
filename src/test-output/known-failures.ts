// `[tests] known_failures`: patterns naming failing tests a run ignores when it judges its tests.
import type { FailingTest } from './compare.js';

/**
 * True when `text` matches the glob `pattern` as a whole: `*` any run of characters (including
 * `/`, `::` and spaces), `?` any one character, everything else itself. Linear in practice (the
 * usual two-pointer wildcard match, no regular expression), so a hostile name cannot stall it.
 */
export function globMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/**
 * The test's names a pattern is matched against: its id (`tests/test_x.py::test_y`,
 * `TestAbs/negative`), the name its output prints, and `package id` for a go or cargo test.
 */
export function knownFailureNames(t: Pick<FailingTest, 'id' | 'name' | 'package'>): string[] {
  return [t.id, t.name, ...(t.package ? [`${t.package} ${t.id}`] : [])];
}

/** A predicate: does one of `patterns` name this failing test? */
export function knownFailureMatcher(
  patterns: readonly string[],
): (t: Pick<FailingTest, 'id' | 'name' | 'package'>) => boolean {
  if (patterns.length === 0) return () => false;
  return (t) => knownFailureNames(t).some((name) => patterns.some((p) => globMatch(p, name)));
}
