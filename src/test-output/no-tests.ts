// Whether a test command's output says there was no test to run, in the runner's own words: pytest's
// "no tests ran" (its exit 5), unittest's "Ran 0 tests", Jest's "No tests found", Vitest's and
// Mocha's "No test files found", node's "tests 0", `go test`'s "[no test files]" on every package
// (or "no packages to test"), cargo's "running 0 tests" on every target, and npm's default test
// script ("Error: no test specified"). Pure.
import { outputLines } from './lines.js';
import type { TestOutputReport } from './types.js';

/** Lines that say, alone, that the runner found no test. */
const SAYS_NONE: readonly RegExp[] = [
  // pytest (with or without its `=` rule); "no tests ran, 1 error in" is a collection error, not this
  /^(?:=+ )?no tests ran in [\d.]+m?s(?: =+)?$/,
  // unittest, followed by OK (Python < 3.12) or NO TESTS RAN
  /^Ran 0 tests in [\d.]+s$/,
  /^No tests found, exiting with code \d+$/,
  /^No test files found, exiting with code \d+$/,
  /^Error: No test files found\b/,
  // node --test: the spec reporter's and TAP's totals
  /^(?:ℹ|#) tests 0$/,
  /^no packages to test$/,
  /^Error: no test specified$/,
];

const GO_NO_TEST_FILES = /^\?\s+\S+\s+\[no test files\]$/;
/** A go package that ran tests, or failed to. */
const GO_RAN = /^(?:ok|FAIL|---|panic:)\s/;
const CARGO_RUNNING = /^running (\d+) tests?$/;
/** pytest's usage errors end with "no tests ran" too (a path that does not exist, exit 4). */
const PYTEST_ERROR = /^ERROR: /;

/**
 * True when the output says the command found no test to run, and reports neither a failing test
 * nor a count of tests that passed or failed. `report` is parseTestOutput's reading of `text`.
 */
export function saysNoTests(text: string, report: Pick<TestOutputReport, 'failures' | 'counts'>): boolean {
  if (report.failures.length > 0) return false;
  if (report.counts.some((c) => (c.passed ?? 0) > 0 || (c.failed ?? 0) > 0)) return false;
  const lines = outputLines(text).map((l) => l.trim());
  if (lines.some((l) => PYTEST_ERROR.test(l))) return false;
  if (lines.some((l) => SAYS_NONE.some((re) => re.test(l)))) return true;
  return goSaysNone(lines) || cargoSaysNone(lines);
}

/** Every package `go test` names has no test files, and none ran or failed. */
function goSaysNone(lines: readonly string[]): boolean {
  return lines.some((l) => GO_NO_TEST_FILES.test(l)) && !lines.some((l) => GO_RAN.test(l));
}

/** Every target cargo ran held 0 tests. */
function cargoSaysNone(lines: readonly string[]): boolean {
  const counts = lines.map((l) => CARGO_RUNNING.exec(l)?.[1]).filter((n): n is string => n !== undefined);
  return counts.length > 0 && counts.every((n) => n === '0');
}
