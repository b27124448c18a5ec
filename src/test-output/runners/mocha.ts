// Mocha's spec reporter: `N passing`, `N failing`, then numbered blocks `  1) suite\n       test:`.
import { MAX_FAILURES, capName, num, range, trimBlankEnd, type RunnerParse, type RunnerParser } from '../lines.js';
import type { LineRange, TestFailure } from '../types.js';

const PASSING = /^ {2}(\d+) passing \(/;
const FAILING = /^ {2}(\d+) failing$/;
const HEADER = /^ {2}(\d+)\) (.*)$/;
const FRAME = /^\s+at .*?\(?([^\s()]+):(\d+):\d+\)?$/;
/** A title spans at most this many lines (one per describe level). */
const MAX_TITLE_LINES = 20;

/** The failing tests Mocha reported. */
export const parseMocha: RunnerParser = (lines) => {
  const failures: TestFailure[] = [];
  const summaries: LineRange[] = [];
  let passed: number | null = null;
  let failed: number | null = null;
  let firstLine = -1;
  let inFailures = false;
  const headers: { first: number; titleEnd: number; title: string[] }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const pass = PASSING.exec(text);
    if (pass !== null) {
      passed = num(pass[1]);
      summaries.push(range(i, i));
      if (firstLine < 0) firstLine = i;
      continue;
    }
    const fail = FAILING.exec(text);
    if (fail !== null) {
      failed = num(fail[1]);
      inFailures = true;
      summaries.push(range(i, i));
      if (firstLine < 0) firstLine = i;
      continue;
    }
    const header = inFailures ? HEADER.exec(text) : null;
    if (header === null) continue;
    // the title: this line and deeper ones up to the one ending in ':'
    const title = [header[2]!];
    let j = i;
    while (!title[title.length - 1]!.endsWith(':') && j - i < MAX_TITLE_LINES && (lines[j + 1] ?? '').trim() !== '') {
      j++;
      title.push(lines[j]!.trim());
    }
    if (!title[title.length - 1]!.endsWith(':')) continue;
    title[title.length - 1] = title[title.length - 1]!.slice(0, -1);
    headers.push({ first: i, titleEnd: j, title });
    i = j;
  }
  for (let h = 0; h < headers.length && failures.length < MAX_FAILURES; h++) {
    const { first, title } = headers[h]!;
    const end = h + 1 < headers.length ? headers[h + 1]!.first - 1 : lines.length - 1;
    const last = trimBlankEnd(lines, first, end);
    let file: string | null = null;
    let line: number | null = null;
    for (let i = first; i <= last && file === null; i++) {
      const frame = FRAME.exec(lines[i]!);
      if (frame !== null && !frame[1]!.startsWith('node:')) {
        file = frame[1]!;
        line = num(frame[2]);
      }
    }
    failures.push({
      runner: 'mocha',
      scope: 'test',
      id: capName(title.join(' ')),
      name: capName(title.join(' › ')),
      package: null,
      file,
      line,
      block: range(first, last),
    });
  }
  if (firstLine < 0) return null;
  const counts: RunnerParse['counts'] = { runner: 'mocha', passed, failed };
  return { runner: 'mocha', failures, counts, summaries, firstLine };
};
