// What failing test output says about where the failure is: the places it names, and the failing tests
// src/test-output reads (pytest/unittest, node's test runner, TAP, Jest/Vitest/Mocha, go test, cargo test).
import { MAX_NAME, parseTestOutput, type TestFailure } from '../test-output/index.js';
import { frameNames } from './failure-frames.js';
import { isSourceName } from './source-files.js';

/** A place the output names, as written (the workspace prefix and file:// removed). */
export interface FailureLocation {
  path: string;
  line: number | null;
  /** Where in the output it was named (earlier first). */
  at: number;
}

/** Locations, failing tests, messages, frames, Go packages and Python modules named by failing output. */
export interface FailureReport {
  locations: FailureLocation[];
  /** Names of failing tests, innermost part only (`test_add`, `TestAbs`, `adds numbers`). */
  testNames: string[];
  /** Go import paths of failing packages (`FAIL\texample.com/m/pkg`), in order. */
  goPackages: string[];
  /** Failing unittest ids as written (`tests.test_calc.TestCalc.test_add`): a prefix names the module. */
  pythonModules: string[];
  /** Failing tests' full names and ids (`TestLex/raw_string`, `test_f[case]`, `suite › case`), at most MAX_TITLES. */
  titles: string[];
  /** What the output says about each failure (its block, or the output's tail), each at most MAX_MESSAGE. */
  messages: string[];
  /** Function names of the traceback and stack frames, innermost last. */
  frames: string[];
}

/** Titles kept at most. */
const MAX_TITLES = 10;
/** Messages kept at most, and the longest one. */
const MAX_MESSAGES = 5;
const MAX_MESSAGE = 4000;

