// Understanding test runner output: pytest, unittest, node's test runner (TAP and spec), other TAP,
// Jest, Vitest, Mocha, go test and cargo test. Pure functions over text.
export { distinctFailingTests, fixedTests, testKey, type FailingTest, type TestRunSummary } from './compare.js';
export { cutTestOutput, omittedMarker, type CutLimits } from './cut.js';
export { MAX_FAILURES, MAX_NAME } from './lines.js';
export { failureKind, MAX_KIND } from './failure-kind.js';
export { parseTestOutput } from './parse.js';
export { saysNoTests } from './no-tests.js';
export {
  TEST_RUNNERS,
  type FailureScope,
  type LineRange,
  type TestCounts,
  type TestFailure,
  type TestOutputReport,
  type TestRunner,
} from './types.js';
export { escapeRegex, focusCommand, quote, type FocusPlan } from './focus.js';
export {
  judgeAgainstBaseline,
  summaryReportsFailures,
  targetWords,
  type Judgement,
  type RunFacts,
  type Verdict,
} from './baseline-judge.js';
export { directiveTests, type DirectiveTests } from './directive-tests.js';
export { globMatch, knownFailureMatcher, knownFailureNames } from './known-failures.js';
