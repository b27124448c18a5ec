// `hammer-box runs prune`
import { pruneRuns, type PruneRunsReport } from '../../api/runs-prune.js';
import { sanitizeLine } from '../../report/sanitize.js';
import { interruptSignal } from '../interrupt.js';
import { printJson } from '../terminal-json.js';

/** One line per run removed (with what became of its branch), then how many were kept. */
export function renderPruneReport(report: PruneRunsReport): string[] {
  const verb = report.dry_run ? 'would remove' : 'removed';
  const lines = report.removed.map((r) => {
    const what = `${verb} ${r.run_id} (${r.status})`;
    if (r.branch === null) return what;
    const branch = sanitizeLine(r.branch);
    if (r.branch_removal === null) return `${what}; ${report.dry_run ? 'and its branch' : 'kept its branch'} ${branch}`;
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
  keepBranches?: boolean;
  dryRun?: boolean;
  json?: boolean;
}): Promise<number> {
  const report = await pruneRuns({
    repo: f.repo,
    env: process.env,
    signal: interruptSignal(),
    ...(f.keep !== undefined ? { keep: f.keep } : {}),
    ...(f.olderThan !== undefined ? { olderThanMs: f.olderThan } : {}),
    ...(f.keepBranches ? { keepBranches: true } : {}),
    ...(f.dryRun ? { dryRun: true } : {}),
  });
  if (f.json) printJson(report);
  else process.stdout.write(`${renderPruneReport(report).join('\n')}\n`);
  return 0;
}
