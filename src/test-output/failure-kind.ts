// How a test failed, in a word: the error type its block names (`AssertionError`, `TypeError`,
// `panic`, `expect.toBe`), so a failure can be compared with the same test's failure at baseline
// without comparing messages that carry addresses, timings or paths.
import type { LineRange } from './types.js';

/** The longest kind kept. */
export const MAX_KIND = 80;

/** Jest's and Vitest's matcher line: `expect(received).toBe(expected)`. */
const EXPECT = /^\s*expect\((?:received|value)\)\.(?:not\.)?(\w+)\(/;

/** Patterns tried on each line of a failure's block, in order; the first line any matches decides. */
const KIND_PATTERNS: readonly RegExp[] = [
  // pytest's location line closing a block: `tests/test_x.py:7: AssertionError`
  /^[^\s:]+\.py:\d+: (?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*)$/,
  // pytest's `E   ValueError: ...` lines
  /^E\s+(?:[A-Za-z_][\w]*\.)*([A-Za-z_]\w*(?:Error|Exception|Exit|Failure|Interrupt|Warning|Timeout))\b/,
  // a raised error's own line: Python's traceback end, JavaScript's `TypeError: ...`, `AssertionError [ERR_ASSERTION]: ...`
  /^\s*(?:[A-Za-z_][\w]*\.)*([A-Z]\w*(?:Error|Exception|Failure|Timeout))(?::|\s*$| \[)/,
  // TAP's YAML diagnostics (node's test runner): `name: 'AssertionError'`
  /^\s+name: '?([A-Z]\w*(?:Error|Exception))'?$/,
  EXPECT,
  // Go's and Rust's panics
  /\b(panic)(?:: |ked at )/,
];

/** The kind of the failure whose explanation is `block` of `lines` (0-based lines, 1-based range), or null when none is named. */
export function failureKind(lines: readonly string[], block: LineRange | null): string | null {
  if (block === null) return null;
  const last = Math.min(block.end, lines.length);
  for (let n = Math.max(1, block.start); n <= last; n++) {
    const line = lines[n - 1]!;
    for (const re of KIND_PATTERNS) {
      const m = re.exec(line);
      if (m === null) continue;
      const kind = re === EXPECT ? `expect.${m[1]!}` : m[1]!;
      return kind.slice(0, MAX_KIND);
    }
  }
  return null;
}
