// One iteration on the run page: what the prompt showed and why, the model's requests and answer,
// the candidate diff (the rung that applied it, or why it was refused), the test result, and the
// agent's trajectory when there is one.
import { cutOffLine } from '../../report/cut-off-line.js';
import type { ArtifactHead } from '../../state/run-inspect.js';
import { ITERATION_PHASES, type Iteration } from '../../state/run-state.js';
import { html, type Html } from '../html.js';
import { iterationEndMs } from '../run-view.js';
import { badge, bytes, count, duration } from './common.js';
import { renderDiff } from './diff.js';
import { renderTestResult } from './test-result.js';
import { renderTrajectory, trajectoryOf } from './trajectory.js';

/** What an iteration's section shows besides its record: the answer's and the patch's text. */
export interface IterationTexts {
  answer: ArtifactHead | null;
  /** The patch shown: the one git applied when the rung rewrote it, else the candidate. */
  patch: ArtifactHead | null;
}

/** Links to an iteration's artifacts. */
export type ArtifactHref = (name: string) => string;

function more(head: ArtifactHead, name: string, href: ArtifactHref): Html {
  if (!head.truncated) return html``;
  return html`<p class="muted">
    the first ${bytes(Buffer.byteLength(head.text))} of ${bytes(head.size)}: <a href="${href(name)}">all of it</a>
  </p>`;
}

function phasesLine(it: Iteration): Html {
  const parts = ITERATION_PHASES.flatMap((p) => {
    const r = it.phases[p];
    if (r === undefined) return [];
    const state = r.status === 'done' ? '' : ` ${r.status}`;
    return [
      html`<span class="phase ph-${r.status}">${p.replace('_', ' ')}${state} <b>${duration(r.duration_ms)}</b></span>`,
    ];
  });
  return html`<div class="phases">${parts}</div>`;
}

