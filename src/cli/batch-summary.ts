// What `batch` prints on stdout when it ends, and its exit code.
import type { BatchResult } from '../batch/batch.js';
import { percent } from '../batch/report-md.js';
import { REPORT_STATUSES, type Report } from '../batch/report-schema.js';
import { isVerdict } from '../batch/status.js';
import { shellWord } from '../text/shell-word.js';
import { EXIT } from './exit-codes.js';

/** Exit code: 130 interrupted; 1 when a task has no verdict (infra_error, model_error, or not finished); else 0. */
export function batchExitCode(result: Pick<BatchResult, 'interrupted' | 'report'>): number {
  if (result.interrupted) return EXIT.interrupted;
  const noVerdict = result.report.tasks.some(
    (t) => t.status === 'pending' || t.status === 'running' || !isVerdict(t.status),
  );
  return noVerdict ? EXIT.notPassing : EXIT.stable;
}

/** The summary's lines; `rerun` is the command line that continues the batch (without --resume). */
export function renderBatchSummary(result: BatchResult, rerun: string[]): string[] {
  const r: Report = result.report;
  const rate = r.resolved.finished ? r.resolved.stable / r.resolved.finished : null;
  const lines = [
    `hammer-box batch: ${r.state}: ${r.totals.tasks} task${r.totals.tasks === 1 ? '' : 's'}, resolved ${r.resolved.stable} of ${r.resolved.finished} finished (${percent(rate)})`,
    `  ${REPORT_STATUSES.filter((s) => r.counts[s] > 0)
      .map((s) => `${s} ${r.counts[s]}`)
      .join(', ')}`,
  ];
  if (r.tasks.some((t) => t.attempts_wanted > 1))
    lines.push(`  ${r.pass_at_k.map((p) => `pass@${p.k} ${percent(p.value)} (${p.tasks} tasks)`).join(', ')}`);
  lines.push(`  report   ${result.markdownPath}`, `  json     ${result.reportPath}`);
  const next: string[] = [];
  const base = rerun.map(shellWord).join(' ');
  if (r.counts.pending > 0 || r.counts.running > 0) next.push(`${base} --resume`);
  const retry = [r.counts.infra_error > 0 ? 'infra' : null, r.counts.model_error > 0 ? 'model' : null].filter(
    (k): k is string => k !== null,
  );
  if (retry.length > 0) next.push(`${base} --resume --retry ${retry.join(',')}`);
  if (next.length > 0) lines.push('next:', ...next.map((n) => `  ${n}`));
  return lines;
}
