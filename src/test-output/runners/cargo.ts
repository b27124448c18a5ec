// `cargo test`: `test path ... FAILED` lines, `---- path stdout ----` blocks, the `failures:` list, one
// `test result:` line per test target (after `Running tests/x.rs (…)`), and crates that did not compile.
import { MAX_FAILURES, capName, num, range, trimBlankEnd, type RunnerParser } from '../lines.js';
import type { LineRange, TestFailure } from '../types.js';

const TARGET = /^\s+Running (?:unittests )?(\S+) \(/;
const DOC_TESTS = /^\s+Doc-tests (\S+)$/;
const RUNNING = /^running \d+ tests?$/;
const TEST = /^test (\S+)(?: - should panic)? \.\.\. (FAILED|ok|ignored)\b/;
const BLOCK = /^---- (\S+) std(?:out|err) ----$/;
const FAILURES = /^failures:$/;
const RESULT = /^test result: (?:FAILED|ok)\. (\d+) passed; (\d+) failed;/;
const PANIC = /panicked at (?:'.*', )?([^\s:'"]+\.rs):(\d+):\d+/;
const COULD_NOT_COMPILE = /^error: could not compile `([^`]+)`/;
const COMPILE_ERROR = /^error(?:\[E\d+\])?: /;
const ERROR_LOCATION = /^\s*--> ([^\s:]+\.rs):(\d+):\d+$/;
const RERUN = /^error: test failed, to rerun pass /;

/** The failing tests (and crates that did not compile) `cargo test` reported. */
export const parseCargo: RunnerParser = (lines) => {
  const failures: TestFailure[] = [];
  const summaries: LineRange[] = [];
  let target: string | null = null;
  let failed: { name: string; line: number }[] = [];
  const failedNames = new Set<string>();
  const blocks = new Map<string, LineRange>();
  let firstLine = -1;
  let passedCount = 0;
  let failedCount = 0;
  let sawResult = false;
  const compiled = new Set<string>();
  const flush = (): void => {
    for (const f of failed) {
      if (failures.length >= MAX_FAILURES) break;
      const block = blocks.get(f.name) ?? range(f.line, f.line);
      failures.push({
        runner: 'cargo',
        scope: 'test',
        id: capName(f.name),
        name: capName(f.name),
        package: target,
        ...panicLocation(lines, block),
        block,
      });
    }
    failed = [];
    failedNames.clear();
    blocks.clear();
  };
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const targetMatch = TARGET.exec(text) ?? DOC_TESTS.exec(text);
    if (targetMatch !== null) {
      flush();
      target = targetMatch[1]!;
      continue;
    }
    if (RUNNING.test(text)) {
      if (firstLine < 0) firstLine = i;
      continue;
    }
    const test = TEST.exec(text);
    if (test !== null) {
      if (firstLine < 0) firstLine = i;
      if (test[2] === 'FAILED' && !failedNames.has(test[1]!) && failed.length < MAX_FAILURES) {
        failedNames.add(test[1]!);
        failed.push({ name: test[1]!, line: i });
      }
      continue;
    }
    const block = BLOCK.exec(text);
    if (block !== null) {
      let end = i + 1;
      while (end < lines.length && !BLOCK.test(lines[end]!) && !FAILURES.test(lines[end]!)) end++;
      blocks.set(block[1]!, range(i, trimBlankEnd(lines, i, end - 1)));
      i = end - 1;
      continue;
    }
    if (FAILURES.test(text) && /^ {4}\S/.test(lines[i + 1] ?? '')) {
      let end = i + 1;
      while (end < lines.length && /^ {4}\S/.test(lines[end]!)) end++;
      summaries.push(range(i, end - 1));
      i = end - 1;
      continue;
    }
    const result = RESULT.exec(text);
    if (result !== null) {
      sawResult = true;
      passedCount += num(result[1]) ?? 0;
      failedCount += num(result[2]) ?? 0;
      summaries.push(range(i, i));
      flush();
      continue;
    }
    if (RERUN.test(text)) {
      summaries.push(range(i, i));
      continue;
    }
    const crate = COULD_NOT_COMPILE.exec(text);
    if (crate !== null && !compiled.has(crate[1]!) && failures.length < MAX_FAILURES) {
      compiled.add(crate[1]!);
      if (firstLine < 0) firstLine = i;
      failures.push(compileFailure(lines, i, crate[1]!));
    }
  }
  flush();
  if (firstLine < 0) return null;
  const counts = sawResult ? { runner: 'cargo' as const, passed: passedCount, failed: failedCount } : null;
  return { runner: 'cargo', failures, counts, summaries, firstLine };
};

function panicLocation(lines: readonly string[], block: LineRange): { file: string | null; line: number | null } {
  for (let i = block.start - 1; i < block.end; i++) {
    const m = PANIC.exec(lines[i]!);
    if (m !== null) return { file: m[1]!, line: num(m[2]) };
  }
  return { file: null, line: null };
}

/** A crate that did not compile: its compiler errors (back to the first `error` line) up to `could not compile`. */
function compileFailure(lines: readonly string[], at: number, crate: string): TestFailure {
  let first = at;
  for (let i = at - 1; i >= 0 && at - i <= 400; i--) {
    if (COULD_NOT_COMPILE.test(lines[i]!) || RESULT.test(lines[i]!) || TEST.test(lines[i]!)) break;
    if (COMPILE_ERROR.test(lines[i]!)) first = i;
  }
  let file: string | null = null;
  let line: number | null = null;
  for (let i = first; i < at && file === null; i++) {
    const m = ERROR_LOCATION.exec(lines[i]!);
    if (m !== null) {
      file = m[1]!;
      line = num(m[2]);
    }
  }
  return {
    runner: 'cargo',
    scope: 'package',
    id: capName(crate),
    name: capName(`${crate} (did not compile)`),
    package: null,
    file,
    line,
    block: range(first, at),
  };
}
