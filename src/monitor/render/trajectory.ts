// Agent mode on a page: an iteration's trajectory of tool calls, one row per step (the action, what
// it observed, its exit code and timing, the tokens of the turn that made it). The one place that
// knows how a trajectory is recorded (the state's `trajectory`, already checked by its schema).
import type { Iteration } from '../../state/run-state.js';
import { html, type Html } from '../html.js';
import { badge, duration } from './common.js';

/** One step as the page shows it. */
export interface TrajectoryStep {
  n: number;
  tool: string;
  action: string;
  observation: string;
  exitCode: number | null;
  durationMs: number | null;
  /** Why the host refused the call (a gate said no: nothing was written). */
  refusal: string | null;
  /** The tokens of the model turn that made the call. */
  tokens: { in: number | null; out: number | null };
}

/** An iteration's trajectory: its steps, its artifact, how it ended. */
export interface TrajectoryView {
  steps: TrajectoryStep[];
  artifact: string | null;
  end: string | null;
}

/** The iteration's trajectory, or null when it has none (a diff-mode iteration). */
export function trajectoryOf(it: Iteration): TrajectoryView | null {
  const t = it.trajectory;
  if (t === undefined) return null;
  const turns = new Map(t.turns.map((turn) => [turn.k, turn]));
  const steps = t.steps.map((s) => {
    const turn = turns.get(s.turn);
    const refused = s.outcome === 'refused';
    return {
      n: s.k,
      tool: s.tool,
      action: s.action,
      observation: refused ? '' : s.observation,
      exitCode: s.exit_code ?? (s.timed_out === true ? 124 : null),
      durationMs: s.duration_ms,
      refusal: refused ? s.observation : null,
      tokens: { in: turn?.prompt_tokens ?? null, out: turn?.completion_tokens ?? null },
    };
  });
  return {
    steps,
    artifact: t.artifact,
    end: t.end === null ? null : t.end.detail === '' ? t.end.reason : `${t.end.reason}: ${t.end.detail}`,
  };
}

/** The artifacts a trajectory names (read only those). */
export function trajectoryArtifacts(it: Iteration): string[] {
  const a = trajectoryOf(it)?.artifact;
  return a ? [a] : [];
}

/** Observations longer than this many lines start folded. */
const FOLD_LINES = 12;

/** A trajectory as a list of steps. */
export function renderTrajectory(t: TrajectoryView, artifactHref: (name: string) => string): Html {
  const rows = t.steps.map((s) => {
    const lines = s.observation.split('\n').length;
    const obs =
      s.observation === ''
        ? ''
        : lines > FOLD_LINES
          ? html`<details>
              <summary>observation (${lines} lines)</summary>
              <pre class="text">${s.observation}</pre>
            </details>`
          : html`<pre class="text">${s.observation}</pre>`;
    const exit =
      s.refusal !== null
        ? badge('refused')
        : s.exitCode === null
          ? ''
          : badge(s.exitCode === 0 ? 'passed' : 'failed', `exit ${s.exitCode}`);
    return html`<li class="step" id="step-${s.n}">
      <div class="step-head">
        <span class="step-n">${s.n}</span> <code class="tool">${s.tool || 'call'}</code> ${exit}
        <span class="muted"
          >${duration(s.durationMs)}${
            s.tokens.in === null && s.tokens.out === null
              ? ''
              : ` · turn tokens ${s.tokens.in ?? '?'} in, ${s.tokens.out ?? '?'} out`
          }</span
        >
      </div>
      ${s.action === '' ? '' : html`<pre class="action">${s.action}</pre>`}
      ${s.refusal ? html`<div class="refusal"><span class="keep-lines">${s.refusal}</span></div>` : ''}${obs}
    </li>`;
  });
  return html`<div class="trajectory">
    <h4>
      trajectory: ${t.steps.length}
      step${t.steps.length === 1 ? '' : 's'}${
        t.end ? html` <span class="muted">(ended: ${t.end})</span>` : ''
      }${t.artifact ? html` <a href="${artifactHref(t.artifact)}">recorded trajectory</a>` : ''}
    </h4>
    <ol class="steps">
      ${rows}
    </ol>
  </div>`;
}
