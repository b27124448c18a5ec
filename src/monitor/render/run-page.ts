// A run's page: what it was asked, how it stands and why, whether its state's seal verified, the
// timeline, the baseline, each iteration, errors, and PR_SUMMARY.md rendered. Every top-level part
// is a section with an id and a signature of its content, so a live page replaces only what changed.
import { createHash } from 'node:crypto';
import { describeReason } from '../../loop/stop-conditions.js';
import type { ArtifactHead } from '../../state/run-inspect.js';
import { artifactNames } from '../../state/artifact-names.js';
import type { Iteration, RunState } from '../../state/run-state.js';
import { runVerdict } from '../../verdict/index.js';
import { foldIndentation, html, Section, type Html } from '../html.js';
import type { Links } from '../links.js';
import type { ListedRun } from '../reader.js';
import { directiveLine, displayUrl, runFigures } from '../run-view.js';
import { count, duration, outcomeBadge, sealBadge, when } from './common.js';
import { iterationClass, renderIteration, type IterationTexts } from './iteration.js';
import { renderMarkdown } from './markdown.js';
import { renderTestResult } from './test-result.js';
import { renderTimeline } from './timeline.js';

/** What the run page shows besides the state: texts read from the run's artifacts. */
export interface RunPageTexts {
  /** Each iteration's section (the caller reads its texts and may keep sections that did not change). */
  iterationSection: (it: Iteration) => Html;
  summary: ArtifactHead | null;
  /** The run's log (events.ndjson) is there to link to. */
  eventsLog: boolean;
}

/** A part of a page the live script can swap: an id and a signature of its markup. */
export function section(id: string, body: Html, cls = ''): Section {
  const folded = foldIndentation(body);
  const sig = createHash('sha256').update(folded.toString()).digest('hex').slice(0, 16);
  return new Section(
    html`<section id="${id}" class="part ${cls}" data-sig="${sig}">${folded}</section>`.toString(),
    id,
    sig,
  );
}

function fact(label: string, value: Html | string): Html {
  return html`<dt>${label}</dt>
    <dd>${value}</dd>`;
}

/** The baseline's flaky failures, said under the status (nothing when there are none). */
function flakyNote(s: RunState): Html | string {
  const flaky = runVerdict(s).flaky;
  if (flaky.length === 0) return '';
  return html`<p class="flaky-note">
    flaky at baseline (failed, then passed when run again; not targets):
    ${flaky.map((t) => html`<code>${t.id}</code> `)}
  </p>`;
}

