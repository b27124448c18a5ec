// Stop or go: small pure functions over the run state, and the one decision built from them. What a
// run's tests say, and the outcome a run ends with, are src/verdict's.
import type { EndedStatus, ExitReason, RunState } from '../state/run-state.js';
import {
  appliedCount,
  endedVerdict,
  finishedIterations,
  judgeTest,
  latestTest,
  onlyOldFailuresRemain,
  readTest,
  testPassed,
} from '../verdict/index.js';

export {
  appliedCount,
  finishedIterations,
  judgeTest,
  latestTest,
  onlyOldFailuresRemain,
  ranClean,
  runFacts,
  testPassed,
} from '../verdict/index.js';

/** The limits decideNext needs (from config [loop]), and the failures [tests] known_failures declares. */
export interface LoopLimits {
  maxIterations: number;
  maxUnusableAnswers: number;
  /** Agent mode: tool calls the whole run may make (`agent.max_run_steps`); absent in diff mode. */
  maxRunSteps?: number;
  knownFailures?: readonly string[];
}

/** What the loop does next; a stop carries the outcome the run ends with (see endedVerdict). */
export type NextAction =
  { action: 'generate' } | { action: 'stop'; status: EndedStatus; reason: ExitReason; detail: string };

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
      return 'every targeted test passes; only failures outside them remain';
    case 'no_tests':
      return 'the repository has no tests to run';
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
 * tests pass after an applied patch; every targeted test passes after an applied patch and only
 * failures outside the targets remain (see judgeAgainstBaseline: a test that did not fail at
 * baseline and fails now always blocks this); the runner found no test to run, at baseline and
 * after an applied patch (the repository has no tests); NO_CHANGES with the latest tests passing
 * (or only those failures left, or no tests at all); the same patch hash twice; too many consecutive
 * unusable answers; the iteration limit. While some targeted tests still fail, the loop goes on. A
 * patch git rejected is not an unusable answer: the next prompt carries git's message, and only
 * the iteration limit (or a repeat) stops that. A stop's status is the outcome the run's tests give
 * (endedVerdict): a run stopped at a limit with some targets fixed and nothing regressed is `partial`.
 */
export function decideNext(state: RunState, limits: LoopLimits): NextAction {
  const done = finishedIterations(state);
  const last = done.at(-1);
  if (last === undefined) return { action: 'generate' };
  const known = limits.knownFailures ?? [];
  const stop = (reason: ExitReason, detail: string): NextAction => {
    const verdict = endedVerdict(state, known);
    // the verdict's why is added where the reason alone does not say how the tests came out
    return {
      action: 'stop',
      status: verdict.outcome,
      reason,
      detail: verdict.final === 'passed' ? detail : `${detail}; ${verdict.why}`,
    };
  };
  const noTests = (t: RunState['baseline']): boolean => t !== null && readTest(t) === 'no_tests';

  if (last.outcome === 'applied' && testPassed(last.test))
    return stop('tests_pass', `tests pass after iteration ${last.n}`);
  if (last.outcome === 'applied') {
    if (noTests(last.test) && noTests(state.baseline))
      return stop('no_tests', `the runner found no test to run after iteration ${last.n}, as at baseline`);
    const j = judgeTest(state, last.test, known);
    if (onlyOldFailuresRemain(j)) return stop('baseline_failures_remain', `after iteration ${last.n}`);
  }
  if (last.outcome === 'no_changes') {
    const latest = latestTest(state);
    const applied = appliedCount(state) > 0;
    if (testPassed(latest))
      return applied
        ? stop('tests_pass', `tests pass; the model answered NO_CHANGES in iteration ${last.n}`)
        : stop('tests_pass_baseline', `tests passed at baseline; the model answered NO_CHANGES in iteration ${last.n}`);
    if (noTests(latest) && noTests(state.baseline))
      return stop('no_tests', `the runner found no test to run; the model answered NO_CHANGES in iteration ${last.n}`);
    const j = judgeTest(state, latest, known);
    if (applied && onlyOldFailuresRemain(j))
      return stop('baseline_failures_remain', `the model answered NO_CHANGES in iteration ${last.n}`);
    if (!applied && j?.verdict === 'known_only')
      return stop('tests_pass_baseline', `the model answered NO_CHANGES in iteration ${last.n}`);
  }
  if (last.outcome === 'duplicate' || (last.patch !== null && seenPatchHash(state, last.patch.hash, last.n))) {
    const first = state.iterations.find(
      (it) => it.n !== last.n && it.patch !== null && it.patch.hash === last.patch?.hash,
    );
    return stop('duplicate_patch', `iteration ${last.n} repeated the patch of iteration ${first?.n ?? '?'}`);
  }
  const streak = unusableStreak(state);
  if (streak >= limits.maxUnusableAnswers) {
    const cut = done.slice(-streak).filter((it) => it.extraction?.cut_off !== undefined).length;
    const why = cut > 0 ? ` (${cut} cut off at the token limit: raise [model] num_predict)` : '';
    return stop('no_usable_diff', `${streak} answers in a row without a usable diff${why}`);
  }
  if (limits.maxRunSteps !== undefined && agentSteps(state) >= limits.maxRunSteps) {
    return stop(
      'max_steps',
      `the trajectories made ${agentSteps(state)} tool calls, the run's limit of ${limits.maxRunSteps} (agent.max_run_steps)`,
    );
  }
  if (done.length >= limits.maxIterations) {
    return stop('max_iterations', `${done.length} of ${limits.maxIterations} iterations without passing tests`);
  }
  return { action: 'generate' };
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
