// Verdicts: what one test run says, the baseline's flaky failures, a run's tests judged against its
// baseline, and the one outcome every front end derives its exit code, risk line, badge and
// pull-request rule from. Pure; below the loop and the report, above the state and test output.
export { baselinePassWarning } from './baseline-warning.js';
export { flakyFailures } from './flaky.js';
export { endedVerdict, runVerdict, verdictRule, type RunVerdict } from './outcome.js';
export { OUTCOME_RULES, type BadgeColour, type OutcomeRule, type RiskLevel } from './outcome-rules.js';
export {
  appliedCount,
  finishedIterations,
  flakyOf,
  judgeTest,
  knownFailuresOf,
  latestTest,
  onlyOldFailuresRemain,
} from './run-tests.js';
export {
  ranClean,
  readTest,
  runFacts,
  testPassed,
  unknownResult,
  type ReadableTest,
  type TestReading,
} from './test-reading.js';
export { testStatus, unreadExit0 } from './test-status.js';