/** The run page's main part, for a run whose state parsed (trusted or not: the badge says which), in parts. */
export function renderRunMain(listed: ListedRun, texts: RunPageTexts, links: Links): Html[] {
  const { run, ref } = listed;
  const s = run.state!;
  const f = runFigures(s);
  const href = (name: string): string => links.artifact(ref, name);
  const warning =
    run.seal === 'verified'
      ? ''
      : html`<div class="untrusted-banner">
          <b>This state file is not trusted.</b> ${run.problem ?? ''} Everything below is shown as the file says it,
          which may be forged.
        </div>`;
  const tokens =
    f.tokensIn === null && f.tokensOut === null
      ? 'not reported'
      : `${count(f.tokensIn ?? 0)} in, ${count(f.tokensOut ?? 0)} out`;
  const image = s.image ? html`<code>${s.image.ref}</code>` : html`<span class="muted">none (ended in setup)</span>`;
  const branch = s.branch
    ? html`<code>${s.branch.name}</code> <span class="muted">${s.branch.commit.slice(0, 12)}</span>${
          s.branch.diffstat && s.branch.diffstat.length > 0
            ? html`<ul class="diffstat">
                ${s.branch.diffstat.map(
                  (d) =>
                    html`<li>
                      <code>${d.from ? `${d.from} → ${d.path}` : d.path}</code>
                      <span class="add">+${d.added ?? 'bin'}</span> <span class="del">−${d.removed ?? 'bin'}</span>
                    </li>`,
                )}
              </ul>`
            : ''
        }`
    : html`<span class="muted">none</span>`;
  const head = html`${warning}
    <h1 class="run-title">${directiveLine(s)}</h1>
    <p class="run-status">
      ${outcomeBadge(s)}
      ${s.reason ? html`<span class="reason">${describeReason(s.reason)} <span class="muted">(${s.reason})</span></span>` : ''}
      ${sealBadge(run.seal, run.problem)}
    </p>
    ${s.reason_detail ? html`<p class="reason-detail">${s.reason_detail}</p>` : ''} ${flakyNote(s)}
    <dl class="facts">
      ${fact('run', html`<code>${s.run_id}</code>${listed.source.label ? html` <span class="muted">in ${listed.source.label}</span>` : ''}`)}
      ${fact('started', when(s.created_at))}
      ${fact('wall time', `${duration(f.wallMs)}${s.status === 'running' ? ' so far' : ''} (model ${duration(f.modelMs)})`)}
      ${fact('iterations', `${f.iterations}${s.iterations.length > f.iterations ? ' (one in progress)' : ''}`)}
      ${fact('tokens', tokens)}
      ${fact('model', html`<code>${s.model.name}</code> <span class="muted">${s.model.provider} at ${displayUrl(s.model.url)}</span>`)}
      ${fact('base', html`<code>${s.repo.base_ref}</code> <span class="muted">${s.repo.base_commit.slice(0, 12)}</span>`)}
      ${fact('image', image)} ${s.environment ? fact('environment', s.environment.line) : ''} ${fact('branch', branch)}
      ${s.resumed ? fact('resumed', `${s.resumed} time${s.resumed === 1 ? '' : 's'}`) : ''}
    </dl>
    <details class="directive-text">
      <summary>the directive</summary>
      <pre class="text">${s.directive.text}</pre>
    </details>`;
  const parts: Html[] = [
    section('run-head', head),
    section(
      'run-timeline',
      html`<h2>timeline</h2>
        ${renderTimeline(s)}`,
    ),
  ];
  if (s.baseline)
    parts.push(
      section(
        'run-baseline',
        html`<h2>baseline</h2>
          ${renderTestResult(s.baseline, s.baseline.artifact ? href(s.baseline.artifact) : null, 'tests before any change')}`,
      ),
    );
  if (s.errors.length > 0)
    parts.push(
      section(
        'run-errors',
        html`<h2>errors</h2>
          <ul class="errors">
            ${s.errors.map(
              (e) =>
                html`<li>
                  ${when(e.at)}
                  <code>${e.code}</code
                  >${e.phase ? html` in ${e.phase}` : ''}${e.iteration ? html` (iteration ${e.iteration})` : ''}:
                  ${e.message}
                </li>`,
            )}
          </ul>`,
      ),
    );
  parts.push(
    section(
      'run-iterations',
      html`<h2 class="iterations-title">iterations <span class="muted">${s.iterations.length}</span></h2>`,
    ),
  );
  for (const it of s.iterations) parts.push(texts.iterationSection(it));
  const summary = texts.summary;
  parts.push(
    section(
      'run-summary',
      html`<h2>PR_SUMMARY.md</h2>
        ${
          summary
            ? html`<article class="markdown">${renderMarkdown(summary.text)}</article>
                ${summary.truncated ? html`<p class="muted">cut at ${summary.text.length} characters</p>` : ''}`
            : html`<p class="muted">not written yet</p>`
        }`,
    ),
  );
  parts.push(
    section(
      'run-files',
      html`<h2>files</h2>
        <ul class="files-list">
          ${texts.eventsLog ? html`<li><a href="${href(artifactNames.events())}">the run's log (events.ndjson)</a></li>` : ''}${
            summary ? html`<li><a href="${href(artifactNames.prSummary())}">PR_SUMMARY.md as text</a></li>` : ''
          }
          <li><span class="muted">state file</span> <code>${run.file}</code></li>
        </ul>`,
    ),
  );
  return parts;
}

/** An iteration's section on the run page (id iter-<n>). */
export function iterationSection(it: Iteration, texts: IterationTexts, href: (name: string) => string): Section {
  return section(`iter-${it.n}`, renderIteration(it, texts, href), iterationClass(it));
}

/** The page for a state file that could not be parsed: only why. */
export function renderUnreadableMain(listed: ListedRun): Html {
  return html`<h1>${listed.ref.runId}</h1>
    <p>${sealBadge(listed.run.seal, listed.run.problem)}</p>
    <p class="refusal">${listed.run.problem ?? 'unreadable'}</p>`;
}
