// `run --pr`: the run's result, then, when it made a branch, its pull request (as `hammer-box pr`).
import { openPullRequest, type PullRequestOutcome } from '../api/pr.js';
import type { RunOutcome } from '../loop/run-types.js';
import { notOpened, prOptions, renderPullRequest, type PrFlags } from './commands/pr.js';
import { interruptSignal } from './interrupt.js';
import { errorJson, renderError } from './render-error.js';
import { runExitCode, runJson, terminalChange } from './run-result.js';
import { renderRunSummary } from './run-summary.js';
import { printJson } from './terminal-json.js';

/**
 * Print the run's result with its pull request (`pull_request` in --json: what `pr --json` prints, or
 * `{error}`); the exit code is the pull request's failure (3, or 2) when it failed, else the run's.
 */
export async function withPullRequest(
  o: RunOutcome,
  f: PrFlags & { repo: string; json?: boolean },
  elapsedMs: number,
): Promise<number> {
  let pr: PullRequestOutcome | null = null;
  let failure: unknown = null;
  if (o.state.branch && o.state.status !== 'interrupted') {
    try {
      pr = await openPullRequest({
        repo: f.repo,
        runId: o.state.run_id,
        ...prOptions(f),
        env: process.env,
        signal: interruptSignal(),
      });
      failure = notOpened(pr);
    } catch (err) {
      failure = err;
    }
  }
  const rendered = failure === null ? null : renderError(failure);
  if (f.json) {
    printJson({
      ...runJson(o),
      pull_request: rendered ? { ...(pr ?? {}), error: errorJson(failure, rendered.exitCode)['error'] } : pr,
    });
  } else {
    // the commands to push and open it by hand are shown only when the pull request step did not get that far
    const lines = renderRunSummary(o, elapsedMs, { next: pr === null, change: await terminalChange(o) });
    process.stdout.write(`${[...lines, ...(pr ? renderPullRequest(pr) : [])].join('\n')}\n`);
  }
  if (!rendered) return runExitCode(o);
  process.stderr.write(`${rendered.text}\n`);
  return rendered.exitCode;
}