function promptPart(it: Iteration, href: ArtifactHref): Html {
  const p = it.prompt;
  if (p === null) return html``;
  const c = it.context;
  const shared =
    p.shared_prefix_chars === undefined ? '' : `, ${count(p.shared_prefix_chars)} shared with the previous prompt`;
  const items = c?.items ?? [];
  return html`<details class="prompt">
    <summary>
      prompt: ${count(p.chars)}
      characters${shared}${
        c
          ? `; showed ${items.length} file${items.length === 1 ? '' : 's'}${c.whole_repository ? ' (the whole repository)' : ''}`
          : ''
      }
    </summary>
    ${
      items.length > 0
        ? html`<table class="shown">
            <thead>
              <tr>
                <th>file</th>
                <th>why</th>
                <th>how</th>
                <th>chars</th>
              </tr>
            </thead>
            <tbody>
              ${items.map(
                (i) =>
                  html`<tr>
                    <td><code>${i.path}</code></td>
                    <td>${i.reason}${i.detail ? html` <span class="muted">${i.detail}</span>` : ''}</td>
                    <td>${i.shown}${i.lines ? html` <span class="muted">${i.lines}</span>` : ''}</td>
                    <td class="num">${count(i.chars)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
        : ''
    }
    <a href="${href(p.artifact)}">the prompt as sent</a>
  </details>`;
}

function asksPart(it: Iteration, href: ArtifactHref): Html {
  const asks = it.asks ?? [];
  if (asks.length === 0) return html``;
  return html`<div class="asks">
    <h4>asked to see more (${asks.length})</h4>
    <ol>
      ${asks.map(
        (a) =>
          html`<li>
            ${a.tool_calls_artifact ? html`<span class="muted">tool calls:</span> ` : ''}${a.items.map(
              (i) =>
                html`<span class="ask"
                  ><code>${i.kind}</code> <code>${i.target}</code> ${badge(i.outcome)}${
                    i.lines ? html` <span class="muted">lines ${i.lines}</span>` : ''
                  }${i.hits === undefined ? '' : html` <span class="muted">${i.hits} hits</span>`}</span
                > `,
            )} <span class="muted">answered with ${count(a.chars)} characters</span>
            <a href="${href(a.answer_artifact)}">request</a> ·
            <a href="${href(a.reply_artifact)}">reply</a
            >${a.tool_calls_artifact ? html` · <a href="${href(a.tool_calls_artifact)}">tool calls</a>` : ''}
          </li>`,
      )}
    </ol>
  </div>`;
}

function answerPart(it: Iteration, texts: IterationTexts, href: ArtifactHref): Html {
  const a = it.answer;
  if (a === null) return html``;
  const tokens =
    a.prompt_tokens === undefined && a.completion_tokens === undefined
      ? ''
      : `, ${count(a.prompt_tokens ?? 0)} tokens in, ${count(a.completion_tokens ?? 0)} out`;
  const first = a.first_token_ms === null ? '' : `, first token after ${duration(a.first_token_ms)}`;
  const finish = a.finish_reason ? `, finish: ${a.finish_reason}` : '';
  return html`<details class="answer">
    <summary>answer from <code>${a.model}</code> in ${duration(a.duration_ms)}${first}${tokens}${finish}</summary>
    ${
      texts.answer
        ? html`<pre class="text">${texts.answer.text}</pre>
            ${more(texts.answer, a.artifact, href)}`
        : html`<p class="muted">not on disk</p>`
    }
    <a href="${href(a.artifact)}">the answer as received</a>
  </details>`;
}

function extractionLine(it: Iteration): Html {
  const e = it.extraction;
  if (e === null) return html``;
  const bits: Html[] = [];
  if (e.kind === 'diff')
    bits.push(html`a diff of ${e.lines ?? '?'} lines in ${e.files ?? '?'} file${e.files === 1 ? '' : 's'}`);
  else if (e.kind === 'no_changes') bits.push(html`the model answered that no change is needed`);
  else bits.push(html`no usable edit${e.reason ? html`: ${e.reason}` : ''}`);
  if (e.fixes && e.fixes.length > 0) bits.push(html`; repaired: ${e.fixes.join(', ')}`);
  if (e.cut_off) bits.push(html`; ${cutOffLine(e.cut_off, it.answer?.completion_tokens)}`);
  return html`<p class="extraction"><span class="what">extracted</span> ${bits}</p>`;
}

function candidatePart(it: Iteration, texts: IterationTexts, href: ArtifactHref): Html {
  const p = it.patch;
  const v = it.validation;
  const gate = it.syntax_gate?.skipped ?? [];
  const notes: Html[] = [];
  if (p?.rung)
    notes.push(
      html`<p>
        applied at rung
        ${badge(p.rung)}${p.applied_artifact ? html` (git applied <a href="${href(p.applied_artifact)}">this rewrite</a> of <a href="${href(p.artifact)}">the candidate</a>)` : ''}
      </p>`,
    );
  if (v && !v.ok)
    notes.push(
      html`<div class="refusal">
        <b>refused:</b> <span class="git keep-lines">${v.message ?? 'git apply --check failed'}</span>
      </div>`,
    );
  if (it.outcome === 'duplicate') notes.push(html`<div class="refusal">the same patch as an earlier iteration</div>`);
  for (const s of gate)
    notes.push(
      html`<div class="refusal">
        left out at rung ${s.rung}: it adds a syntax error in <code>${s.path}</code> line ${s.line}:
        <span class="keep-lines">${s.message}</span>
      </div>`,
    );
  for (const r of it.review ?? []) notes.push(html`<div class="review">needs review: ${r}</div>`);
  if (p === null && notes.length === 0) return html``;
  const files = p
    ? html`<ul class="files">
        ${p.files.map(
          (f) => html`<li>${badge(f.status)} <code>${f.from ? `${f.from} → ${f.path}` : f.path}</code></li>`,
        )}
      </ul>`
    : '';
  const diff = texts.patch
    ? html`${renderDiff(texts.patch.text)}${more(texts.patch, p?.applied_artifact ?? p?.artifact ?? '', href)}`
    : '';
  const stat = p ? `+${p.added ?? '?'} −${p.removed ?? '?'}, ${p.lines} lines` : '';
  return html`<details class="candidate" open>
    <summary>candidate diff ${stat ? html`<span class="muted">${stat}</span>` : ''}</summary>
    ${notes}${files}${diff}
  </details>`;
}

/** The classes of an iteration's section: its outcome's colour. */
export function iterationClass(it: Iteration): string {
  return `iteration o-${it.outcome ?? 'running'}`;
}

/** What an iteration's section holds (the run page wraps it in the section, id iter-<n>). */
export function renderIteration(it: Iteration, texts: IterationTexts, href: ArtifactHref): Html {
  const outcome = it.outcome ?? 'running';
  const took = Math.max(0, iterationEndMs(it) - Date.parse(it.started_at));
  const tokens =
    it.answer?.prompt_tokens === undefined && it.answer?.completion_tokens === undefined
      ? ''
      : `${count(it.answer.prompt_tokens ?? 0)} / ${count(it.answer.completion_tokens ?? 0)} tokens`;
  const trajectory = trajectoryOf(it);
  return html`<h3>
      <a class="anchor" href="#iter-${it.n}">iteration ${it.n}</a> ${badge(outcome)}
      <span class="summary">${it.summary}</span>
      <span class="muted right">${duration(took)}${tokens ? ` · ${tokens}` : ''}</span>
    </h3>
    ${phasesLine(it)} ${promptPart(it, href)} ${asksPart(it, href)}
    ${trajectory ? renderTrajectory(trajectory, href) : ''} ${answerPart(it, texts, href)} ${extractionLine(it)}
    ${candidatePart(it, texts, href)}
    ${it.test ? renderTestResult(it.test, it.test.artifact ? href(it.test.artifact) : null) : ''}`;
}
