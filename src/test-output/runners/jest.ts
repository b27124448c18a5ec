// Jest: `FAIL path` per test file, `● describe › test` failure blocks, and `Tests: 3 failed, 5 passed, 8 total`.
import { MAX_FAILURES, capName, num, range, trimBlankEnd, type RunnerParse, type RunnerParser } from '../lines.js';
import type { LineRange, TestFailure } from '../types.js';

const FILE = /^(FAIL|PASS) +(\S+)(?: \(\d+(?:\.\d+)? ?m?s\))?\s*$/;
const HEADER = /^ {2}● (.+)$/;
const TESTS = /^Tests: +(.+)$/;
const SUITES = /^Test Suites: /;
const SUMMARY_OF_FAILING = /^Summary of all failing tests$/;
const FRAME = /^\s+at .*?\(?([^\s()]+):(\d+):\d+\)?$/;
const CODE_FRAME = /^\s*> +(\d+) \|/;

/** The failing tests Jest reported. */
export const parseJest: RunnerParser = (lines) => {
  const failures: TestFailure[] = [];
  const summaries: LineRange[] = [];
  let counts: RunnerParse['counts'] = null;
  let firstLine = -1;
  let file: string | null = null;
  let open: { title: string; first: number; file: string | null } | null = null;
  let summaryStart = -1;
  const seen = new Set<string>();
  const close = (end: number): void => {
    if (open === null) return;
    const last = trimBlankEnd(lines, open.first, end);
    const suiteError = open.title === 'Test suite failed to run';
    const id = suiteError ? (open.file ?? open.title) : open.title.split(' › ').join(' ');
    const key = `${open.file ?? ''}\u0000${id}`;
    if (!seen.has(key) && failures.length < MAX_FAILURES) {
      seen.add(key);
      failures.push({
        runner: 'jest',
        scope: suiteError ? 'file' : 'test',
        id: capName(id),
        name: capName(open.title),
        package: null,
        ...location(lines, open.first, last, open.file),
        block: range(open.first, last),
      });
    }
    open = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const fileMatch = FILE.exec(text);
    if (fileMatch !== null) {
      close(i - 1);
      file = fileMatch[2]!;
      if (firstLine < 0) firstLine = i;
      continue;
    }
    if (SUMMARY_OF_FAILING.test(text)) {
      close(i - 1);
      continue;
    }
    if (SUITES.test(text)) {
      close(i - 1);
      if (summaryStart < 0) summaryStart = i;
      if (firstLine < 0) firstLine = i;
      continue;
    }
    const tests = TESTS.exec(text);
    if (tests !== null) {
      close(i - 1);
      counts = readCounts(tests[1]!);
      if (summaryStart < 0) summaryStart = i;
      summaries.push(range(summaryStart, i));
      summaryStart = -1;
      if (firstLine < 0) firstLine = i;
      continue;
    }
    const header = file !== null ? HEADER.exec(text) : null;
    if (header !== null) {
      close(i - 1);
      open = { title: header[1]!, first: i, file };
    }
  }
  close(lines.length - 1);
  if (firstLine < 0) return null;
  return { runner: 'jest', failures, counts, summaries, firstLine };
};

function readCounts(text: string): RunnerParse['counts'] {
  const pick = (word: string): number | null => num(new RegExp(`(\\d+) ${word}\\b`).exec(text)?.[1]);
  return { runner: 'jest', passed: pick('passed') ?? 0, failed: pick('failed') ?? 0 };
}

/** The test file's own frame in the block (`at Object.toBe (test/x.test.js:15:33)`), or the code frame's line. */
function location(
  lines: readonly string[],
  first: number,
  last: number,
  file: string | null,
): { file: string | null; line: number | null } {
  let codeLine: number | null = null;
  for (let i = first; i <= last; i++) {
    const frame = FRAME.exec(lines[i]!);
    if (frame !== null && (file === null || frame[1]!.endsWith(file))) return { file: frame[1]!, line: num(frame[2]) };
    codeLine ??= num(CODE_FRAME.exec(lines[i]!)?.[1]);
  }
  return { file, line: codeLine };
}
