// PR_SUMMARY.md: what a reviewer needs to judge the branch, from the state alone. Every piece of
// text that came from the model, the repo or the sandbox is sanitised on the way in.
import { rungLabel, rungNumber } from '../state/rungs.js';
import { cutOffLine } from './cut-off-line.js';
import { finishedIterations, latestTest, readTest, runVerdict, testStatus } from '../verdict/index.js';
import type { Iteration, PatchFile, RunState } from '../state/run-state.js';
import { renderDiffstat } from './diffstat.js';
import { renderTests, type TestsBeforeAfter } from './pr-tests.js';
import {
  blockquote,
  fencedBlock,
  formatDuration,
  inertLine,
  inertText,
  inlineCode,
  table,
  tableCell,
} from '../text/markdown.js';
import { baselinePassWarning } from '../verdict/baseline-warning.js';
import { prTitle } from './pr-title.js';
import { assessRisk } from './risk.js';
import { sanitizeText, truncateText } from '../text/sanitize.js';
import { modelMs, renderTrajectories } from './trajectory-summary.js';

const DIRECTIVE_LINES = 12;
/** Lines of a plan shown. */
const PLAN_LINES = 200;
const OUTPUT_TAIL_LINES = 40;

/** What the summary shows beyond the state: read from the run's artifacts by whoever writes it. */
export interface SummaryExtras {
  /** The model's own words about the change that made the tests pass (see modelExplanation). */
  explanation?: string | null;
  /** What the baseline's and the last test's outputs said about which tests fail. */
  tests?: TestsBeforeAfter | null;
}

/** Render the pull-request summary of a run as markdown: a `# <title>` line, then the body. */
export function renderPrSummary(state: RunState, extras: SummaryExtras = {}): string {
  return `# ${prTitle(state)}\n\n${renderPrBody(state, extras)}`;
}

/**
 * The pull request's body (PR_SUMMARY.md without its title line), for `gh pr create --body-file -`:
 * what the model says it did, the tests before and after, the diffstat, the iterations, then the
 * details. No local path appears in it: the repository is `<repo>`, home directories are `~`.
 */
export function renderPrBody(state: RunState, extras: SummaryExtras = {}): string {
  const risk = assessRisk(state);
  const iterations = finishedIterations(state);
  const local = localPaths(state);
  const sections: string[] = [];

  if (extras.explanation) sections.push(`The model's explanation:\n\n${blockquote(inertText(extras.explanation))}`);
  sections.push(renderTests(state, extras.tests ?? null));
  sections.push(`**Risk: ${risk.level}** - ${inertLine(local(risk.reason))}`);
  const warning = baselinePassWarning(state);
  if (warning !== null) sections.push(`> **Warning:** ${inertLine(local(warning))}`);
  if (state.reason_detail !== null && state.reason_detail !== '' && risk.level !== 'pass')
    sections.push(`Stopped because: ${inertLine(local(state.reason_detail))}`);
  sections.push(renderChanges(state, iterations));
  const review = renderReview(iterations);
  if (review !== null) sections.push(review);
  sections.push(renderIterations(iterations));
  const agent = renderTrajectories(iterations);
  if (agent !== null) sections.push(agent);
  sections.push(renderDetails(state, iterations.length));
  sections.push(
    state.directive.kind === 'plan'
      ? renderPlan(state.directive.text)
      : `## Directive\n\n${blockquote(directiveExcerpt(state.directive.text))}`,
  );
  sections.push(renderFinalTest(state));
  const rejected = renderRejected(iterations);
  if (rejected !== null) sections.push(rejected);
  if (state.errors.length > 0) {
    sections.push(
      `## Errors\n\n${state.errors.map((e) => `- ${code(e.code)}${e.phase === undefined ? '' : ` in ${tableCell(e.phase)}`}: ${inertLine(local(e.message))}`).join('\n')}`,
    );
  }
  if (state.image !== null && state.status !== 'running')
    sections.push(
      `To check this verdict in the environment that produced it (offline, in the recorded image; \`hammer-box images import\` brings the image to another machine):\n\n\`\`\`sh\nhammer-box verify ${state.run_id}\n\`\`\``,
    );
  sections.push(`<sub>Made by hammer-box, run ${code(state.run_id)}.</sub>`);
  return `${sections.join('\n\n')}\n`;
}

