// The one summary a finished `run`, `resume` or `replay` prints: how it ended, the baseline and the
// final test, tokens, time, where its files are, and the commands to take the branch further.
import { describeReason } from '../loop/stop-conditions.js';
import type { RunOutcome } from '../loop/run-types.js';
import { formatDuration } from '../text/markdown.js';
import { baselinePassWarning } from '../verdict/baseline-warning.js';
import { renderDiffstat } from '../report/diffstat.js';
import { replayLine } from '../loop/replay-compare.js';
import { prTitle } from '../report/pr-title.js';
import { sanitizeLine } from '../text/sanitize.js';
import { backendFlags } from '../config/backend-flags.js';
import { shellWord } from '../text/shell-word.js';
import { iterationTokens } from '../report/trajectory-summary.js';
import type { RunState, TestRecord } from '../state/run-state.js';
import { finishedIterations, latestTest, readTest, runVerdict, testStatus, verdictRule } from '../verdict/index.js';

/** Tokens the model read and wrote over the whole run (answers that reported them). */
export function tokenTotals(state: RunState): { in: number; out: number } {
  let tin = 0;
  let tout = 0;
  for (const it of state.iterations) {
    const t = iterationTokens(it);
    tin += t.in;
    tout += t.out;
  }
  return { in: tin, out: tout };
}

/**
 * The summary's lines (sanitised: the state quotes the repository and the model): with the branch's
 * diffstat, then `change` (the diff's lines for a terminal, see diffLines) before what to run next.
 */
export function renderRunSummary(
  o: RunOutcome,
  elapsedMs: number,
  options: { next?: boolean; change?: readonly string[] } = {},
): string[] {
  const s = o.state;
  const row = (label: string, value: string): string => `  ${label.padEnd(11)}${value}`;
  const reason = s.reason ? `: ${describeReason(s.reason)} (${s.reason})` : '';
  const verdict = runVerdict(s);
  const lines = [`hammer-box: ${verdict.outcome}${reason} after ${formatDuration(elapsedMs)}`];
  if (o.replay) lines.push(row('replay', sanitizeLine(replayLine(o.replay))));
  if (s.reason_detail && (verdict.outcome !== 'stable' || s.reason === 'baseline_failures_remain'))
    lines.push(row('', sanitizeLine(s.reason_detail)));
  lines.push(row('baseline', s.baseline ? describeTest(s.baseline) : 'not run'));
  if (verdict.flaky.length > 0)
    lines.push(
      row(
        'flaky',
        `${sanitizeLine(flakyIds(verdict.flaky.map((t) => t.id)))} (failed at baseline, passed when run again: not targets)`,
      ),
    );
  // tests that pass before any change on a directive asking for a fix: said again where nobody misses it
  const warning = baselinePassWarning(s);
  if (warning !== null) lines.push(row('WARNING', sanitizeLine(warning)));
  const done = finishedIterations(s);
  const final = latestTest(s);
  if (done.length > 0 && final) lines.push(row('final test', describeTest(final)));
  const applied = done.filter((it) => it.outcome === 'applied').length;
  lines.push(row('iterations', `${done.length} (${applied} applied)`));
  const tokens = tokenTotals(s);
  lines.push(row('tokens', `${tokens.in.toLocaleString('en-US')} in, ${tokens.out.toLocaleString('en-US')} out`));
  lines.push(
    row(
      'branch',
      s.branch
        ? `${sanitizeLine(s.branch.name)} (${s.branch.commit.slice(0, 12)}), ${applied} commit${applied === 1 ? '' : 's'} on ${describeBase(s)}`
        : applied === 0
          ? 'none (no patch was applied)'
          : 'none',
    ),
  );
  const stat = s.branch?.diffstat;
  if (stat !== undefined && stat.length > 0)
    lines.push(
      ...renderDiffstat(stat)
        .split('\n')
        .map((l) => `  ${l}`),
    );
  lines.push(row('summary', o.summaryPath ? sanitizeLine(o.summaryPath) : '(not written)'));
  lines.push(row('state', sanitizeLine(o.statePath)));
  if (options.change && options.change.length > 0) lines.push('change:', ...options.change);
  const next = options.next === false ? [] : nextCommands(s);
  if (next.length > 0) lines.push('next:', ...next.map((c) => `  ${c}`));
  return lines;
}

/** "main" or "commit 1a2b3c4d5e6f" (a detached base is recorded by its id). */
export function describeBase(s: RunState): string {
  const ref = s.repo.base_ref;
  return ref === s.repo.base_commit ? `commit ${ref.slice(0, 12)}` : sanitizeLine(ref);
}

/**
 * What to run next: `hammer-box pr` (push the branch and open its pull request), then the same by
 * hand (push the branch alone, open a PR with PR_SUMMARY.md); or look at / resume the run.
 */
export function nextCommands(s: RunState): string[] {
  // a sandbox the run could not remove comes first: it holds the cluster's (or engine's) resources
  const gc = [...new Set((s.left_behind ?? []).map((l) => l.gc))];
  return [...gc, ...afterRun(s)];
}

function afterRun(s: RunState): string[] {
  const repo = shellWord(s.repo.path);
  const verdict = runVerdict(s);
  if (verdict.outcome === 'interrupted')
    return [`hammer-box resume ${s.run_id} --repo ${repo}${backendFlags(s.config, { trust: true })}`];
  if (!s.branch) return verdict.outcome === 'stable' ? [] : [`hammer-box runs show ${s.run_id} --repo ${repo}`];
  const branch = shellWord(s.branch.name);
  const base = s.repo.base_ref === s.repo.base_commit ? '' : ` --base ${shellWord(s.repo.base_ref)}`;
  const ref = shellWord(`refs/heads/${s.branch.name}`);
  return [
    `hammer-box pr ${s.run_id} --repo ${repo}`,
    `git -C ${repo} push origin ${ref}:${ref}`,
    `hammer-box runs show ${s.run_id} --repo ${repo} --pr-body | gh pr create --head ${branch}${base} --title ${shellWord(prTitle(s))} --body-file -${verdictRule(verdict).ready ? '' : ' --draft'}`,
  ];
}

/** What a test run came to, in a word as the terminal says it (a timed-out run is unknown, never failed). */
export function testWord(t: TestRecord): string {
  return { passed: 'passed', failed: 'failed', no_tests: 'found no test', timed_out: 'unknown', unread: 'unread' }[
    readTest(t)
  ];
}

function describeTest(t: TestRecord): string {
  const how = t.timed_out
    ? `timed out after ${formatDuration(t.duration_ms)}`
    : `${testStatus(t)} after ${formatDuration(t.duration_ms)}`;
  return `${testWord(t)} (${how})`;
}

/** The first few ids, and how many more. */
function flakyIds(ids: readonly string[]): string {
  return ids.length > 3 ? `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more` : ids.join(', ');
}
