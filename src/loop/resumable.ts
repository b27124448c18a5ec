// Whether a run can be continued with `hammer-box resume`, and the hint that says how.
import { hostname } from 'node:os';
import { HammerError } from '../errors.js';
import type { RunState } from '../state/run-state.js';

/** Why a run cannot be resumed, or null when it can. Pure over the state and a liveness test. */
export function resumeRefusal(state: RunState, isAlive: (pid: number) => boolean, host: string): string | null {
  // ended, but stopped before PR_SUMMARY.md: resume writes only that
  if (onlyReportLeft(state)) return null;
  if (state.status === 'stable' || state.status === 'failed') {
    return `run ${state.run_id} already ended (${state.status}${state.reason ? `, ${state.reason}` : ''})${state.branch ? ` with branch ${state.branch.name}` : ''}`;
  }
  if (state.branch !== null) return `run ${state.run_id} already delivered its branch ${state.branch.name}`;
  if (state.image === null)
    return `run ${state.run_id} ended before its environment was ready (in setup); start a new run`;
  if (state.status === 'running' && state.owner && state.owner.host === host && isAlive(state.owner.pid)) {
    return `run ${state.run_id} is still running (process ${state.owner.pid})`;
  }
  return null;
}

/** True when a run ended (stable or failed) but stopped before writing its report: resume writes only that. */
export function onlyReportLeft(state: RunState): boolean {
  return (state.status === 'stable' || state.status === 'failed') && state.phases.report?.status !== 'done';
}

/**
 * The error a run ended with, its hint extended with the command that continues the run when the
 * state allows it (an error or an interruption before the branch was delivered).
 */
export function withResumeHint(err: unknown, state: RunState, repoRoot: string): unknown {
  if (!(err instanceof HammerError) || resumeRefusal(state, () => false, hostname()) !== null) return err;
  if (err.hint?.includes('hammer-box resume')) return err;
  const command = `hammer-box resume ${state.run_id} --repo ${shellArg(repoRoot)}`;
  const hint = err.hint ? `${err.hint}; then continue with: ${command}` : `continue with: ${command}`;
  const out = new HammerError(err.code, err.message, {
    hint,
    ...(err.cause === undefined ? {} : { cause: err.cause }),
  });
  out.stack = err.stack;
  return out;
}

/** `value` as one POSIX shell word: bare when it is plainly safe, else single-quoted. */
function shellArg(value: string): string {
  return /^[\w./:@%+=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
