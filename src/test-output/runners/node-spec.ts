// node's test runner, spec (and dot) reporter: `✖ name (1.2ms)` lines with the error indented under
// them, `▶ suite` lines, the `✖ failing tests:` section (each with `test at file:line:col`), `ℹ pass N`.
import {
  MAX_FAILURES,
  capName,
  indentOf,
  num,
  range,
  trimBlankEnd,
  type RunnerParse,
  type RunnerParser,
} from '../lines.js';
import type { LineRange, TestFailure } from '../types.js';

const MARK = /^(\s*)([✔✖▶﹣]) (.*?)(?: \(\d+(?:\.\d+)?m?s\))?(?: # .*)?$/;
const INFO = /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)$/;
const SECTION = /^(?:✖ failing tests:|Failed tests:)$/;
const TEST_AT = /^test at (.+):(\d+):\d+$/;
const SUITE_NOTE = /^'\d+ subtests? failed'$/;

interface Entry {
  name: string;
  ancestors: string[];
  file: string | null;
  line: number | null;
  block: LineRange;
}

/** The failing tests node's spec or dot reporter printed. */
export const parseNodeSpec: RunnerParser = (lines) => {
  const body: Entry[] = [];
  const section: Entry[] = [];
  const summaries: LineRange[] = [];
  const suites: string[] = [];
  let firstLine = -1;
  let passed: number | null = null;
  let failed: number | null = null;
  let inSection = false;
  let infoStart = -1;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const info = INFO.exec(text);
    if (info !== null) {
      if (infoStart < 0) infoStart = i;
      if (info[1] === 'pass') passed = num(info[2]);
      if (info[1] === 'fail') failed = num(info[2]);
      if (firstLine < 0) firstLine = i;
      continue;
    }
    if (infoStart >= 0) {
      summaries.push(range(infoStart, i - 1));
      infoStart = -1;
    }
    if (SECTION.test(text)) {
      inSection = true;
      summaries.push(range(i, i));
      if (firstLine < 0) firstLine = i;
      continue;
    }
    const at = inSection ? TEST_AT.exec(text) : null;
    const mark = MARK.exec(at !== null ? (lines[i + 1] ?? '') : text);
    if (mark === null) {
      if (inSection && text.trim() !== '' && indentOf(text) === 0) inSection = false;
      continue;
    }
    const markLine = at !== null ? i + 1 : i;
    const indent = mark[1]!.length;
    const name = mark[3]!;
    if (firstLine < 0) firstLine = i;
    if (mark[2] === '▶') {
      suites.length = Math.floor(indent / 2);
      suites.push(name);
      continue;
    }
    if (mark[2] !== '✖') continue;
    let end = markLine + 1;
    while (end < lines.length && (lines[end]!.trim() === '' || indentOf(lines[end]!) > indent)) end++;
    const last = trimBlankEnd(lines, markLine, end - 1);
    // a suite's ✖ has nothing under it but a count: its failing tests have their own lines
    const under = lines.slice(markLine + 1, last + 1).filter((l) => l.trim() !== '');
    if (under.every((l) => SUITE_NOTE.test(l.trim())) && at === null) {
      i = last;
      continue;
    }
    const entry: Entry = {
      name,
      ancestors: suites.slice(0, Math.floor(indent / 2)),
      file: at?.[1] ?? null,
      line: num(at?.[2]),
      block: range(i, last),
    };
    (inSection ? section : body).push(entry);
    i = last;
  }
  if (infoStart >= 0) summaries.push(range(infoStart, lines.length - 1));
  if (firstLine < 0 || (body.length === 0 && section.length === 0 && passed === null && failed === null)) return null;
  const failures: TestFailure[] = [];
  const chosen = section.length > 0 ? section : body;
  for (const e of chosen.slice(0, MAX_FAILURES)) {
    const inBody = body.find((b) => b.name === e.name);
    const ancestors = e.ancestors.length > 0 ? e.ancestors : (inBody?.ancestors ?? []);
    failures.push({
      runner: 'node',
      scope: 'test',
      id: capName(e.name),
      name: capName([...ancestors, e.name].join(' > ')),
      package: null,
      file: e.file ?? errorLocation(lines, e.block)?.file ?? null,
      line: e.line ?? errorLocation(lines, e.block)?.line ?? null,
      block: e.block,
    });
  }
  const counts: RunnerParse['counts'] = passed === null && failed === null ? null : { runner: 'node', passed, failed };
  return { runner: 'node', failures, counts, summaries, firstLine };
};

/** The first stack frame of a block that is not node's own (`at … (file:///x/test.js:13:12)`). */
export function errorLocation(
  lines: readonly string[],
  block: LineRange,
): { file: string; line: number | null } | null {
  for (let i = block.start - 1; i < block.end; i++) {
    const m = /\(?(?:file:\/\/)?([^\s()]+\.[cm]?[jt]sx?):(\d+):\d+\)?$/.exec(lines[i]!.trim());
    if (m !== null && lines[i]!.trim().startsWith('at ') && !m[1]!.startsWith('node:')) {
      return { file: m[1]!, line: num(m[2]) };
    }
  }
  return null;
}
