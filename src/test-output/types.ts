// What a test command's output says: which runner, which tests failed, where, and the counts.

/**
 * The runners whose output is recognised (`tap`: TAP from another producer, e.g. mocha's or tape's;
 * `generic`: none of these, read by the generic forms: counts, `Test N failed`, a traceback, `OK`).
 */
export const TEST_RUNNERS = [
  'pytest',
  'unittest',
  'node',
  'tap',
  'jest',
  'vitest',
  'mocha',
  'go',
  'cargo',
  'generic',
] as const;

/** A recognised test runner. */
export type TestRunner = (typeof TEST_RUNNERS)[number];

/** What a failure's id names: one test, a whole test file (it failed to load), or a package or crate (it failed to build). */
export type FailureScope = 'test' | 'file' | 'package';

/** A 1-based, inclusive range of lines of the output. */
export interface LineRange {
  start: number;
  end: number;
}

/** One failing test, as the output names it. */
export interface TestFailure {
  runner: TestRunner;
  scope: FailureScope;
  /**
   * What the runner can be filtered by: a pytest node id (`tests/test_x.py::TestA::test_b[1]`), a unittest
   * dotted id (`tests.test_x.TestA.test_b`), node's test name (for `--test-name-pattern`), a go test name with
   * its subtests (`TestAbs/negative`, for `-run` with package), a cargo test path (`tests::parses`), the full
   * name Jest, Vitest and Mocha match `-t`/`--grep` against (describe names and test name joined by spaces),
   * a TAP description; a file or package for the other scopes.
   */
  id: string;
  /** The name as the output prints it (`cart › discount › adds`, `test_add_many (a=1, b=1)`). */
  name: string;
  /** The go package, or the cargo target (`src/lib.rs`, `tests/integration.rs`), when the output gives it. */
  package: string | null;
  /** The file and line the output names for the failure (a test location or where it raised), as printed. */
  file: string | null;
  line: number | null;
  /** How it failed, in a word (the error type its block names, see failureKind); absent when the block names none. */
  kind?: string;
  /** The lines of the output that explain this failure (its traceback, assertion, captured output). */
  block: LineRange | null;
}

/** The counts a runner printed (null when it printed none). */
export interface TestCounts {
  runner: TestRunner;
  passed: number | null;
  failed: number | null;
}

/** Everything read from one test output. */
export interface TestOutputReport {
  /** The runners recognised in the output, in the order they first appear. */
  runners: TestRunner[];
  failures: TestFailure[];
  counts: TestCounts[];
  /** Lines worth keeping besides the failure blocks: summaries, failure lists, build errors. */
  summaries: LineRange[];
}