/** The most output read for locations: the head and tail halves of longer output. */
const MAX_SCAN = 512 * 1024;
/** Paths named without a line kept at most. */
const MAX_LINELESS = 20;
/** A word of the output that may be a path (checked further in code, so the pattern cannot backtrack). */
const PATH_WORD = /(?:^|[\s('"[<]|file:\/\/)([^\s:()"'[\]<>]{3,400})/gm;

const LOCATION_PATTERNS: readonly RegExp[] = [
  // Python tracebacks
  /File "([^"\n]+)", line (\d+)/g,
  // pytest node ids
  /(?:^|[\s(])([^\s:()"']+\.[A-Za-z0-9]+)::[A-Za-z_]/gm,
  // path:line[:col] (pytest short tracebacks, go test, compilers, stack traces, TAP `location:`)
  /(?:^|[\s('"[<]|file:\/\/)([^\s:()"'[\]<>]+\.[A-Za-z][A-Za-z0-9]*):(\d+)(?::\d+)?/gm,
  // Jest and Vitest name the failing file without a line
  /^\s*FAIL\s+([^\s:]+\.[A-Za-z][A-Za-z0-9]*)(?=\s|$)/gm,
];

/**
 * Read the locations and failing tests from test output: the failing tests, their files, Go packages and
 * unittest ids as src/test-output parses them, and every place the output names (traceback frames,
 * `file:line`, stack frames) for the files around them.
 */
export function readFailureReport(output: string, workdir = '/workspace'): FailureReport {
  const text = output.length > MAX_SCAN ? `${output.slice(0, MAX_SCAN / 2)}\n${output.slice(-MAX_SCAN / 2)}` : output;
  const dir = workdir.replace(/\/+$/, '');
  const locations: FailureLocation[] = [];
  for (const re of LOCATION_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const path = cleanPath(m[1]!, dir);
      if (path === null) continue;
      locations.push({ path, line: m[2] === undefined ? null : Number(m[2]), at: m.index });
    }
  }
  // paths named without a line: any inside the workspace, and data files (not code) relative to it,
  // which a data-driven test names (`/workspace/tests/languages/java/x.test`, `testdata/inline.toml`)
  let lineless = 0;
  for (const m of text.matchAll(PATH_WORD)) {
    if (lineless >= MAX_LINELESS) break;
    const word = m[1]!.replace(/[.,;]+$/, '');
    const end = m.index + m[0].length;
    if (/^:\d/.test(text.slice(end, end + 2)) || !word.includes('/') || !/\.[A-Za-z0-9]{1,10}$/.test(word)) continue;
    const inside = dir !== '' && word.startsWith(`${dir}/`);
    if (!inside && (word.startsWith('/') || isSourceName(word.slice(word.lastIndexOf('/') + 1)))) continue;
    const path = cleanPath(word, dir);
    if (path === null || locations.some((l) => l.path === path)) continue;
    locations.push({ path, line: null, at: m.index });
    lineless++;
  }
  const parsed = parseTestOutput(text);
  const failures = parsed.failures;
  for (const f of failures) {
    const path = f.file === null ? null : cleanPath(f.file, dir);
    // placed by the line of the output that explains the failure (after everything else when unknown)
    const at = f.block === null ? text.length : lineOffset(text, f.block.start);
    if (path !== null && !locations.some((l) => l.path === path)) locations.push({ path, line: f.line, at });
  }
  locations.sort((a, b) => a.at - b.at);
  // a name cut to MAX_NAME is no name a test is defined under
  const tests = failures.filter((f) => f.scope === 'test' && f.name.length < MAX_NAME && f.id.length < MAX_NAME);
  return {
    locations,
    testNames: unique(
      (parsed.runners.length > 0 ? tests.map(innermostName) : customRunnerNames(text)).filter((n) => n !== ''),
    ),
    goPackages: unique(
      failures
        .filter((f) => f.runner === 'go')
        .map((f) => f.package ?? (f.scope === 'package' ? f.id : null))
        .filter((p) => p !== null),
    ),
    pythonModules: unique(tests.filter((f) => f.runner === 'unittest').map((f) => f.id)),
    titles: unique(tests.flatMap((f) => [f.name, f.id]).filter((t) => t !== '')).slice(0, MAX_TITLES),
    messages: failureMessages(text, failures),
    frames: frameNames(text),
  };
}

/** The text of each failure's block (lines of the output), or the output's tail when no runner was recognised. */
function failureMessages(text: string, failures: readonly TestFailure[]): string[] {
  const blocks = failures.flatMap((f) => (f.block === null ? [] : [f.block])).slice(0, MAX_MESSAGES);
  if (blocks.length === 0) return text.trim() === '' ? [] : [text.slice(-MAX_MESSAGE)];
  const lines = text.split('\n');
  return unique(
    blocks.map((b) =>
      lines
        .slice(b.start - 1, b.end)
        .join('\n')
        .slice(0, MAX_MESSAGE),
    ),
  );
}

/** The name a failing test is defined under in its file (`test_b`, `TestAbs`, `adds numbers`). */
function innermostName(f: TestFailure): string {
  switch (f.runner) {
    case 'pytest':
      return f.id.split('::').at(-1)!.replace(/\[.*$/, '');
    case 'unittest':
      return f.id.split('.').at(-1)!;
    case 'go':
      return f.id.split('/')[0]!;
    case 'cargo':
      return f.id.split('::').at(-1)!;
    default:
      return f.name
        .split(/ [>›] /)
        .at(-1)!
        .replace(/\s+\(?\d+(?:\.\d+)?\s*m?s\)?\s*$/, '')
        .trim();
  }
}

/** A runner src/test-output does not know marks a failing test with a cross: `✗ totals are rounded`. */
function customRunnerNames(text: string): string[] {
  const names: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s{0,8}[✖✗✘×] (.{1,500})$/.exec(line);
    if (m) names.push(m[1]!.replace(/\s+\(?\d+(?:\.\d+)?\s*m?s\)?\s*$/, '').trim());
  }
  return names;
}

/** The offset in text of its 1-based line n. */
function lineOffset(text: string, n: number): number {
  let at = 0;
  for (let i = 1; i < n && at >= 0; i++) at = text.indexOf('\n', at) + 1;
  return at <= 0 && n > 1 ? text.length : at;
}

/** A path as written in output, made repository-relative (null for an absolute path outside the workdir). */
function cleanPath(raw: string, workdir: string): string | null {
  let p = raw.replace(/^file:\/\//, '');
  if (p.startsWith(`${workdir}/`)) p = p.slice(workdir.length + 1);
  else if (p.startsWith('/')) return null;
  p = p.replace(/^(\.\/)+/, '');
  if (p === '' || p.split('/').includes('..') || p.startsWith('node:')) return null;
  return p;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
