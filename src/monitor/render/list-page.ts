// The runs list: every run newest first with its status, reason, iterations, branch, model, tokens,
// wall time and start, a filter by status, and the state files that are not trusted, apart.
import { describeReason } from '../../loop/stop-conditions.js';
import { RUN_STATUSES, type RunStatus } from '../../state/run-state.js';
import { runVerdict } from '../../verdict/index.js';
import { html, type Html } from '../html.js';
import type { Links } from '../links.js';
import type { ListedRun } from '../reader.js';
import { directiveLine, displayUrl, runFigures } from '../run-view.js';
import { count, duration, outcomeBadge, sealBadge, when } from './common.js';

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
        <a class="run-link" href="${links.run(r.ref)}">${s.run_id}</a>
        <div class="directive">${directiveLine(s)}</div>
      </td>
      ${multi ? html`<td class="source">${r.source.label}</td>` : ''}
      <td>${s.reason ? html`<span title="${describeReason(s.reason)}">${s.reason}</span>` : ''}</td>
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
