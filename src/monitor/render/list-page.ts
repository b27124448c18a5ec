// The runs list: every run newest first with its status, reason, iterations, branch, model, tokens,
// wall time and start, a filter by status, and the state files that are not trusted, apart.
import { describeReason } from '../../loop/stop-conditions.js';
import { truncateText } from '../../text/sanitize.js';
import { RUN_STATUSES, type RunState, type RunStatus } from '../../state/run-state.js';
import { runVerdict } from '../../verdict/index.js';
import { html, type Html } from '../html.js';
import type { Links } from '../links.js';
import type { ListedRun } from '../reader.js';
import { currentPhase, runOrigin } from '../run-kind.js';
import { directiveLine, displayUrl, runFigures } from '../run-view.js';
import { count, duration, outcomeBadge, sealBadge, when } from './common.js';

/** A mark beside the run's id when no model answered live: a replay, or work handed over from chat. */
function originMark(s: RunState): Html | string {
  const origin = runOrigin(s);
  if (origin.kind === 'replay')
    return html` <span
      class="mark mark-replay"
      title="${origin.of ? `a replay of run ${origin.of}` : "the model's answers played back"}"
      >replay</span
    >`;
  if (origin.kind === 'chat')
    return html` <span class="mark mark-chat" title="${`handed over from conversation ${origin.conversation}`}"
      >from chat</span
    >`;
  return '';
}

/**
 * Why the run ended, in words (the reason's code in its title); for a run that stopped on an
 * error, the error's code, message and what to do; for a running one, the phase it is in.
 */
function reasonCell(s: RunState): Html | string {
  const phase = currentPhase(s);
  if (phase !== null) return html`<span class="phase">${phase}</span>`;
  const error = s.status === 'error' ? s.errors.at(-1) : undefined;
  if (error !== undefined)
    return html`<code class="error-code">${error.code}</code>
      <span class="error-message">${truncateText(error.message, 200)}</span>${
        error.hint === undefined ? '' : html`<div class="hint">what to do: ${truncateText(error.hint, 300)}</div>`
      }`;
  if (s.reason === null) return '';
  return html`<span title="${s.reason}">${describeReason(s.reason)}</span>`;
}

/** The list's main part for a status filter (null: every run). */
export function renderListMain(runs: ListedRun[], status: RunStatus | null, links: Links, sourceCount: number): Html {
  const trusted = runs.filter((r) => r.run.seal === 'verified' && r.run.state !== null);
  const untrusted = runs.filter((r) => !(r.run.seal === 'verified' && r.run.state !== null));
  // runs are listed and filtered by their outcome (an older file's `stable` may be partial)
  const outcome = (r: ListedRun): RunStatus => runVerdict(r.run.state!).outcome;
  const shown = status === null ? trusted : trusted.filter((r) => outcome(r) === status);
  const counts = new Map<RunStatus, number>();
  for (const r of trusted) counts.set(outcome(r), (counts.get(outcome(r)) ?? 0) + 1);
  const filter = html`<nav class="filter" aria-label="filter by status">
    <a href="${links.list()}" ${status === null ? html` aria-current="page"` : ''}>all <b>${trusted.length}</b></a
    >${RUN_STATUSES.map(
      (s) =>
        html` <a class="f-${s}" href="${links.list(s)}" ${status === s ? html` aria-current="page"` : ''}
          >${s} <b>${counts.get(s) ?? 0}</b></a
        >`,
    )}
  </nav>`;
  const multi = sourceCount > 1;
  const rows = shown.map((r) => {
    const s = r.run.state!;
    const f = runFigures(s);
    const tokens =
      f.tokensIn === null && f.tokensOut === null ? '' : `${count(f.tokensIn ?? 0)} / ${count(f.tokensOut ?? 0)}`;
    return html`<tr class="run st-${outcome(r)}" id="run-${r.ref.source}-${r.ref.runId}">
      <td>${outcomeBadge(s)}</td>
      <td>
        <a class="run-link" href="${links.run(r.ref)}">${s.run_id}</a>${originMark(s)}
        <div class="directive">${directiveLine(s)}</div>
      </td>
      ${multi ? html`<td class="source">${r.source.label}</td>` : ''}
      <td class="reason">${reasonCell(s)}</td>
      <td class="num">${f.iterations}</td>
      <td>${s.branch ? html`<code>${s.branch.name}</code>` : html`<span class="muted">none</span>`}</td>
      <td><span class="model" title="${`${s.model.provider} at ${displayUrl(s.model.url)}`}">${s.model.name}</span></td>
      <td class="num">${tokens}</td>
      <td class="num">${duration(f.wallMs)}</td>
      <td>${when(s.created_at)}</td>
    </tr>`;
  });
  const table =
    shown.length === 0
      ? html`<p class="empty">${trusted.length === 0 ? 'no runs yet' : `no ${status ?? ''} runs`}</p>`
      : html`<table class="runs">
          <thead>
            <tr>
              <th>status</th>
              <th>run</th>
              ${multi ? html`<th>where</th>` : ''}
              <th>reason</th>
              <th>iterations</th>
              <th>branch</th>
              <th>model</th>
              <th>tokens in / out</th>
              <th>wall time</th>
              <th>started</th>
            </tr>
          </thead>
          <tbody>
            ${rows}
          </tbody>
        </table>`;
  const bad =
    untrusted.length === 0
      ? ''
      : html`<section class="untrusted" id="untrusted">
          <h2>state files not trusted (${untrusted.length})</h2>
          <p class="muted">
            hammer-box did not write these for you (or they were changed since): they are not listed above, and what
            they say may be forged.
          </p>
          <ul>
            ${untrusted.map(
              (r) =>
                html`<li>
                  ${sealBadge(r.run.seal, r.run.problem)}
                  ${
                    r.run.state
                      ? html`<a href="${links.run(r.ref)}">${r.ref.runId}</a>`
                      : html`<code>${r.ref.runId}</code>`
                  } <span class="muted">${r.run.problem ?? ''}</span>
                </li>`,
            )}
          </ul>
        </section>`;
  return html`<h1>runs</h1>
    ${filter}${table}${bad}`;
}
