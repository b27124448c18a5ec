// `go test`: `--- FAIL: TestX (0.00s)` with its indented log lines (or, under -v, the log lines after
// `=== RUN   TestX`), subtests `TestX/case`, panics, `FAIL pkg`, and `FAIL pkg [build failed]` with its errors.
import { MAX_FAILURES, capName, indentOf, num, range, trimBlankEnd, type RunnerParser } from '../lines.js';
import type { LineRange, TestFailure } from '../types.js';

const RESULT = /^(\s*)--- (FAIL|PASS|SKIP): (\S+) \(\d+(?:\.\d+)?s\)$/;
const RUN = /^=== (?:RUN|CONT|PAUSE|NAME) +(\S+)$/;
const PACKAGE = /^(FAIL|ok) *\t(\S+)(?:\s+(.*))?$/;
const TOP_END = /^(?:--- |=== |FAIL(?:\s|$)|ok\s|PASS$|\?\s|# )/;
const BUILD_HEADER = /^# (\S+)/;
const MESSAGE = /^\s+([\w.\-/]+\.go):(\d+): /;
const TEST_FRAME = /^\t(\S+_test\.go):(\d+)/;
const COMPILE_ERROR = /^([\w.\-/]+\.go):(\d+):\d+: /;

interface Pending {
  name: string;
  indent: number;
  line: number;
  block: LineRange;
}

/** The failing tests (and packages that failed to build) `go test` reported. */
export const parseGo: RunnerParser = (lines) => {
  const failures: TestFailure[] = [];
  const summaries: LineRange[] = [];
  const runAt = new Map<string, number>();
  let pending: Pending[] = [];
  let firstLine = -1;
  let results = 0;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const run = RUN.exec(text);
    if (run !== null) {
      runAt.set(run[1]!, i);
      if (firstLine < 0) firstLine = i;
      continue;
    }
    const result = RESULT.exec(text);
    if (result !== null) {
      results++;
      if (firstLine < 0) firstLine = i;
      if (result[2] !== 'FAIL') continue;
      summaries.push(range(i, i));
      const indent = result[1]!.length;
      if (pending.length < MAX_FAILURES * 4) {
        pending.push({ name: result[3]!, indent, line: i, block: blockOf(lines, i, indent, runAt.get(result[3]!)) });
      }
      continue;
    }
    const pkg = PACKAGE.exec(text);
    if (pkg === null) continue;
    if (firstLine < 0) firstLine = i;
    summaries.push(range(i, i));
    const [, status, name, detail] = pkg;
    if (status === 'FAIL' && detail?.startsWith('[') === true && failures.length < MAX_FAILURES) {
      failures.push(buildFailure(lines, i, name!, detail));
    }
    flushPending(lines, pending, name!, failures);
    pending = [];
    runAt.clear();
  }
  flushPending(lines, pending, null, failures);
  if (firstLine < 0 || (results === 0 && failures.length === 0 && summaries.length === 0)) return null;
  return { runner: 'go', failures, counts: null, summaries, firstLine };
};

/** Add a package's failed tests, leaves only: a test whose subtests failed is reported through them. */
function flushPending(
  lines: readonly string[],
  pending: readonly Pending[],
  pkg: string | null,
  out: TestFailure[],
): void {
  const parents = new Set<string>();
  for (const p of pending) {
    for (let cut = p.name.lastIndexOf('/'); cut > 0; cut = p.name.lastIndexOf('/', cut - 1))
      parents.add(p.name.slice(0, cut));
  }
  for (const p of pending) {
    if (out.length >= MAX_FAILURES) return;
    if (!parents.has(p.name)) out.push(testFailure(lines, p, pkg));
  }
}

/**
 * The lines explaining a `--- FAIL`: under -v its log lines follow `=== RUN` (up to the next `===`/`---`
 * line); otherwise they follow the result line, indented deeper (and a panic after a top-level one).
 */
function blockOf(lines: readonly string[], at: number, indent: number, runLine: number | undefined): LineRange {
  if (runLine !== undefined && runLine < at) {
    let end = runLine + 1;
    while (end < at && !RUN.test(lines[end]!) && !RESULT.test(lines[end]!)) end++;
    if (end > runLine + 1) return range(runLine, trimBlankEnd(lines, runLine, end - 1));
  }
  let end = at + 1;
  while (end < lines.length) {
    const text = lines[end]!;
    if (indent === 0 ? TOP_END.test(text) : text.trim() !== '' && indentOf(text) <= indent) break;
    end++;
  }
  return range(at, trimBlankEnd(lines, at, end - 1));
}

function testFailure(lines: readonly string[], p: Pending, pkg: string | null): TestFailure {
  let file: string | null = null;
  let line: number | null = null;
  for (let i = p.block.start - 1; i < p.block.end && file === null; i++) {
    const m = MESSAGE.exec(lines[i]!) ?? TEST_FRAME.exec(lines[i]!);
    if (m !== null) {
      file = m[1]!;
      line = num(m[2]);
    }
  }
  return {
    runner: 'go',
    scope: 'test',
    id: capName(p.name),
    name: capName(p.name),
    package: pkg,
    file,
    line,
    block: p.block,
  };
}

/** A package that failed to build: its `# pkg` header and compiler errors, up to the FAIL line. */
function buildFailure(lines: readonly string[], at: number, pkg: string, detail: string): TestFailure {
  let first = at;
  for (let i = at - 1; i >= 0 && at - i <= 200; i--) {
    const header = BUILD_HEADER.exec(lines[i]!);
    if (header !== null && (header[1] === pkg || header[1]!.startsWith(`${pkg} `) || lines[i]!.includes(pkg))) {
      first = i;
      break;
    }
  }
  const error =
    first < at
      ? lines
          .slice(first, at)
          .map((l) => COMPILE_ERROR.exec(l))
          .find((m) => m !== null)
      : undefined;
  return {
    runner: 'go',
    scope: 'package',
    id: capName(pkg),
    name: capName(`${pkg} ${detail}`),
    package: pkg,
    file: error?.[1] ?? null,
    line: num(error?.[2]),
    block: range(first, at),
  };
}
