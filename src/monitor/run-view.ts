// What the pages show about a run, computed from its state alone (pure): totals, the timeline of
// phases and iterations, and the few values that need care before they are shown.
import { finishedIterations } from '../loop/stop-conditions.js';
import { RUN_PHASES, type Iteration, type PhaseRecord, type RunState } from '../state/run-state.js';

/** A run's figures for the list and the run page. */
export interface RunFigures {
  /** Finished iterations. */
  iterations: number;
  /** Tokens the server counted, over every answer that reported them (null: none did). */
  tokensIn: number | null;
  tokensOut: number | null;
  /** From the run's start to its last state write. */
  wallMs: number;
  /** Time spent waiting for the model's answers. */
  modelMs: number;
}

/** Totals of a run from its state. */
export function runFigures(state: RunState): RunFigures {
  let tokensIn: number | null = null;
  let tokensOut: number | null = null;
  let modelMs = 0;
  for (const it of state.iterations) {
    const a = it.answer;
    if (a === null) continue;
    modelMs += a.duration_ms;
    if (a.prompt_tokens !== undefined) tokensIn = (tokensIn ?? 0) + a.prompt_tokens;
    if (a.completion_tokens !== undefined) tokensOut = (tokensOut ?? 0) + a.completion_tokens;
  }
  return {
    iterations: finishedIterations(state).length,
    tokensIn,
    tokensOut,
    wallMs: Math.max(0, Date.parse(state.updated_at) - Date.parse(state.created_at)),
    modelMs,
  };
}

/** One bar of the timeline: a run phase or an iteration, placed from the run's start. */
export interface TimelineSegment {
  kind: 'phase' | 'iteration';
  label: string;
  startMs: number;
  durationMs: number;
  /** A phase's status (done, failed, skipped), an iteration's outcome, or "running". */
  status: string;
  /** The iteration's number (iterations only). */
  n: number | null;
}

const ms = (at: string): number => Date.parse(at);

/** Where an iteration ends: its last phase's end (its start while no phase has ended). */
export function iterationEndMs(it: Iteration): number {
  let end = ms(it.started_at);
  for (const p of Object.values<PhaseRecord>(it.phases)) end = Math.max(end, ms(p.started_at) + p.duration_ms);
  return end;
}

/** The run's phases and iterations on one time axis, in start order, and the axis' length. */
export function timeline(state: RunState): { segments: TimelineSegment[]; totalMs: number } {
  const t0 = ms(state.created_at);
  const segments: TimelineSegment[] = [];
  for (const phase of RUN_PHASES) {
    const p = state.phases[phase];
    if (p === undefined) continue;
    segments.push({
      kind: 'phase',
      label: phase,
      startMs: Math.max(0, ms(p.started_at) - t0),
      durationMs: p.duration_ms,
      status: p.status,
      n: null,
    });
  }
  for (const it of state.iterations) {
    const start = ms(it.started_at);
    segments.push({
      kind: 'iteration',
      label: `iteration ${it.n}`,
      startMs: Math.max(0, start - t0),
      durationMs: Math.max(0, iterationEndMs(it) - start),
      status: it.outcome ?? 'running',
      n: it.n,
    });
  }
  segments.sort((a, b) => a.startMs - b.startMs);
  const end = Math.max(ms(state.updated_at) - t0, ...segments.map((s) => s.startMs + s.durationMs), 0);
  return { segments, totalMs: end };
}

/** A URL without its user and password (a model URL may carry credentials). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username === '' && u.password === '') return url;
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//');
  }
}

/** The directive's first non-empty line. */
export function directiveLine(state: RunState): string {
  return state.directive.text.split('\n').find((l) => l.trim() !== '') ?? '';
}

/** Every artifact a state names, so only those are ever read for it. */
export function artifactsOf(state: RunState): Set<string> {
  const names = new Set<string>();
  const add = (n: string | null | undefined): void => {
    if (n) names.add(n);
  };
  add(state.baseline?.artifact);
  for (const it of state.iterations) {
    add(it.prompt?.artifact);
    add(it.answer?.artifact);
    add(it.patch?.artifact);
    add(it.patch?.applied_artifact);
    add(it.test?.artifact);
    for (const ask of it.asks ?? []) {
      add(ask.answer_artifact);
      add(ask.reply_artifact);
      add(ask.tool_calls_artifact);
    }
  }
  return names;
}
