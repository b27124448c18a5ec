// What the runs list says about a run beyond its status (pure): whether it is a replay or a chat
// hand-off rather than a model run, and what a running run is doing now.
import { ITERATION_PHASES, type RunState } from '../state/run-state.js';

/** How a run came about: a model run, a replay of recorded answers, or work handed over from chat. */
export type RunOrigin =
  { kind: 'model' } | { kind: 'replay'; of: string | null } | { kind: 'chat'; conversation: string };

/** The run's origin, from its directive's label and its model. */
export function runOrigin(state: RunState): RunOrigin {
  const chat = /^chat (\S+)$/.exec(state.directive.path);
  if (chat) return { kind: 'chat', conversation: chat[1]! };
  if (state.model.provider === 'replay') {
    const model = state.config['model'];
    const of = typeof model === 'object' && model !== null ? (model as Record<string, unknown>)['replay_run'] : null;
    return { kind: 'replay', of: typeof of === 'string' && of !== '' ? of : null };
  }
  return { kind: 'model' };
}

/** What a running run is doing now ("baseline", "iteration 2: test", "after iteration 2"); null once it ended. */
export function currentPhase(state: RunState): string | null {
  if (state.status !== 'running') return null;
  for (const p of ['setup', 'prepare', 'baseline'] as const) if (state.phases[p] === undefined) return p;
  const last = state.iterations.at(-1);
  if (last === undefined) return 'iteration 1';
  if (last.outcome === null) {
    const next = ITERATION_PHASES.find((p) => last.phases[p] === undefined) ?? 'update_state';
    return `iteration ${last.n}: ${next.replace('_', ' ')}`;
  }
  if (state.phases.deliver === undefined) return `after iteration ${last.n}`;
  return state.phases.report === undefined ? 'report' : 'ending';
}
