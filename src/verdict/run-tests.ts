// A run's tests as its state records them: the latest test run, the patches applied, the known and
// flaky failures, and a test run judged against the baseline. Pure.
import { z } from 'zod';
import type { Iteration, RunState, TestRecord } from '../state/run-state.js';
import { judgeAgainstBaseline, type FailingTest, type Judgement } from '../test-output/index.js';
import { flakyFailures } from './flaky.js';
import { runFacts } from './test-reading.js';

/** Iterations whose outcome is recorded (an iteration still in progress is left out). */
export function finishedIterations(state: Pick<RunState, 'iterations'>): Iteration[] {
  return state.iterations.filter((it) => it.outcome !== null);
}

/** The most recent test run: the last iteration's that ran tests, else the baseline. */
export function latestTest(state: Pick<RunState, 'iterations' | 'baseline'>): TestRecord | null {
  for (let k = state.iterations.length - 1; k >= 0; k--) {
    const t = state.iterations[k]!.test;
    if (t !== null) return t;
  }
  return state.baseline;
}

/** How many patches were applied so far. */
export function appliedCount(state: Pick<RunState, 'iterations'>): number {
  return state.iterations.filter((it) => it.outcome === 'applied').length;
}

/** The run's [tests] known_failures, as recorded in its config (none in older state files). */
export function knownFailuresOf(state: Pick<RunState, 'config'>): string[] {
  const parsed = z.object({ tests: z.object({ known_failures: z.array(z.string()) }) }).safeParse(state.config);
  return parsed.success ? parsed.data.tests.known_failures : [];
}

/** The baseline's failing tests that passed on its rerun (see flakyFailures); none without a rerun. */
export function flakyOf(state: Pick<RunState, 'baseline' | 'baseline_rerun'>): FailingTest[] {
  return flakyFailures(state.baseline, state.baseline_rerun);
}

/**
 * `test` judged against the run's baseline (see judgeAgainstBaseline), the baseline's flaky failures
 * set apart: null when there is no baseline, or either run's output was not read (records from
 * before hammer-box read test output).
 */
export function judgeTest(
  state: Pick<RunState, 'baseline' | 'directive'> & Partial<Pick<RunState, 'baseline_rerun' | 'base_reruns'>>,
  test: TestRecord | null,
  knownFailures: readonly string[] = [],
): Judgement | null {
  if (state.baseline === null || test === null || !state.baseline.parsed || !test.parsed) return null;
  return judgeAgainstBaseline(runFacts(state.baseline), runFacts(test), {
    knownFailures,
    directive: state.directive.text,
    flaky: flakyFailures(state.baseline, state.baseline_rerun),
    // tests re-run at the base that failed there too failed before the change
    atBase: (state.base_reruns ?? []).flatMap((r) => r.failing),
  });
}

/** The judgement lets the run end stable although the tests still fail: every target passes, only failures outside them remain. */
export function onlyOldFailuresRemain(j: Judgement | null): boolean {
  return j !== null && (j.verdict === 'baseline_only' || j.verdict === 'known_only');
}
