// What `run` and `replay` print on stdout, and their exit code.
import type { RunOutcome } from '../loop/run-types.js';
import { latestTest, testPassed } from '../loop/stop-conditions.js';
import { EXIT } from './exit-codes.js';

/** The --json document. */
export function runJson(o: RunOutcome): Record<string, unknown> {
  const s = o.state;
  const final = latestTest(s);
  return {
    run_id: s.run_id,
    status: s.status,
    reason: s.reason,
    reason_detail: s.reason_detail,
    branch: s.branch?.name ?? null,
    branch_commit: s.branch?.commit ?? null,
    iterations: s.iterations.length,
    patches: s.iterations
      .filter((i) => i.outcome === 'applied')
      .map((i) => ({
        iteration: i.n,
        commit: i.apply?.commit ?? null,
        files: i.patch?.files.map((f) => f.path) ?? [],
        summary: i.summary,
      })),
    final_test: final
      ? {
          command: final.command,
          exit_code: final.exit_code,
          passed: testPassed(final),
          timed_out: final.timed_out,
          duration_ms: final.duration_ms,
        }
      : null,
    image: s.image,
    state_path: o.statePath,
    summary_path: o.summaryPath,
  };
}

/** Print the result (JSON or a short human summary) and return the exit code. */
export function printRunResult(o: RunOutcome, json: boolean): number {
  if (json) process.stdout.write(`${JSON.stringify(runJson(o), null, 2)}\n`);
  else {
    const s = o.state;
    const lines = [`status:  ${s.status}${s.reason ? ` (${s.reason})` : ''}`];
    if (s.branch) lines.push(`branch:  ${s.branch.name} (${s.branch.commit.slice(0, 12)})`);
    lines.push(`summary: ${o.summaryPath ?? '(not written)'}`, `state:   ${o.statePath}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return o.state.status === 'stable'
    ? EXIT.stable
    : o.state.status === 'interrupted'
      ? EXIT.interrupted
      : EXIT.notPassing;
}
