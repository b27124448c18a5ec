// Agent mode on a page: an iteration's trajectory of tool calls, one row per step (the action, what
// it observed, its exit code and timing). The one place that knows how a trajectory is recorded:
// it reads the iteration's `trajectory` leniently (a list of steps, or {steps, artifact, end}) so
// the page shows what there is while the recorded shape settles; fit it here when it does.
import { z } from 'zod';
import type { Iteration } from '../../state/run-state.js';
import { ArtifactNameSchema } from '../../state/run-state.js';
import { html, type Html } from '../html.js';
import { badge, duration } from './common.js';

const text = z.string();
const StepSchema = z.looseObject({
  n: z.number().int().optional(),
  tool: text.optional(),
  name: text.optional(),
  action: z.unknown().optional(),
  command: text.optional(),
  arguments: z.unknown().optional(),
  observation: text.optional(),
  output: text.optional(),
  exit_code: z.number().int().nullable().optional(),
  duration_ms: z.number().min(0).optional(),
  refusal: text.optional(),
  error: text.optional(),
  prompt_tokens: z.number().int().min(0).optional(),
  completion_tokens: z.number().int().min(0).optional(),
});

const TrajectorySchema = z.union([
  z.array(StepSchema),
  z.looseObject({
    steps: z.array(StepSchema),
    artifact: ArtifactNameSchema.optional(),
    end: text.optional(),
    reason: text.optional(),
  }),
]);

/** One step as the page shows it. */
export interface TrajectoryStep {
  n: number;
  tool: string;
  action: string;
  observation: string;
  exitCode: number | null;
  durationMs: number | null;
  /** Why the host refused or could not run the call. */
  refusal: string | null;
  tokens: { in: number | null; out: number | null };
}

/** An iteration's trajectory: its steps, its artifact, how it ended. */
export interface TrajectoryView {
  steps: TrajectoryStep[];
  artifact: string | null;
  end: string | null;
}

/** An action as text: a shell command as it is, an editor call as its command and path, then its fields. */
function actionText(action: unknown): string {
  if (action === undefined || action === null) return '';
  if (typeof action === 'string') return action;
  if (typeof action !== 'object') return JSON.stringify(action);
  const { tool, command, path, ...rest } = action as Record<string, unknown>;
  if (tool === 'bash' && typeof command === 'string') return command;
  const head = [command, path].filter((x): x is string => typeof x === 'string').join(' ');
  const fields = Object.keys(rest).length > 0 ? JSON.stringify(rest, null, 2) : '';
  return [head, fields].filter((x) => x !== '').join('\n');
}

/** The tool a step called: named on the step, or on its action (agent mode's {tool, ...} actions). */
function toolOf(step: { tool?: string | undefined; name?: string | undefined; action?: unknown }): string {
  if (step.tool ?? step.name) return (step.tool ?? step.name)!;
  const a = step.action;
  return typeof a === 'object' && a !== null && typeof (a as Record<string, unknown>)['tool'] === 'string'
    ? ((a as Record<string, unknown>)['tool'] as string)
    : '';
}

/** The iteration's trajectory, or null when it has none (a diff-mode iteration) or it cannot be read. */
export function trajectoryOf(it: Iteration): TrajectoryView | null {
  const raw = (it as unknown as Record<string, unknown>)['trajectory'];
  if (raw === undefined || raw === null) return null;
  const parsed = TrajectorySchema.safeParse(raw);
  if (!parsed.success) return null;
  const t = parsed.data;
  const list = Array.isArray(t) ? t : t.steps;
  const steps = list.map((s, i) => ({
    n: s.n ?? i + 1,
    tool: toolOf(s),
    action: actionText(s.action ?? s.command ?? s.arguments),
    observation: s.observation ?? s.output ?? '',
    exitCode: s.exit_code ?? null,
    durationMs: s.duration_ms ?? null,
    refusal: s.refusal ?? s.error ?? null,
    tokens: { in: s.prompt_tokens ?? null, out: s.completion_tokens ?? null },
  }));
  return {
    steps,
    artifact: Array.isArray(t) ? null : (t.artifact ?? null),
    end: Array.isArray(t) ? null : (t.end ?? t.reason ?? null),
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
        <span class="muted">${duration(s.durationMs)}</span>
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
