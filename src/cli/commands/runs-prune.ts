// `hammer-box runs prune`: without --keep or --older-than it only lists what `--keep 10` would
// remove; branches go only with --branches.
import { pruneRuns, type PruneRunsReport } from '../../api/runs-prune.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { DEFAULT_RUNS_KEPT } from '../../state/prune-runs.js';
import { interruptSignal } from '../interrupt.js';
import { printJson } from '../terminal-json.js';

/** One line per run removed (with what became of its branch), then how many were kept. */
export function renderPruneReport(report: PruneRunsReport): string[] {
  const verb = report.dry_run ? 'would remove' : 'removed';
  const lines = report.removed.map((r) => {
    const what = `${verb} ${r.run_id} (${r.status})`;
    if (r.branch === null) return what;
    const branch = sanitizeLine(r.branch);
    if (!report.branches) return `${what}; ${report.dry_run ? 'would keep' : 'kept'} its branch ${branch}`;
    if (r.branch_removal === null) return `${what} and its branch ${branch} (unless moved, checked out or pushed)`;
    if (r.branch_removal.removed) return `${what} and its branch ${branch}`;
    return `${what}; kept its branch ${branch}: ${sanitizeLine(r.branch_removal.detail)}`;
  });
  if (lines.length === 0) lines.push('nothing to remove');
  const live = report.kept.filter((k) => k.reason === 'live').length;
  if (report.kept.length > 0)
    lines.push(
      `kept ${report.kept.length} run${report.kept.length === 1 ? '' : 's'}${live ? ` (${live} still running)` : ''}`,
    );
  return lines;
}

export default async function runsPrune(f: {
  repo: string;
  keep?: number;
  olderThan?: number;
  branches?: boolean;
  dryRun?: boolean;
  json?: boolean;
}): Promise<number> {
  // nothing is removed unless the runs to remove are named by --keep or --older-than
  const asked = f.keep !== undefined || f.olderThan !== undefined;
  const report = await pruneRuns({
    repo: f.repo,
    env: process.env,
    signal: interruptSignal(),
    ...(f.keep !== undefined ? { keep: f.keep } : {}),
    ...(f.olderThan !== undefined ? { olderThanMs: f.olderThan } : {}),
    ...(f.branches ? { branches: true } : {}),
    ...(f.dryRun || !asked ? { dryRun: true } : {}),
  });
  if (f.json) printJson(report);
  else {
    const lines = renderPruneReport(report);
    if (!asked && report.removed.length > 0)
      lines.push(
        `nothing was removed: to remove these, run it again with --keep ${DEFAULT_RUNS_KEPT} (or --older-than <age>)${f.branches ? '' : ', and --branches to remove their branches too'}`,
      );
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return 0;
}
