// Whether a run can be continued with `hammer-box resume`, and the hint that says how.
import { backendFlags } from '../config/backend-flags.js';
import { shellWord } from '../text/shell-word.js';
import { hostname } from 'node:os';
import { HammerError } from '../errors.js';
import { hasEnded, type RunState } from '../state/run-state.js';

/** Why a run cannot be resumed, or null when it can. Pure over the state and a liveness test. */
export function resumeRefusal(state: RunState, isAlive: (pid: number) => boolean, host: string): string | null {
  // ended, but stopped before PR_SUMMARY.md: resume writes only that
  if (onlyReportLeft(state)) return null;
  if (hasEnded(state.status)) {
    return `run ${state.run_id} already ended (${state.status}${state.reason ? `, ${state.reason}` : ''})${state.branch ? ` with branch ${state.branch.name}` : ''}`;
  }
  if (state.branch !== null) return `run ${state.run_id} already delivered its branch ${state.branch.name}`;
  if (state.image === null)
    return `run ${state.run_id} ended before its environment was ready (in setup); start a new run`;
  const live = state.owner?.host === host && isAlive(state.owner.pid) ? state.owner.pid : null;
  if (live !== null && state.status === 'running') return `run ${state.run_id} is still running (process ${live})`;
  // recorded the moment a Ctrl-C arrived: its process may still be removing the sandbox
  if (live !== null && state.status === 'interrupted')
    return `run ${state.run_id} is still cleaning up after its interruption (process ${live}); try again in a few seconds`;
  return null;
}

/** True when a run ended on its own but stopped before writing its report: resume writes only that. */
export function onlyReportLeft(state: RunState): boolean {
  return hasEnded(state.status) && state.phases.report?.status !== 'done';
}

/**
 * The error a run ended with, its hint extended with the command that continues the run when the
 * state allows it (an error or an interruption before the branch was delivered). The run's --config
 * file and the flags that chose its backend and trust (--engine, --kube-context, --trusted-repo) are
 * repeated: resume takes them from the current configuration, not the state.
 */
export function withResumeHint(err: unknown, state: RunState, repoRoot: string, configFile?: string): unknown {
  if (!(err instanceof HammerError)) return err;
  if (state.image === null && state.status === 'error' && err.code.startsWith('MODEL_'))
    // stopped in setup by the model check: nothing to resume, the same command starts over
    return withHint(err, `${err.hint ? `${err.hint}; then ` : ''}start the run again (it stopped in setup)`);
  if (resumeRefusal(state, () => false, hostname()) !== null) return err;
  const config = configFile === undefined ? '' : ` --config ${shellWord(configFile)}`;
  const model = err.code.startsWith('MODEL_') ? ' (add --llm-url, --model or --provider to change them)' : '';
  const flags = backendFlags(state.config, { trust: true });
  const command = `hammer-box resume ${state.run_id} --repo ${shellWord(repoRoot)}${flags}${config}${model}`;
  if (err.hint?.includes('hammer-box resume')) {
    // a hint that names the bare command (the state store's) gets the whole one
    const bare = `hammer-box resume ${state.run_id}`;
    return err.hint.endsWith(bare) ? withHint(err, `${err.hint.slice(0, -bare.length)}${command}`) : err;
  }
  return withHint(err, err.hint ? `${err.hint}; then continue with: ${command}` : `continue with: ${command}`);
}

function withHint(err: HammerError, hint: string): HammerError {
  const out = new HammerError(err.code, err.message, {
    hint,
    ...(err.cause === undefined ? {} : { cause: err.cause }),
  });
  out.stack = err.stack;
  return out;
}
