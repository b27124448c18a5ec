// Output of no runner hammer-box knows: a project's own runner (`Test number 5200 failed`,
// `In total, 47455 of 47456 tests passed`), a script run as the test (a Python traceback, a last
// `OK`), make targets printing counts. Read only when no known runner was recognised (their own
// summaries say the same in their own words); a summary line that counts failures decides whatever
// the exit code was.
import { MAX_FAILURES, capName, indentOf, num, range, type RunnerParser } from '../lines.js';
import type { LineRange, TestCounts, TestFailure } from '../types.js';

/** Count lines: each gives passed and failed (null when the line does not say). */
const COUNT_FORMS: readonly { re: RegExp; read: (m: RegExpExecArray) => [number | null, number | null] }[] = [
  // "In total, 47455 of 47456 tests passed", "5199 of 5200 tests passed in 120 ms", "3 of 4 passed"
  {
    re: /\b(\d+) (?:out )?of (\d+) (?:tests?|checks?|cases?|specs?|assertions?)? ?(?:have )?passed\b/i,
    read: (m) => [num(m[1]), diff(num(m[2]), num(m[1]))],
  },
  // "2 of 10 tests failed"
  {
    re: /\b(\d+) (?:out )?of (\d+) (?:tests?|checks?|cases?|specs?|assertions?)? ?(?:have )?failed\b/i,
    read: (m) => [diff(num(m[2]), num(m[1])), num(m[1])],
  },
  // "12 passed, 1 failed", "12 tests passed, 1 test failed", "passed: 12, failed: 1" (either order)
  {
    re: /\b(\d+) (?:tests? )?passed\b[^0-9\n]{0,20}?\b(\d+) (?:tests? )?failed\b/i,
    read: (m) => [num(m[1]), num(m[2])],
  },
  {
    re: /\b(\d+) (?:tests? )?failed\b[^0-9\n]{0,20}?\b(\d+) (?:tests? )?passed\b/i,
    read: (m) => [num(m[2]), num(m[1])],
  },
  {
    re: /\bpass(?:ed|es)?:\s*(\d+)\b[^0-9\n]{0,20}?\bfail(?:ed|ures?|s)?:\s*(\d+)\b/i,
    read: (m) => [num(m[1]), num(m[2])],
  },
  // RSpec and friends: "42 examples, 1 failure"; "10 tests, 2 failures", "Tests run: 5, Failures: 1"
  {
    re: /\b(\d+) (?:examples?|tests?|specs?|assertions?), (\d+) failures?\b/i,
    read: (m) => [diff(num(m[1]), num(m[2])), num(m[2])],
  },
  { re: /\bTests run: (\d+), Failures: (\d+)/, read: (m) => [diff(num(m[1]), num(m[2])), num(m[2])] },
  // "3 tests failed", "Failed: 3", "Failures: 3"
  { re: /\b(\d+) tests? failed\b/i, read: (m) => [null, num(m[1])] },
  { re: /^\s*(?:FAILED|Failed|Failures?|FAILURES?):\s*(\d+)\s*$/, read: (m) => [null, num(m[1])] },
  // "All 12 tests passed", "all tests passed", "12 tests passed"
  { re: /\ball (\d+ )?(?:tests?|checks?|specs?) (?:have )?passed\b/i, read: (m) => [num(m[1]?.trim()), 0] },
  { re: /^\s*(\d+) tests? passed\.?\s*$/i, read: (m) => [num(m[1]), 0] },
];

/** A whole line that says the run passed, or failed, in one word (a script's last line). */
const PASS_WORD = /^\s*(?:OK|PASS|PASSED|SUCCESS|ALL TESTS PASSED)[.!]?\s*$/i;
const FAIL_WORD = /^\s*(?:FAIL|FAILED|FAILURE|TESTS FAILED|SOME TESTS FAILED)[.!]?\s*$/;

/** A line naming one failing test: "Test number 5200 failed", "Test #3 failed", "FAILED: adds numbers", "✗ adds". */
const FAILURE_LINES: readonly RegExp[] = [
  /^\s*(Test (?:number |#|no\.? )?\S+) failed\b/i,
  /^\s*(?:FAIL|FAILED|FAILURE)(?::|!|\s+-)?\s+(\S.{0,300}?)\s*$/,
  /^\s*[✗✘×]\s+(\S.{0,300}?)\s*$/,
];

/** A heading that opens a section of a home-made runner's output: "Testing div...". */
const SECTION = /^\s*(?:Testing|Running|Suite:)\s+([\w.:/@-]{1,100})(?:\.{3}|…|:)/;

/** The first line of an uncaught Python exception, and its frames. */
const TRACEBACK = /^Traceback \(most recent call last\):\s*$/;
const PY_FRAME = /^ {2}File "(.+)", line (\d+), in (.+)$/;
const PY_ERROR = /^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning)?)(?::|\s*$)/;