/** The diffstat of the branch against the base, and its commits. */
function renderChanges(state: RunState, iterations: readonly Iteration[]): string {
  const applied = iterations.filter((it) => it.apply !== null);
  if (applied.length === 0) return '## Changes\n\nNone: no patch was applied.';
  const parts = ['## Changes'];
  const stat = state.branch?.diffstat;
  if (stat !== undefined) parts.push(fencedBlock(renderDiffstat(stat), 'text'));
  else parts.push(renderFiles(iterations));
  parts.push(
    applied
      .map((it) => `- ${code(short(it.apply!.commit))} iteration ${it.n}: ${inertLine(it.summary)}${rungSuffix(it)}`)
      .join('\n'),
  );
  return parts.join('\n\n');
}

/** Branch, base, status, model, image and runtime. */
function renderDetails(state: RunState, iterationCount: number): string {
  const rows = [
    [
      'Branch',
      state.branch === null
        ? 'not created'
        : `${cellCode(state.branch.name)} at ${cellCode(short(state.branch.commit))}`,
    ],
    [
      'Base',
      `${cellCode(state.repo.base_ref === state.repo.base_commit ? short(state.repo.base_ref) : state.repo.base_ref)} at ${cellCode(short(state.repo.base_commit))}`,
    ],
    ['Status', `${runVerdict(state).outcome}${state.reason === null ? '' : ` (${state.reason})`}`],
    ['Iterations', String(iterationCount)],
    ['Model', `${tableCell(state.model.provider)} ${cellCode(state.model.name)}`],
    ...(state.environment ? [['Environment', tableCell(state.environment.line)]] : []),
    ...imageRows(state.image),
    ['Sandbox runtime', runtimeCell(state.config)],
  ];
  return `## Details\n\n${table(['', ''], rows)}`;
}

