// The parts of a failing test file the failure is about (pure): the enclosing definition of each line
// it names, or in JS/TS, where tests are calls (`it('…', () => {…})`), the enclosing test call.
import type { SourceAnalysis } from '../syntax/index.js';
import { lineRegion } from './regions.js';
import type { LineRange } from './types.js';

/** Lines looked up or down for a test call's start and end at most. */
const MAX_SCAN = 400;
const TEST_CALL = /^(\s*)(?:it|test|specify|bench|scenario)(?:\.[A-Za-z]+)*\s*\(/;

/** The regions of the named lines (none when no line is named: the whole file is about the failure). */
export function failingRegions(text: string, analysis: SourceAnalysis, lines: readonly number[]): LineRange[] {
  const named = lines.filter((l) => l > 0);
  if (named.length === 0) return [];
  const js = analysis.language !== 'python' && analysis.language !== 'go' && analysis.language !== 'rust';
  const all = js ? text.split('\n') : [];
  return named.map((line) => {
    const region = lineRegion(analysis.definitions, line);
    const call = js ? testCall(all, line) : null;
    return call !== null && call.end - call.start < region.end - region.start ? call : region;
  });
}

/** The `it(…)`/`test(…)` call holding a 1-based line, by indentation: its first line to its closing one. */
function testCall(lines: readonly string[], line: number): LineRange | null {
  const at = line - 1;
  if (at < 0 || at >= lines.length) return null;
  for (let i = at; i >= 0 && at - i <= MAX_SCAN; i--) {
    const m = TEST_CALL.exec(lines[i]!);
    if (m === null) continue;
    const indent = m[1]!.length;
    for (let j = Math.max(i + 1, at); j < lines.length && j - i <= MAX_SCAN; j++) {
      const l = lines[j]!;
      if (l.trim() !== '' && l.length - l.trimStart().length <= indent && /^\s*[})\]]/.test(l))
        return j >= at ? { start: i + 1, end: j + 1 } : null;
    }
    return null;
  }
  return null;
}