/** Longest block kept for one failure (lines). */
const MAX_BLOCK = 40;

/** What no known runner printed: counted failures, named failures, a script's traceback, a pass word. */
export const parseGeneric: RunnerParser = (lines) => {
  const failures: TestFailure[] = [];
  const summaries: LineRange[] = [];
  let firstLine = -1;
  let passed: number | null = null;
  let failed: number | null = null;
  let bestTotal = -1;
  let section: string | null = null;
  let saidPass = false;
  let saidFail = false;
  const seen = (i: number): void => {
    if (firstLine < 0) firstLine = i;
  };
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (TRACEBACK.test(text)) {
      const tb = traceback(lines, i);
      seen(i);
      if (tb !== null && failures.length < MAX_FAILURES) failures.push(tb.failure);
      i = tb?.last ?? i;
      continue;
    }
    const heading = SECTION.exec(text);
    if (heading !== null) section = heading[1]!;
    let counted = false;
    for (const form of COUNT_FORMS) {
      const m = form.re.exec(text);
      if (m === null) continue;
      const [p, f] = form.read(m);
      seen(i);
      summaries.push(range(i, i));
      counted = true;
      // the line counting the most tests gives the totals; any line counting a failure counts it
      const total = (p ?? 0) + (f ?? 0);
      if (total > bestTotal) {
        bestTotal = total;
        passed = p;
      }
      if (f !== null) failed = Math.max(failed ?? 0, f);
      break;
    }
    if (counted) continue;
    if (PASS_WORD.test(text)) {
      seen(i);
      saidPass = true;
      summaries.push(range(i, i));
      continue;
    }
    if (FAIL_WORD.test(text)) {
      seen(i);
      saidFail = true;
      summaries.push(range(i, i));
      continue;
    }
    for (const re of FAILURE_LINES) {
      const m = re.exec(text);
      if (m === null) continue;
      seen(i);
      const last = blockEnd(lines, i);
      const name = capName(section === null ? m[1]! : `${section}: ${m[1]!}`);
      if (failures.length < MAX_FAILURES)
        failures.push({
          runner: 'generic',
          scope: 'test',
          id: name,
          name,
          package: null,
          file: null,
          line: null,
          block: range(i, last),
        });
      i = last;
      break;
    }
  }
  if (firstLine < 0) return null;
  if (failed === null && (saidFail || failures.length > 0)) failed = Math.max(1, failures.length);
  if (failed === null && saidPass) failed = 0;
  const counts: TestCounts | null = passed === null && failed === null ? null : { runner: 'generic', passed, failed };
  return { runner: 'generic', failures, counts, summaries, firstLine };
};

/** The last line of a named failure's block: the lines after it at its indent or deeper, up to a cap. */
function blockEnd(lines: readonly string[], first: number): number {
  const indent = indentOf(lines[first]!);
  let last = first;
  for (let j = first + 1; j < lines.length && j - first < MAX_BLOCK; j++) {
    const text = lines[j]!;
    if (text.trim() === '' || indentOf(text) < indent) break;
    if (FAILURE_LINES.some((re) => re.test(text)) || COUNT_FORMS.some((f) => f.re.test(text))) break;
    last = j;
  }
  return last;
}

/** An uncaught Python exception: a failure of the script its outermost frame names (scope file). */
function traceback(lines: readonly string[], first: number): { failure: TestFailure; last: number } | null {
  let file: string | null = null;
  let line: number | null = null;
  let j = first + 1;
  for (; j < lines.length && j - first < MAX_BLOCK * 4; j++) {
    const frame = PY_FRAME.exec(lines[j]!);
    if (frame !== null) {
      if (file === null) {
        file = frame[1]!.replace(/^\/workspace\//, '');
        line = num(frame[2]);
      }
      continue;
    }
    if (/^\s/.test(lines[j]!) || lines[j]!.trim() === '') continue;
    break;
  }
  if (file === null || j >= lines.length || !PY_ERROR.test(lines[j]!)) return null;
  const id = capName(file);
  return {
    failure: { runner: 'generic', scope: 'file', id, name: id, package: null, file: id, line, block: range(first, j) },
    last: j,
  };
}

function diff(total: number | null, part: number | null): number | null {
  return total === null || part === null ? null : Math.max(0, total - part);
}