/** Replace the local paths a message may quote: the run's files, the repository, home directories. */
function localPaths(state: RunState): (text: string) => string {
  const swaps: [string, string][] = [
    [state.artifacts_dir, `<repo>/.hammer/runs/${state.run_id}`],
    [state.repo.path, '<repo>'],
  ];
  return (text) => {
    let out = text;
    for (const [from, to] of swaps) if (from.length > 1) out = out.split(from).join(to);
    return out.replace(/(^|[\s'"(=:])(?:\/home\/|\/Users\/)[^/\s'"]+/g, '$1~');
  };
}

/** The OCI runtime the sandbox got, as recorded ("auto" is resolved before it is recorded). */
function runtimeCell(config: RunState['config']): string {
  const sandbox = config['sandbox'];
  const runtime = typeof sandbox === 'object' && sandbox !== null && 'runtime' in sandbox ? sandbox.runtime : undefined;
  if (typeof runtime !== 'string') return 'not recorded';
  if (runtime === '') return "the engine's default (the sandbox shares the host kernel)";
  return runtime === 'runsc' ? `gVisor (${cellCode(runtime)})` : cellCode(runtime);
}

/** The image rows: the sandbox's image, and the toolchain and env images behind it, each once. */
function imageRows(image: RunState['image']): string[][] {
  if (image === null) return [['Image', 'none (the run ended before its environment was ready)']];
  const cell = (img: { ref: string; id: string }): string =>
    `${cellCode(img.ref)} (${cellCode(short(img.id.replace(/^sha256:/, '')))})`;
  const same = (a: { id: string }, b: { id: string } | null | undefined): boolean => b?.id === a.id;
  const rows = [
    [
      'Image',
      `${cell(image)}${same(image, image.env) ? ', the env image' : same(image, image.toolchain) ? ', the toolchain image' : ''}`,
    ],
  ];
  const tv = image.toolchain_version;
  if (tv) {
    const why = tv.declared ? tableCell(tv.declared) : tv.source === 'default' ? 'nothing declared: the default' : '';
    rows.push(['Toolchain', `${tv.toolchain} ${cellCode(tv.version)} from ${tv.origin} (${why})`]);
    if (tv.package_manager) rows.push(['Package manager', tableCell(tv.package_manager)]);
  }
  for (const d of image.setup_drift ?? [])
    rows.push(['Setup drift', `${tableCell(d)} (the dependencies are not exactly the lockfile's)`]);
  if (image.toolchain && !same(image, image.toolchain)) rows.push(['Toolchain image', cell(image.toolchain)]);
  if (image.env === null) rows.push(['Env image', 'none (nothing to install)']);
  else if (image.env && !same(image, image.env)) rows.push(['Env image', cell(image.env)]);
  return rows;
}

function renderIterations(iterations: readonly Iteration[]): string {
  if (iterations.length === 0) return '## Iterations\n\nNone.';
  const rows = iterations.map((it) => [
    String(it.n),
    it.outcome ?? 'unfinished',
    it.outcome === 'applied' && it.patch?.rung !== undefined ? `${rungNumber(it.patch.rung)} ${it.patch.rung}` : '-',
    String(it.patch?.files.length ?? 0),
    it.test === null ? '-' : tableCell(testStatus(it.test)),
    modelMs(it) === null ? '-' : formatDuration(modelMs(it)!),
    it.test === null ? '-' : formatDuration(it.test.duration_ms),
    formatDuration(Object.values(it.phases).reduce((sum, p) => sum + (p?.duration_ms ?? 0), 0)),
    tableCell(truncateText(it.summary, 80)),
  ]);
  const note = iterations.some(
    (it) => it.outcome === 'applied' && it.patch?.rung !== undefined && it.patch.rung !== 'as_is',
  )
    ? `\n\nApplied by: the apply ladder's rung (1 as_is: git apply as written; 2 recount: hunk counts recounted; 3 whitespace: whitespace-tolerant; 4 relocated: hunks placed by their context; 5 search_replace: search/replace of the edited lines).`
    : '';
  return `## Iterations\n\n${table(['#', 'Outcome', 'Applied by', 'Files', 'Tests', 'Model', 'Test run', 'Total', 'Summary'], rows)}${note}`;
}

// " [rung 4: hunks relocated by their context]" for a patch the ladder had to repair.
function rungSuffix(it: Iteration): string {
  const rung = it.patch?.rung;
  if (rung === undefined || rung === 'as_is') return '';
  return ` [rung ${rungNumber(rung)}: ${rungLabel(rung)}${it.patch?.applied_artifact ? `, applied patch ${code(it.patch.applied_artifact)}` : ''}]`;
}

function renderFinalTest(state: RunState): string {
  const test = latestTest(state);
  if (test === null) return '## Final test run\n\nThe tests did not run.';
  const said = {
    passed: 'Passed',
    failed: 'Failed',
    no_tests: 'Found no test to run',
    timed_out: 'Timed out',
    unread: 'Could not be read',
  }[readTest(test)];
  const head = `## Final test run\n\n${said}: ${code(test.command)} (${testStatus(test)}, ${formatDuration(test.duration_ms)})`;
  const output = [test.stdout_tail, test.stderr_tail]
    .map((t) => withoutRunnerLines(sanitizeText(t)).trimEnd())
    .filter((t) => t !== '')
    .join('\n');
  if (output === '') return `${head}\n\nNo output.`;
  const lines = output.split('\n');
  const tail = lines.slice(-OUTPUT_TAIL_LINES).join('\n');
  const note = lines.length > OUTPUT_TAIL_LINES ? `Last ${OUTPUT_TAIL_LINES} lines of output:` : 'Output:';
  return `${head}\n\n<details><summary>${note.replace(/:$/, '')}</summary>\n\n${fencedBlock(tail, 'text')}\n\n</details>`;
}

/** Test output without the runner's own lines (states written before they were left out at the source). */
function withoutRunnerLines(text: string): string {
  return text.replace(/^(hammer-runner: check \d+|HAMMER_(STAGE|RESULT) .*)\n?/gm, '');
}

function renderFiles(iterations: readonly Iteration[]): string {
  const files = new Map<string, PatchFile>();
  for (const it of iterations) {
    if (it.outcome !== 'applied' || it.patch === null) continue;
    for (const f of it.patch.files) files.set(f.path, f);
  }
  if (files.size === 0) return 'No files.';
  const lines = [...files.values()]
    .sort((a, b) => a.path.localeCompare(b.path))
    .map((f) => `- ${code(f.path)} (${f.status}${f.from === undefined ? '' : ` from ${code(f.from)}`})`);
  return lines.join('\n');
}

/** Sensitive paths [policy] allowed: always flagged, so a human reads them before merging. */
function renderReview(iterations: readonly Iteration[]): string | null {
  const lines = iterations.flatMap((it) =>
    it.outcome === 'applied'
      ? (it.review ?? []).map((r) => `- Iteration ${it.n}: ${inertLine(truncateText(r, 300))}`)
      : [],
  );
  if (lines.length === 0) return null;
  return `## Needs review: sensitive paths\n\nThese edits change CI configuration, hook managers, install triggers, git attributes or submodules, or what a package.json runs. They were applied only because \`[policy] allow_sensitive\` is on; read them before merging.\n\n${lines.join('\n')}`;
}

function renderRejected(iterations: readonly Iteration[]): string | null {
  const rejected = iterations.filter(
    (it) => it.outcome === 'rejected' || it.outcome === 'unusable' || it.outcome === 'duplicate',
  );
  if (rejected.length === 0) return null;
  const lines = rejected.map((it) => {
    const why =
      it.outcome === 'rejected'
        ? `not applied: ${it.validation?.message ?? 'rejected'}`
        : it.outcome === 'duplicate'
          ? 'repeated an earlier patch'
          : it.extraction?.cut_off
            ? `answer ${cutOffLine(it.extraction.cut_off, it.answer?.completion_tokens)}; raise [model] num_predict for longer answers`
            : `unusable answer: ${it.extraction?.reason ?? 'no diff'}`;
    const artifact = it.patch?.artifact ?? it.answer?.artifact;
    return `- Iteration ${it.n}: ${inertLine(truncateText(why, 300))}${artifact === undefined ? '' : ` (${code(artifact)})`}`;
  });
  return `## Rejected patches\n\n${lines.join('\n')}`;
}

/** A run's plan (`run --plan`): verbatim in a collapsed code block, cut to PLAN_LINES. */
function renderPlan(text: string): string {
  const lines = sanitizeText(text).trim().split('\n');
  const shown = lines.slice(0, PLAN_LINES).map((l) => truncateText(l, 300));
  if (lines.length > PLAN_LINES) shown.push(`... (${lines.length - PLAN_LINES} more lines)`);
  return `## Plan\n\nThe run carried out a plan (\`hammer-box plan\`, then \`hammer-box run --plan\`): its goal, steps and tests were the directive.\n\n<details>\n<summary>The plan</summary>\n\n${fencedBlock(shown.join('\n'), 'markdown')}\n\n</details>`;
}

function directiveExcerpt(text: string): string {
  const lines = sanitizeText(text).trim().split('\n');
  const shown = lines.slice(0, DIRECTIVE_LINES).map((l) => truncateText(l, 200));
  if (lines.length > DIRECTIVE_LINES) shown.push(`... (${lines.length - DIRECTIVE_LINES} more lines)`);
  return shown.join('\n');
}

// Inline code inside a table cell (pipes escaped so the cell does not split).
function cellCode(text: string): string {
  return inlineCode(text).replace(/\|/g, '\\|');
}

function code(text: string): string {
  return inlineCode(text);
}

function short(hash: string): string {
  return /^[0-9a-f]{12,}$/i.test(hash) ? hash.slice(0, 12) : hash;
}
