// `report.md`: the report as tables people paste into an issue. Pure; every text from a run (error
// messages, branch names) is sanitised and escaped.
import { formatDuration, inlineCode, table, tableCell } from '../text/markdown.js';
import { truncateText } from '../text/sanitize.js';
import { REPORT_STATUSES, type Report, type ReportTask } from './report-schema.js';

/** The most characters of an error message shown in a table cell. */
const ERROR_CHARS = 160;

/** A share as a percentage with one decimal ("-" for none). */
export function percent(value: number | null): string {
  return value === null ? '-' : `${(value * 100).toFixed(1)}%`;
}

/** report.md's text. */
export function renderReportMarkdown(r: Report): string {
  const out: string[] = [];
  const stateWord = r.state === 'finished' ? '' : ` (${r.state})`;
  out.push(`# hammer-box batch: ${r.totals.tasks} task${r.totals.tasks === 1 ? '' : 's'}${stateWord}`, '');
  out.push(
    `Model ${inlineCode(r.model)}, tasks from ${inlineCode(r.tasks_file)}, written ${r.generated_at} by hammer-box ${versionText(r.hammer_box_version)}.`,
    '',
  );
  const rate = r.resolved.finished ? r.resolved.stable / r.resolved.finished : null;
  out.push(`**Resolved: ${r.resolved.stable} of ${r.resolved.finished} finished tasks (${percent(rate)}).**`, '');
  out.push(
    table(
      ['status', 'tasks'],
      REPORT_STATUSES.filter((s) => r.counts[s] > 0).map((s) => [`\`${s}\``, String(r.counts[s])]),
    ),
    '',
  );
  if (r.pass_at_k.length > 1 || r.tasks.some((t) => t.attempts_wanted > 1)) {
    out.push(
      table(
        ['k', 'pass@k', 'tasks with k attempts'],
        r.pass_at_k.map((p) => [String(p.k), percent(p.value), String(p.tasks)]),
      ),
      '',
    );
  }
  const t = r.totals;
  out.push(
    `Totals: ${t.attempts} attempt${t.attempts === 1 ? '' : 's'}, ${t.iterations} iterations, ${formatDuration(t.wall_ms)} of task time, ${formatDuration(t.model_ms)} of model time, ${t.tokens_in.toLocaleString('en-US')} tokens in, ${t.tokens_out.toLocaleString('en-US')} out.`,
    '',
  );
  out.push(
    table(
      ['task', 'status', 'attempts', 'iterations', 'wall', 'model', 'tokens in / out', 'detail'],
      r.tasks.map(taskRow),
    ),
    '',
  );
  return `${out.join('\n')}`;
}

function taskRow(t: ReportTask): string[] {
  const counted = t.attempts.filter((a) => a.counted);
  const attempts = t.attempts_wanted > 1 ? `${t.solved}/${t.samples} stable` : String(counted.at(-1)?.attempt ?? '-');
  return [
    tableCell(t.id),
    `\`${t.status}\``,
    attempts,
    String(t.iterations),
    formatDuration(t.wall_ms),
    formatDuration(t.model_ms),
    `${t.tokens_in.toLocaleString('en-US')} / ${t.tokens_out.toLocaleString('en-US')}`,
    tableCell(detail(t)),
  ];
}

/** The one line saying more: the branch of a stable task, else the reason or the error. */
function detail(t: ReportTask): string {
  const stable = t.status === 'stable' ? t.attempts.find((x) => x.counted && x.status === 'stable') : undefined;
  const a = stable ?? [...t.attempts].reverse().find((x) => x.counted && x.finished_at !== null);
  if (!a) return '';
  if (a.error) return truncateText(`${a.error.code}: ${a.error.message}`, ERROR_CHARS);
  if (a.status === 'stable' && a.branch) return a.branch;
  return a.reason ?? '';
}

/** A version as written ("0.1.0", "1.2.0-rc.1"): plain when it is one, else made inert as a table cell is. */
function versionText(version: string): string {
  return /^[0-9A-Za-z][0-9A-Za-z.+-]*$/.test(version) ? version : tableCell(version);
}
