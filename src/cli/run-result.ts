// What `run`, `resume` and `replay` print on stdout, and their exit code.
import type { RunOutcome } from '../loop/run-types.js';
import { prTitle } from '../report/pr-title.js';
import { latestTest, readTest, runVerdict, testPassed, verdictRule } from '../verdict/index.js';
import { renderRunSummary, tokenTotals } from './run-summary.js';
import { printJson } from './terminal-json.js';
import { branchDiff } from '../api/branch-diff.js';
import { shellWord } from '../text/shell-word.js';
import { colourFor, makeStyle } from './chat/style.js';
import { diffLines } from './diff-lines.js';

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
    diffstat: diffstatJson(s.branch?.diffstat ?? []),
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
    ...(o.replay ? { replay: o.replay } : {}),
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

/** The branch's diffstat for --json: each file's lines added and removed (null: binary), and the totals. */
export function diffstatJson(entries: NonNullable<NonNullable<RunOutcome['state']['branch']>['diffstat']>): {
  files: typeof entries;
  changed: number;
  insertions: number;
  deletions: number;
} {
  return {
    files: entries,
    changed: entries.length,
    insertions: entries.reduce((n, e) => n + (e.added ?? 0), 0),
    deletions: entries.reduce((n, e) => n + (e.removed ?? 0), 0),
  };
}

/**
 * Print the result (JSON, or the one human summary, with the change itself when stdout is a
 * terminal) and return the exit code.
 */
export async function printRunResult(o: RunOutcome, json: boolean, elapsedMs: number): Promise<number> {
  if (json) printJson(runJson(o));
  else {
    const change = await terminalChange(o);
    process.stdout.write(`${renderRunSummary(o, elapsedMs, { change }).join('\n')}\n`);
  }
  return runExitCode(o);
}

/** Lines of the run's change shown on a terminal (none elsewhere: a pipe gets the summary only). */
export const CHANGE_LINES = 120;

/** The branch's diff for stdout when it is a terminal: bounded, sanitised, coloured when colour is allowed. */
export async function terminalChange(o: RunOutcome, out: NodeJS.WriteStream = process.stdout): Promise<string[]> {
  if (out.isTTY !== true || o.state.branch === null) return [];
  const diff = await branchDiff(o.state);
  if (diff === null) return [];
  const s = o.state;
  const whole = `git -C ${shellWord(s.repo.path)} diff ${s.repo.base_commit.slice(0, 12)} ${shellWord(s.branch!.name)}`;
  return diffLines(diff, makeStyle(colourFor(out, process.env)), CHANGE_LINES, whole);
}

/** The outcome's exit code (see OUTCOME_RULES): 0 stable, 4 partial, 5 untested, 6 unknown, 1 failed, 130 interrupted. */
export function runExitCode(o: RunOutcome): number {
  return verdictRule(runVerdict(o.state)).exitCode;
}
