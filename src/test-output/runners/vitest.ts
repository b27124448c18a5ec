// Vitest: ` FAIL  file > describe > test` blocks under `Failed Tests N`, each ending at a `⎯⎯[1/4]⎯`
// rule, the ` ❯ file:line:col` location, and `Tests  4 failed | 5 passed (9)`.
import { MAX_FAILURES, capName, num, range, trimBlankEnd, type RunnerParse, type RunnerParser } from '../lines.js';
import type { LineRange, TestFailure } from '../types.js';

const HEADER = /^ ?FAIL {1,2}(\S+?)(?: > (.+?))?(?: \[ .* \])?\s*$/;
const RULE = /^⎯{3,}(?:\[\d+\/\d+\]⎯*)?$/;
const BANNER = /^⎯+ Failed (Tests|Suites) \d+ ⎯+$/;
const VERBOSE_FAIL = /^ {1,3}× (\S+) > (.+?)(?: \d+(?:\.\d+)?m?s)?$/;
const LOCATION = /^ ❯ (\S+):(\d+):\d+$/;
const RUN = /^ RUN {1,2}v\d+\./;
const TEST_FILES = /^ Test Files {2}/;
const TESTS = /^ {6}Tests {2}(.+)$/;

/** The failing tests Vitest reported. */
export const parseVitest: RunnerParser = (lines) => {
  const failures: TestFailure[] = [];
  const summaries: LineRange[] = [];
  const listed: { file: string; names: string; line: number }[] = [];
  let counts: RunnerParse['counts'] = null;
  let firstLine = -1;
  let inFailed = false;
  let open: { file: string; names: string | null; first: number } | null = null;
  let summaryStart = -1;
  const close = (end: number): void => {
    if (open === null) return;
    const last = trimBlankEnd(lines, open.first, end);
    if (failures.length < MAX_FAILURES) {
      const loc = location(lines, open.first, last);
      failures.push({
        runner: 'vitest',
        scope: open.names === null ? 'file' : 'test',
        id: capName(open.names === null ? open.file : open.names.split(' > ').join(' ')),
        name: capName(open.names ?? open.file),
        package: null,
        file: loc?.file ?? open.file,
        line: loc?.line ?? null,
        block: range(open.first, last),
      });
    }
    open = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (RUN.test(text)) {
      if (firstLine < 0) firstLine = i;
      continue;
    }
    if (BANNER.test(text)) {
      close(i - 1);
      inFailed = true;
      summaries.push(range(i, i));
      if (firstLine < 0) firstLine = i;
      continue;
    }
    if (RULE.test(text)) {
      close(i - 1);
      continue;
    }
    if (TEST_FILES.test(text)) {
      close(i - 1);
      inFailed = false;
      summaryStart = i;
      if (firstLine < 0) firstLine = i;
      continue;
    }
    const tests = TESTS.exec(text);
    if (tests !== null) {
      counts = readCounts(tests[1]!);
      summaries.push(range(summaryStart >= 0 ? summaryStart : i, i));
      summaryStart = -1;
      continue;
    }
    const header = inFailed ? HEADER.exec(text) : null;
    if (header !== null) {
      close(i - 1);
      open = { file: header[1]!, names: header[2] ?? null, first: i };
      continue;
    }
    const verbose = listed.length < MAX_FAILURES ? VERBOSE_FAIL.exec(text) : null;
    if (verbose !== null) listed.push({ file: verbose[1]!, names: verbose[2]!, line: i });
  }
  close(lines.length - 1);
  // no failure section (cut off, or a reporter without one): the verbose reporter's × lines
  const ids = new Set(failures.map((f) => f.id));
  for (const l of listed) {
    const id = l.names.split(' > ').join(' ');
    if (ids.has(id) || failures.length >= MAX_FAILURES) continue;
    ids.add(id);
    const first = l.line;
    let last = first;
    while (/^ {3,}→ /.test(lines[last + 1] ?? '')) last++;
    failures.push({
      runner: 'vitest',
      scope: 'test',
      id: capName(id),
      name: capName(l.names),
      package: null,
      file: l.file,
      line: null,
      block: range(first, last),
    });
  }
  if (firstLine < 0) return null;
  return { runner: 'vitest', failures, counts, summaries, firstLine };
};

function readCounts(text: string): RunnerParse['counts'] {
  const pick = (word: string): number | null => num(new RegExp(`(\\d+) ${word}\\b`).exec(text)?.[1]);
  return { runner: 'vitest', passed: pick('passed') ?? 0, failed: pick('failed') ?? 0 };
}

function location(lines: readonly string[], first: number, last: number): { file: string; line: number | null } | null {
  for (let i = first; i <= last; i++) {
    const m = LOCATION.exec(lines[i]!);
    if (m !== null) return { file: m[1]!, line: num(m[2]) };
  }
  return null;
}
