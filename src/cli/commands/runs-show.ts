// `hammer-box runs show <run_id>`
import { runRefOf } from '../../api/run-ref.js';
import { prBody, resolveRun, showRun, type RunDetails } from '../../api/runs.js';
import { describeReason } from '../../loop/stop-conditions.js';
import { cutOffLine } from '../../report/cut-off-line.js';
import { formatDuration } from '../../text/markdown.js';
import { sanitizeLine, sanitizeText, truncateText } from '../../text/sanitize.js';
import { iterationTokens } from '../../report/trajectory-summary.js';
import type { Iteration, TestRecord } from '../../state/run-state.js';
import { latestTest, runVerdict } from '../../verdict/index.js';
import { printJson } from '../terminal-json.js';
import { testWord } from '../run-summary.js';

/** Lines of test output shown under the final test. */
const OUTPUT_TAIL_LINES = 8;
/** Shown files listed under an iteration at most. */
const SHOWN_ITEMS = 8;
/** Tool calls listed under an agent iteration at most. */
const STEPS_SHOWN = 60;

/** The run's state for a person: status and why, branch, each iteration, the final test, and where the files are. */
export function renderRunDetails(d: RunDetails): string[] {
  const s = d.state;
  // Everything below may quote the model, the tests or the repository: one-line cells, sanitised.
  const one = (text: string, max = 100): string => truncateText(sanitizeLine(text), max);
  // a label as long as the column keeps a space before its value ("environment toolchain ...")
  const row = (label: string, value: string): string => `${`${label} `.padEnd(11)}${value}`;
  const lines = [row('run', s.run_id)];
  const verdict = runVerdict(s);
  lines.push(
    row('status', s.reason ? `${verdict.outcome}: ${describeReason(s.reason)} (${s.reason})` : verdict.outcome),
  );
  if (s.reason_detail) lines.push(row('', one(s.reason_detail, 200)));
  if (verdict.outcome !== 'running') lines.push(row('verdict', one(verdict.why, 200)));
  lines.push(row('created', `${s.created_at} (updated ${s.updated_at})`));
  lines.push(
    row('repo', `${one(s.repo.path, 200)}, base ${one(s.repo.base_ref)} (${s.repo.base_commit.slice(0, 12)})`),
  );
  lines.push(row('directive', one(s.directive.text.split('\n').find((l) => l.trim() !== '') ?? '')));
  lines.push(row('model', `${one(s.model.provider)} ${one(s.model.name)} at ${one(s.model.url)}`));
  lines.push(
    row(
      'image',
      s.image ? `${one(s.image.ref)} (${s.image.id.replace(/^sha256:/, '').slice(0, 12)})` : 'none (ended in setup)',
    ),
  );
  if (s.environment) lines.push(row('environment', one(s.environment.line, 200)));
  lines.push(row('branch', s.branch ? `${one(s.branch.name)} (${s.branch.commit.slice(0, 12)})` : 'none'));
  lines.push(row('baseline', s.baseline ? describeTest(s.baseline) : 'not run'));
  if (s.baseline_rerun) lines.push(row('rerun', `${describeTest(s.baseline_rerun)}: ${one(s.baseline_rerun.command)}`));
  if (verdict.flaky.length > 0)
    lines.push(
      row('flaky', one(`${verdict.flaky.map((t) => t.id).join(', ')} (passed when run again: not targets)`, 200)),
    );
  lines.push(row('iterations', String(s.iterations.length)));
  for (const it of s.iterations) {
    lines.push(`  ${String(it.n).padStart(2)}  ${(it.outcome ?? 'running').padEnd(10)}  ${iterationLine(it, one)}`);
    lines.push(...shownLines(it, one));
    lines.push(...trajectoryLines(it, one));
  }
  const final = latestTest(s);
  if (final) {
    lines.push(row('final test', `${describeTest(final)}: ${one(final.command)}`));
    for (const l of outputTail(final)) lines.push(`  | ${l}`);
  }
  if (s.errors.length > 0) {
    lines.push('errors');
    for (const e of s.errors)
      lines.push(
        `  ${e.at} ${one(e.code, 40)}${e.phase ? ` in ${one(e.phase, 40)}` : ''}${e.iteration ? ` (iteration ${e.iteration})` : ''}: ${one(e.message, 200)}`,
      );
  }
  lines.push('files');
  lines.push(`  ${row('state', sanitizeLine(d.statePath))}`);
  lines.push(`  ${row('summary', d.summaryPath ? sanitizeLine(d.summaryPath) : '(not written)')}`);
  lines.push(`  ${row('artifacts', sanitizeLine(d.artifactsDir))}`);
  return lines;
}

function describeTest(t: TestRecord): string {
  const how = t.timed_out
    ? `timed out after ${formatDuration(t.duration_ms)}`
    : `exit ${t.exit_code} after ${formatDuration(t.duration_ms)}`;
  const focus =
    t.scope === 'focused'
      ? '; the failing tests alone, run first'
      : t.focus
        ? `; after the failing tests alone passed in ${formatDuration(t.focus.duration_ms)}`
        : '';
  return `${testWord(t)} (${how}${focus})`;
}

