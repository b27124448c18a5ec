// Stop or go: small pure functions over the run state, and the one decision built from them.
import type { ExitReason, Iteration, RunState, RunStatus, TestRecord } from '../state/run-state.js';
import { judgeAgainstBaseline, summaryReportsFailures, type Judgement, type RunFacts } from '../test-output/index.js';

/** The limits decideNext needs (from config [loop]), and the failures [tests] known_failures declares. */
export interface LoopLimits {
  maxIterations: number;
  maxUnusableAnswers: number;
  /** Agent mode: tool calls the whole run may make (`agent.max_run_steps`); absent in diff mode. */
  maxRunSteps?: number;
  knownFailures?: readonly string[];
}

/** What the loop does next. */
export type NextAction =
  | { action: 'generate' }
  | { action: 'stop'; status: Extract<RunStatus, 'stable' | 'failed'>; reason: ExitReason; detail: string };

/**
 * A test run passed: the whole suite, exit code 0, not timed out, its output read (an output nothing
 * could be read from is unread, never a pass), and no runner's summary counting a failed test (some
 * runners print failures and still exit 0). Never decided by a focused run of some tests.
 */
export function testPassed(test: TestRecord | null): boolean {
  return test !== null && test.scope === undefined && ranClean(test);
}

/** A command's run came out clean: exit code 0, not timed out, its output read, and no failed test in its runner's summary. */
export function ranClean(test: Pick<TestRecord, 'exit_code' | 'timed_out' | 'parsed' | 'unread'>): boolean {
  return (
    test.exit_code === 0 && !test.timed_out && test.unread !== true && !summaryReportsFailures(test.parsed?.counts)
  );
}

/** What a test record says, as the baseline judge reads it. */
export function runFacts(test: TestRecord): RunFacts {
  return {
    passed: testPassed(test),
    whole: test.scope === undefined && !test.timed_out,
    runners: test.parsed?.runners ?? [],
    failing: test.parsed?.failing ?? [],
    counts: test.parsed?.counts ?? [],
  };
}

/**
 * `test` judged against the run's baseline (see judgeAgainstBaseline): null when there is no
 * baseline, or either run's output was not read (records from before hammer-box read test output).
 */
export function judgeTest(
  state: Pick<RunState, 'baseline' | 'directive' | 'base_reruns'>,
  test: TestRecord | null,
  knownFailures: readonly string[] = [],
): Judgement | null {
  if (state.baseline === null || test === null || !state.baseline.parsed || !test.parsed) return null;
  return judgeAgainstBaseline(runFacts(state.baseline), runFacts(test), {
    knownFailures,
    directive: state.directive.text,
    // tests re-run at the base that failed there too failed before the change
    atBase: (state.base_reruns ?? []).flatMap((r) => r.failing),
  });
}

/** The judgement lets the run end stable although the tests still fail: only failures from before, or declared known, remain. */
export function onlyOldFailuresRemain(j: Judgement | null): boolean {
  return j !== null && (j.verdict === 'baseline_only' || j.verdict === 'known_only');
}

/** Iterations whose outcome is recorded (an iteration still in progress is left out). */
export function finishedIterations(state: RunState): Iteration[] {
  return state.iterations.filter((it) => it.outcome !== null);
}

/** The most recent test run: the last iteration's that ran tests, else the baseline. */
export function latestTest(state: RunState): TestRecord | null {
  for (let k = state.iterations.length - 1; k >= 0; k--) {
    const t = state.iterations[k]!.test;
    if (t !== null) return t;
  }
  return state.baseline;
}

/** How many patches were applied so far. */
export function appliedCount(state: RunState): number {
  return state.iterations.filter((it) => it.outcome === 'applied').length;
}

/** True when an earlier iteration (other than `exceptN`) produced a patch with this hash. */
export function seenPatchHash(state: RunState, hash: string, exceptN?: number): boolean {
  return state.iterations.some((it) => it.n !== exceptN && it.patch?.hash === hash);
}

/**
 * Consecutive answers at the end of the run without a usable diff: 'unusable' outcomes, and
 * NO_CHANGES while the tests fail (a NO_CHANGES with passing tests ends the run first).
 */
export function unusableStreak(state: RunState): number {
  const done = finishedIterations(state);
  let streak = 0;
  for (let k = done.length - 1; k >= 0; k--) {
    const o = done[k]!.outcome;
    if (o !== 'unusable' && o !== 'no_changes') break;
    streak++;
  }
  return streak;
}

/** Tool calls made by the trajectories of the run so far (agent mode). */
export function agentSteps(state: RunState): number {
  return state.iterations.reduce((sum, it) => sum + (it.trajectory?.steps.length ?? 0), 0);
}

/** A short human phrase for an exit reason. */
export function describeReason(reason: ExitReason): string {
  switch (reason) {
    case 'tests_pass':
      return 'tests pass';
    case 'tests_pass_baseline':
      return 'tests already passed; no changes needed';
    case 'baseline_failures_remain':
      return 'the targeted tests pass; only failures from before the change remain';
    case 'max_iterations':
      return 'reached the iteration limit';
    case 'duplicate_patch':
      return 'the model repeated a patch';
    case 'max_steps':
      return "reached the agent's step limit";
    case 'no_usable_diff':
      return 'the model kept answering without a usable diff';
    case 'error':
      return 'stopped on an error';
    case 'interrupted':
      return 'interrupted';
  }
}

