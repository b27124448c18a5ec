// What PR_SUMMARY.md shows beyond the state, read from the run's artifacts: the model's explanation
// and which tests the baseline's and the last test's logs name as failing.
import type { RunState, TestRecord } from '../state/run-state.js';
import { finishedIterations, flakyOf, knownFailuresOf, latestTest, testPassed } from '../verdict/index.js';
import {
  distinctFailingTests,
  fixedTests,
  judgeAgainstBaseline,
  parseTestOutput,
  type FailingTest,
  type RunFacts,
  type TestOutputReport,
} from '../test-output/index.js';
import { iterationExplanation } from '../edits/iteration-explanation.js';
import type { SummaryExtras } from './pr-summary.js';
import type { TestsBeforeAfter } from './pr-tests.js';

/** Reads one of the run's artifacts by name. */
export type ReadArtifact = (name: string) => Promise<string>;

/** The extras for `state`; a missing or unreadable artifact leaves its part out. */
export async function summaryExtras(state: RunState, readArtifact: ReadArtifact): Promise<SummaryExtras> {
  const [explanation, tests] = await Promise.all([explanationOf(state, readArtifact), testsOf(state, readArtifact)]);
  return { explanation, tests };
}

/** The model's explanation of the last applied patch (agent mode: the words of its last turn, beside the submit). */
async function explanationOf(state: RunState, readArtifact: ReadArtifact): Promise<string | null> {
  const last = finishedIterations(state)
    .filter((it) => it.outcome === 'applied' && (it.answer !== null || it.trajectory !== undefined))
    .at(-1);
  return last === undefined ? null : iterationExplanation(last, readArtifact);
}

/** The failing tests at baseline and in the last test run, from their logs (test-output's parsers). */
async function testsOf(state: RunState, readArtifact: ReadArtifact): Promise<TestsBeforeAfter | null> {
  const now = latestTest(state);
  if (state.baseline === null || now === null || now === state.baseline) return null;
  const [before, after] = await Promise.all([parsed(state.baseline, readArtifact), parsed(now, readArtifact)]);
  if (before === null || after === null) return null;
  const failingBefore = distinctFailingTests(before.failures);
  const failingAfter = distinctFailingTests(after.failures);
  const facts = (t: TestRecord, report: TestOutputReport, failing: FailingTest[]): RunFacts => ({
    passed: testPassed(t),
    whole: t.scope === undefined && !t.timed_out,
    runners: report.runners,
    failing,
    counts: report.counts,
  });
  const judged = judgeAgainstBaseline(facts(state.baseline, before, failingBefore), facts(now, after, failingAfter), {
    knownFailures: knownFailuresOf(state),
    directive: state.directive.text,
    flaky: flakyOf(state),
    atBase: (state.base_reruns ?? []).flatMap((r) => r.failing),
  });
  return {
    fixed: fixedTests(
      { runners: before.runners, failing: failingBefore },
      { runners: after.runners, failing: failingAfter, passed: testPassed(now) },
    ),
    failing: failingAfter,
    ...(after.runners.length > 0 && before.runners.length > 0
      ? {
          judged: {
            remaining: judged.remaining.filter((t) => failingAfter.some((f) => f.id === t.id && f.runner === t.runner)),
            preExisting: judged.preExisting,
            known: judged.known,
            flaky: judged.flaky,
            regressions: judged.regressions,
          },
        }
      : {}),
    countsBefore: before.counts,
    countsAfter: after.counts,
  };
}

async function parsed(test: TestRecord, readArtifact: ReadArtifact): Promise<TestOutputReport | null> {
  if (test.artifact === null) return null;
  const log = await readArtifact(test.artifact).catch(() => null);
  return log === null ? null : parseTestOutput(log);
}