function iterationLine(it: Iteration, one: (text: string, max?: number) => string): string {
  const parts = [one(it.summary, 80)];
  if (it.outcome === 'rejected' && it.validation?.message) parts.push(`git: ${one(it.validation.message, 120)}`);
  if (it.extraction?.cut_off) parts.push(one(cutOffLine(it.extraction.cut_off, it.answer?.completion_tokens), 160));
  const skipped = it.syntax_gate?.skipped ?? [];
  if (skipped.length > 0) {
    const s = skipped[0]!;
    const rungs = skipped.map((x) => x.rung).join(', ');
    parts.push(one(`syntax gate skipped ${rungs} (${s.path}:${s.line}: ${s.message})`, 160));
  }
  if (it.test) parts.push(`tests ${describeTest(it.test)}`);
  return parts.join('; ');
}

/** What the iteration's prompt showed and why, and how much of it the previous prompt shared. */
function shownLines(it: Iteration, one: (text: string, max?: number) => string): string[] {
  const out: string[] = [];
  const pad = ' '.repeat(18);
  const p = it.prompt;
  if (p) {
    const shared =
      p.shared_prefix_chars === undefined
        ? ''
        : `, ${Math.min(100, Math.round((100 * p.shared_prefix_chars) / Math.max(1, p.chars)))}% shared with the previous prompt`;
    out.push(`${pad}prompt ${p.chars} chars${shared}`);
  }
  for (const [i, ask] of (it.asks ?? []).entries()) {
    const items = ask.items.map((a) => {
      const what =
        a.kind === 'read'
          ? `read ${one(a.target, 80)}`
          : a.kind === 'search'
            ? `search ${JSON.stringify(one(a.target, 60))}`
            : `unusable call of ${one(a.target, 60)}`;
      const how = a.lines ? `lines ${a.lines}` : a.hits === undefined ? '' : `${a.hits} hits`;
      return `${what} (${[a.outcome.replace('_', ' '), how].filter((x) => x !== '').join(', ')})`;
    });
    const via = ask.tool_calls_artifact === undefined ? '' : ' with tool calls';
    out.push(`${pad}asked (${i + 1})${via}: ${items.join('; ')}; answered with ${ask.chars} chars`);
  }
  const c = it.context;
  if (!c) return out;
  if (c.whole_repository) out.push(`${pad}small repository: every source file shown whole`);
  for (const item of c.items.slice(0, SHOWN_ITEMS)) {
    const how = item.shown === 'regions' ? `lines ${one(item.lines ?? '', 60)}` : item.shown;
    const why = item.detail ? `${item.reason}: ${one(item.detail, 60)}` : item.reason;
    out.push(`${pad}${one(item.path, 80)} (${why}; ${how}; ${item.chars} chars)`);
  }
  if (c.items.length > SHOWN_ITEMS) out.push(`${pad}... and ${c.items.length - SHOWN_ITEMS} more`);
  return out;
}

/** Agent mode: the trajectory's turns, tokens and how it ended, then each tool call and its outcome. */
function trajectoryLines(it: Iteration, one: (text: string, max?: number) => string): string[] {
  const t = it.trajectory;
  if (!t) return [];
  const pad = ' '.repeat(18);
  const tokens = iterationTokens(it);
  const shares = t.turns
    .filter((x) => x.shared_prefix_chars !== undefined && x.prompt_chars > 0)
    .map((x) => x.shared_prefix_chars! / x.prompt_chars);
  const share =
    shares.length === 0
      ? ''
      : `, ${Math.round((100 * shares.reduce((a, b) => a + b, 0)) / shares.length)}% of each request repeated the last`;
  const end = t.end === null ? 'unfinished' : `ended ${t.end.reason}: ${one(t.end.detail, 100)}`;
  const out = [
    `${pad}trajectory: ${t.turns.length} turns, ${t.steps.length} tool calls, ${tokens.in} tokens in, ${tokens.out} out${share}; ${end}`,
  ];
  for (const s of t.steps.slice(0, STEPS_SHOWN)) {
    const how = s.exit_code === undefined ? s.outcome : `exit ${s.exit_code}${s.timed_out ? ', timed out' : ''}`;
    out.push(
      `${pad}${String(s.k).padStart(3)} ${s.tool.padEnd(6)} ${one(s.action, 90)} → ${how} (${formatDuration(s.duration_ms)})`,
    );
    if (s.outcome === 'refused') out.push(`${pad}      ${one(s.observation, 140)}`);
  }
  if (t.steps.length > STEPS_SHOWN) out.push(`${pad}... and ${t.steps.length - STEPS_SHOWN} more tool calls`);
  if (t.nudges && t.nudges.length > 0) out.push(`${pad}nudged: ${t.nudges.map((x) => one(x, 30)).join(', ')}`);
  return out;
}

/** The last lines the final test printed (stdout, then stderr), sanitised. */
function outputTail(t: TestRecord): string[] {
  const text = sanitizeText(`${t.stdout_tail}\n${t.stderr_tail}`);
  return text
    .split('\n')
    .map((l) => truncateText(l.replace(/\t/g, '  ').trimEnd(), 160))
    .filter((l) => l !== '')
    .slice(-OUTPUT_TAIL_LINES);
}

export default async function runsShow(f: {
  repo: string;
  runId?: string;
  last?: boolean;
  json?: boolean;
  prBody?: boolean;
}): Promise<number> {
  const runId = await resolveRun({ repo: f.repo, ref: runRefOf(f.runId, f.last), env: process.env });
  if (f.prBody) {
    process.stdout.write(await prBody({ repo: f.repo, runId, env: process.env }));
    return 0;
  }
  const details = await showRun({ repo: f.repo, runId, env: process.env });
  if (f.json) printJson(details.state);
  else process.stdout.write(`${renderRunDetails(details).join('\n')}\n`);
  return 0;
}
