// What `run`, `resume` and `replay` print on stdout, and their exit code.
import type { RunOutcome } from '../loop/run-types.js';
import { prTitle } from '../report/pr-title.js';
import { latestTest, readTest, runVerdict, testPassed, verdictRule } from '../verdict/index.js';
import { renderRunSummary, tokenTotals } from './run-summary.js';
import { printJson } from './terminal-json.js';

/** The --json document. */
export function runJson(o: RunOutcome): Record<string, unknown> {
  const s = o.state;
  const final = latestTest(s);
  const tokens = tokenTotals(s);
  const verdict = runVerdict(s);
  return {
    run_id: s.run_id,
    status: verdict.outcome,
    reason: s.reason,
    reason_detail: s.reason_detail,
    why: verdict.why,
    flaky: verdict.flaky.map((t) => t.id),
    branch: s.branch?.name ?? null,
    branch_commit: s.branch?.commit ?? null,
    base: s.repo.base_ref,
    base_commit: s.repo.base_commit,
    iterations: s.iterations.length,
    patches: s.iterations
      .filter((i) => i.outcome === 'applied')
      .map((i) => ({
        iteration: i.n,
        commit: i.apply?.commit ?? null,
        files: i.patch?.files.map((f) => f.path) ?? [],
        summary: i.summary,
      })),
    baseline_test: s.baseline ? testJson(s.baseline) : null,
    final_test: final ? testJson(final) : null,
    tokens: { in: tokens.in, out: tokens.out },
    pr_title: prTitle(s),
    image: s.image,
    state_path: o.statePath,
    summary_path: o.summaryPath,
  };
}

function testJson(t: NonNullable<ReturnType<typeof latestTest>>): Record<string, unknown> {
  return {
    command: t.command,
    exit_code: t.exit_code,
    passed: testPassed(t),
    result: readTest(t),
    timed_out: t.timed_out,
    duration_ms: t.duration_ms,
  };
}

/** Print the result (JSON, or the one human summary) and return the exit code. */
export function printRunResult(o: RunOutcome, json: boolean, elapsedMs: number): number {
  if (json) printJson(runJson(o));
  else process.stdout.write(`${renderRunSummary(o, elapsedMs).join('\n')}\n`);
  return runExitCode(o);
}

/** The outcome's exit code (see OUTCOME_RULES): 0 stable, 4 partial, 5 untested, 6 unknown, 1 failed, 130 interrupted. */
export function runExitCode(o: RunOutcome): number {
  return verdictRule(runVerdict(o.state)).exitCode;
}
