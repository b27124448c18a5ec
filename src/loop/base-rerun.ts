// A failure in a test that did not fail at baseline is re-run once at the base commit before it
// counts as a regression: the baseline may never have run it (a chain of scripts that stopped at
// its first failing part, a baseline that timed out), or it fails there as well (a timing-sensitive
// test). Deciding whether to re-run, and which tests, is pure; the re-run is one test command in
// the sandbox at its base commit.
import { renderTestLog } from '../test-output/test-log.js';
import { artifactNames } from '../state/artifact-names.js';
import { MAX_BASE_RERUN_TESTS, type BaseRerun, type RunState, type TestRecord } from '../state/run-state.js';
import { focusCommand, judgeAgainstBaseline, testKey, type FailingTest } from '../test-output/index.js';
import type { RunRecorder } from './phase-runner.js';
import type { Prepared } from './prepare.js';
import { judgeTest, onlyOldFailuresRemain, runFacts } from './stop-conditions.js';
import { toTestRecord } from './test-record.js';
import type { RunDeps } from './run-types.js';

/** What to re-run at the base: the tests, and the command (focused on them when their runner can be filtered). */
export interface BaseRerunPlan {
  tests: FailingTest[];
  command: string;
}

/**
 * The re-run `test` calls for, or null: the whole suite ran to its end, and some of its failures
 * did not fail at baseline (nor on an earlier re-run, nor declared known) and were never re-run
 * yet, and only those stand between the run and its end (were they failures from before, only old
 * failures would remain). At most MAX_BASE_RERUN_TESTS tests.
 */
export function baseRerunPlan(
  state: Pick<RunState, 'baseline' | 'directive' | 'base_reruns'>,
  test: TestRecord,
  knownFailures: readonly string[],
  testCommand: string,
): BaseRerunPlan | null {
  if (test.scope !== undefined || test.timed_out || state.baseline === null) return null;
  const j = judgeTest(state, test, knownFailures);
  if (j === null || j.regressions.length === 0) return null;
  const failedBefore = new Set((state.baseline.parsed?.failing ?? []).map(testKey));
  const rerun = new Set((state.base_reruns ?? []).flatMap((r) => r.tests.map(testKey)));
  const fresh = j.regressions.filter((t) => !failedBefore.has(testKey(t)) && !rerun.has(testKey(t)));
  // a regression that failed another way at baseline, or was re-run already, stays one
  if (fresh.length === 0 || fresh.length !== j.regressions.length || fresh.length > MAX_BASE_RERUN_TESTS) return null;
  const ifOld = judgeAgainstBaseline(runFacts(state.baseline), runFacts(test), {
    knownFailures,
    directive: state.directive.text,
    atBase: [...(state.base_reruns ?? []).flatMap((r) => r.failing), ...fresh],
  });
  if (!onlyOldFailuresRemain(ifOld)) return null;
  return { tests: fresh, command: focusCommand(testCommand, fresh)?.command ?? testCommand };
}

/**
 * Run the plan at the sandbox's base commit (the tree is put back at the iteration's head by the
 * next step's reset) and record what failed there; its log is an artifact of iteration `n`.
 */
export async function rerunAtBase(
  rec: RunRecorder,
  deps: Pick<RunDeps, 'store' | 'signal'>,
  prep: Prepared,
  n: number,
  plan: BaseRerunPlan,
  limits: { timeoutMs: number; headLines: number; tailLines: number; failureLines: number; maxFailures: number },
): Promise<BaseRerun> {
  const signal = deps.signal;
  await prep.repo.reset(prep.sandboxBase, signal);
  const result = await prep.repo.test(plan.command, limits.timeoutMs, undefined, signal);
  const artifact = artifactNames.baseRerunLog(n);
  await deps.store.writeArtifact(rec.state.run_id, artifact, renderTestLog(plan.command, result));
  const record = toTestRecord(result, { command: plan.command, artifact, ...limits });
  const failingThere = new Set((record.parsed?.failing ?? []).map(testKey));
  // an output that could not be read, or a run cut short, vouches for nothing
  const read = !record.timed_out && record.unread !== true;
  return {
    iteration: n,
    command: plan.command,
    exit_code: record.exit_code,
    duration_ms: record.duration_ms,
    timed_out: record.timed_out,
    tests: plan.tests,
    failing: read ? plan.tests.filter((t) => failingThere.has(testKey(t))) : [],
    artifact,
  };
}
