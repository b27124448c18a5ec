// Stop or go: small pure functions over the run state, and the one decision built from them.
import type { ExitReason, Iteration, RunState, RunStatus, TestRecord } from '../state/run-state.js';

/** The limits decideNext needs (from config [loop]). */
export interface LoopLimits {
  maxIterations: number;
  maxUnusableAnswers: number;
  /** Agent mode: tool calls the whole run may make (`agent.max_run_steps`); absent in diff mode. */
  maxRunSteps?: number;
}

/** What the loop does next. */
export type NextAction =
  | { action: 'generate' }
  | { action: 'stop'; status: Extract<RunStatus, 'stable' | 'failed'>; reason: ExitReason; detail: string };

/**
 * A test run passed: the whole suite, exit code 0 and not timed out. Never decided by what the tests
 * print, nor by a focused run of some tests.
 */
export function testPassed(test: TestRecord | null): boolean {
  return test !== null && test.scope === undefined && test.exit_code === 0 && !test.timed_out;
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
 * tests pass after an applied patch; NO_CHANGES with the latest tests passing; the same patch
 * hash twice; too many consecutive unusable answers; the iteration limit. A patch git rejected
 * is not an unusable answer: the next prompt carries git's message, and only the iteration limit
 * (or a repeat) stops that.
 */
export function decideNext(state: RunState, limits: LoopLimits): NextAction {
  const done = finishedIterations(state);
  const last = done.at(-1);
  if (last === undefined) return { action: 'generate' };

  if (last.outcome === 'applied' && testPassed(last.test)) {
    return stop('stable', 'tests_pass', `tests pass after iteration ${last.n}`);
  }
  if (last.outcome === 'no_changes' && testPassed(latestTest(state))) {
    return appliedCount(state) > 0
      ? stop('stable', 'tests_pass', `tests pass; the model answered NO_CHANGES in iteration ${last.n}`)
      : stop(
          'stable',
          'tests_pass_baseline',
          `tests passed at baseline; the model answered NO_CHANGES in iteration ${last.n}`,
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