/**
 * Decide, after an iteration is recorded, whether to generate again or stop, and why. In order:
 * tests pass after an applied patch; the targeted tests pass after an applied patch and only
 * failures from before remain (see judgeAgainstBaseline: a test that did not fail at baseline and
 * fails now always blocks this); NO_CHANGES with the latest tests passing (or only old failures
 * left); the same patch hash twice; too many consecutive unusable answers; the iteration limit. A
 * patch git rejected is not an unusable answer: the next prompt carries git's message, and only
 * the iteration limit (or a repeat) stops that.
 */
export function decideNext(state: RunState, limits: LoopLimits): NextAction {
  const done = finishedIterations(state);
  const last = done.at(-1);
  if (last === undefined) return { action: 'generate' };
  const known = limits.knownFailures ?? [];

  if (last.outcome === 'applied' && testPassed(last.test)) {
    return stop('stable', 'tests_pass', `tests pass after iteration ${last.n}`);
  }
  if (last.outcome === 'applied') {
    const j = judgeTest(state, last.test, known);
    if (onlyOldFailuresRemain(j)) return stop('stable', 'baseline_failures_remain', remainDetail(j!, last.n));
  }
  if (last.outcome === 'no_changes') {
    const latest = latestTest(state);
    const applied = appliedCount(state) > 0;
    if (testPassed(latest))
      return applied
        ? stop('stable', 'tests_pass', `tests pass; the model answered NO_CHANGES in iteration ${last.n}`)
        : stop(
            'stable',
            'tests_pass_baseline',
            `tests passed at baseline; the model answered NO_CHANGES in iteration ${last.n}`,
          );
    const j = judgeTest(state, latest, known);
    if (applied && onlyOldFailuresRemain(j))
      return stop('stable', 'baseline_failures_remain', `${remainDetail(j!)}; the model answered NO_CHANGES`);
    if (!applied && j?.verdict === 'known_only')
      return stop(
        'stable',
        'tests_pass_baseline',
        `only declared known failures fail at baseline; the model answered NO_CHANGES in iteration ${last.n}`,
      );
  }
  if (last.outcome === 'duplicate' || (last.patch !== null && seenPatchHash(state, last.patch.hash, last.n))) {
    const first = state.iterations.find(
      (it) => it.n !== last.n && it.patch !== null && it.patch.hash === last.patch?.hash,
    );
    return stop('failed', 'duplicate_patch', `iteration ${last.n} repeated the patch of iteration ${first?.n ?? '?'}`);
  }
  const streak = unusableStreak(state);
  if (streak >= limits.maxUnusableAnswers) {
    const cut = done.slice(-streak).filter((it) => it.extraction?.cut_off !== undefined).length;
    const why = cut > 0 ? ` (${cut} cut off at the token limit: raise [model] num_predict)` : '';
    return stop('failed', 'no_usable_diff', `${streak} answers in a row without a usable diff${why}`);
  }
  if (limits.maxRunSteps !== undefined && agentSteps(state) >= limits.maxRunSteps) {
    return stop(
      'failed',
      'max_steps',
      `the trajectories made ${agentSteps(state)} tool calls, the run's limit of ${limits.maxRunSteps} (agent.max_run_steps)`,
    );
  }
  if (done.length >= limits.maxIterations) {
    return stop(
      'failed',
      'max_iterations',
      `${done.length} of ${limits.maxIterations} iterations without passing tests`,
    );
  }
  return { action: 'generate' };
}

/** "the targeted tests pass after iteration 2; 1 test that failed at baseline still fails the same way, 1 declared known failure". */
function remainDetail(j: Judgement, n?: number): string {
  const parts = [
    j.preExisting.length > 0
      ? `${j.preExisting.length} ${j.preExisting.length === 1 ? 'test that failed at baseline still fails' : 'tests that failed at baseline still fail'} the same way`
      : null,
    j.known.length > 0 ? `${j.known.length} declared known failure${j.known.length === 1 ? '' : 's'}` : null,
  ].filter((p): p is string => p !== null);
  const head = j.targets.by === 'name' ? 'the tests the directive names pass' : 'the tests this change fixed pass';
  return `${head}${n === undefined ? '' : ` after iteration ${n}`}; ${parts.join(', ')}`;
}

function stop(status: 'stable' | 'failed', reason: ExitReason, detail: string): NextAction {
  return { action: 'stop', status, reason, detail };
}

/** The first phase of an iteration not yet done (where a resumed run continues), or null when all are. */
export function firstPendingPhase<P extends string>(
  phases: Partial<Record<P, { status: string }>>,
  order: readonly P[],
): P | null {
  for (const p of order) {
    const rec = phases[p];
    if (rec === undefined || rec.status === 'failed') return p;
  }
  return null;
}
