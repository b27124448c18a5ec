// TAP: node's test runner (`--test-reporter=tap`, `# Subtest:` comments, YAML diagnostics with the
// location) and other producers (mocha's or tape's `not ok N description`).
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
import type { LineRange, TestFailure, TestRunner } from '../types.js';
import { errorLocation } from './node-spec.js';

const RESULT = /^(\s*)(not ok|ok) \d+(?: -)?(?: (.*?))?(?: # (?:SKIP|TODO)\b.*)?$/i;
const SUBTEST = /^(\s*)# Subtest: (.*)$/;
const PLAN = /^(\s*)1\.\.\d+/;
const COUNT = /^# (pass|fail|tests) (\d+)$/;
const LOCATION = /^\s*location: '(.+):(\d+):\d+'$/;
const FAILURE_TYPE = /^\s*failureType: '(\w+)'$/;

/** The failing tests a TAP stream reported. */
export const parseTap: RunnerParser = (lines) => {
  const failures: TestFailure[] = [];
  const summaries: LineRange[] = [];
  let node = false;
  let firstLine = -1;
  let passed: number | null = null;
  let failed: number | null = null;
  let results = 0;
  /** The `# Subtest:` names open at each nesting level (node indents 4 spaces a level). */
  const suites: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (text === 'TAP version 13' || text === 'TAP version 14') {
      if (firstLine < 0) firstLine = i;
      continue;
    }
    const subtest = SUBTEST.exec(text);
    if (subtest !== null) {
      node = true;
      suites.length = Math.floor(subtest[1]!.length / 4);
      suites.push(subtest[2]!);
    }
    const count = COUNT.exec(text);
    if (count !== null) {
      if (count[1] === 'pass') passed = num(count[2]);
      if (count[1] === 'fail') failed = num(count[2]);
      summaries.push(range(i, i));
      continue;
    }
    const result = RESULT.exec(text);
    if (result === null) continue;
    results++;
    if (firstLine < 0) firstLine = i;
    if (result[2]!.toLowerCase() !== 'not ok' || /# (?:SKIP|TODO)\b/i.test(text)) continue;
    const indent = result[1]!.length;
    // the diagnostics: the lines after it indented deeper (a YAML block `---` … `...`, or mocha's text)
    let end = i + 1;
    while (end < lines.length && (lines[end]!.trim() === '' || indentOf(lines[end]!) > indent)) {
      if (PLAN.test(lines[end]!) || SUBTEST.test(lines[end]!) || RESULT.test(lines[end]!)) break;
      end++;
    }
    const last = trimBlankEnd(lines, i, end - 1);
    const title = SUBTEST.exec(lines[i - 1] ?? '');
    const first = title !== null && title[1]!.length === indent ? i - 1 : i;
    let file: string | null = null;
    let line: number | null = null;
    let failureType: string | null = null;
    for (let j = i + 1; j <= last; j++) {
      const loc = LOCATION.exec(lines[j]!);
      if (loc !== null) {
        file = loc[1]!.replace(/^file:\/\//, '');
        line = num(loc[2]);
      }
      failureType ??= FAILURE_TYPE.exec(lines[j]!)?.[1] ?? null;
    }
    if (file === null) {
      const frame = errorLocation(lines, range(i, last));
      file = frame?.file ?? null;
      line = frame?.line ?? null;
    }
    // a suite that failed because its tests did is not a failure of its own
    if (failureType === 'subtestsFailed' || failures.length >= MAX_FAILURES) continue;
    const name = result[3] ?? '';
    const ancestors = suites.slice(0, Math.floor(indent / 4));
    failures.push({
      runner: 'tap',
      scope: 'test',
      id: capName(name),
      name: capName([...ancestors, name].join(' > ')),
      package: null,
      file,
      line,
      block: range(first, last),
    });
  }
  if (firstLine < 0 || results === 0) return null;
  const runner: TestRunner = node ? 'node' : 'tap';
  for (const f of failures) f.runner = runner;
  const counts: RunnerParse['counts'] = passed === null && failed === null ? null : { runner, passed, failed };
  return { runner, failures, counts, summaries, firstLine };
};
