// Python's unittest: `FAIL: test_x (module.Class.test_x)` blocks between `====` rules, `Ran N tests`,
// and `FAILED (failures=…, errors=…)` or `OK`.
import { MAX_FAILURES, capName, num, range, trimBlankEnd, type RunnerParse, type RunnerParser } from '../lines.js';
import type { LineRange, TestFailure } from '../types.js';

const RULE = /^={20,}$/;
const DASHES = /^-{20,}$/;
const HEADER = /^(FAIL|ERROR|UNEXPECTED SUCCESS): (\S+) \(([\w.]+)\)(.*)$/;
const RAN = /^Ran (\d+) tests? in /;
const RESULT = /^(FAILED|OK)(?: \((.*)\))?$/;
const FRAME = /^ {2}File "(.+)", line (\d+), in (\S+)/;

/** The failing tests unittest reported. */
export const parseUnittest: RunnerParser = (lines) => {
  const failures: TestFailure[] = [];
  const summaries: LineRange[] = [];
  let counts: RunnerParse['counts'] = null;
  let firstLine = -1;
  let ran: number | null = null;
  for (let i = 0; i < lines.length; i++) {
    const header = RULE.test(lines[i]!) ? HEADER.exec(lines[i + 1] ?? '') : null;
    if (header !== null) {
      if (firstLine < 0) firstLine = i;
      let end = i + 2;
      while (
        end < lines.length &&
        !RULE.test(lines[end]!) &&
        !(DASHES.test(lines[end]!) && RAN.test(lines[end + 1] ?? ''))
      ) {
        end++;
      }
      const last = trimBlankEnd(lines, i, end - 1);
      if (failures.length < MAX_FAILURES) failures.push(failure(lines, header, i, last));
      i = end - 1;
      continue;
    }
    const ranMatch = RAN.exec(lines[i]!);
    if (ranMatch !== null) {
      if (firstLine < 0) firstLine = i;
      ran = num(ranMatch[1]);
      let j = i + 1;
      while (j < lines.length && lines[j]!.trim() === '') j++;
      const result = RESULT.exec(lines[j] ?? '');
      if (result !== null) {
        counts = readCounts(ran, result[1]!, result[2] ?? '');
        summaries.push(range(i, j));
      } else summaries.push(range(i, i));
    }
  }
  if (firstLine < 0) return null;
  return { runner: 'unittest', failures, counts, summaries, firstLine };
};

function failure(lines: readonly string[], header: RegExpExecArray, first: number, last: number): TestFailure {
  const [, , method, where, rest] = header;
  // Python 3.11+ prints the full id in the parentheses, older versions the class only.
  const id = where!.endsWith(`.${method}`) ? where! : `${where}.${method}`;
  let file: string | null = null;
  let line: number | null = null;
  for (let i = first; i <= last; i++) {
    const frame = FRAME.exec(lines[i]!);
    if (frame === null) continue;
    // the test method's own frame, or else the first frame
    if (frame[3] === method || file === null) {
      file = frame[1]!;
      line = num(frame[2]);
    }
    if (frame[3] === method) break;
  }
  return {
    runner: 'unittest',
    scope: 'test',
    id: capName(id),
    name: capName(`${method}${rest!.trim() === '' ? '' : ` ${rest!.trim()}`}`),
    package: null,
    file,
    line,
    block: range(first, last),
  };
}

function readCounts(ran: number | null, result: string, detail: string): RunnerParse['counts'] {
  const field = (name: string): number => num(new RegExp(`\\b${name}=(\\d+)`).exec(detail)?.[1]) ?? 0;
  const failed = field('failures') + field('errors') + field('unexpected successes');
  // unittest prints no pass count; it follows from `OK` (subtests make FAILED's arithmetic unreliable)
  const passed = result === 'OK' && ran !== null ? ran - field('skipped') - field('expected failures') : null;
  return { runner: 'unittest', passed, failed };
}
