// Pure updates of a run state: the orchestrator records each phase through these and writes the
// result with RunStore.write. Each returns a new state; nothing is mutated.
import { createHash } from 'node:crypto';
import { HammerError } from '../errors.js';
import {
  RUN_STATE_SCHEMA_VERSION,
  type ExitReason,
  type Iteration,
  type IterationPhase,
  type PhaseRecord,
  type RunError,
  type RunPhase,
  type RunState,
  type RunStatus,
} from './run-state.js';

/** What a new run's state is made from. */
export interface NewRunInput {
  runId: string;
  now: Date;
  repo: RunState['repo'];
  directive: { path: string; text: string; kind?: 'plan' };
  config: Record<string, unknown>;
  model: RunState['model'];
  image: RunState['image'];
  artifactsDir: string;
}

/** The state of a run that has just started: status running, no baseline, no iterations. */
export function newRunState(input: NewRunInput): RunState {
  const at = input.now.toISOString();
  return {
    schema_version: RUN_STATE_SCHEMA_VERSION,
    run_id: input.runId,
    created_at: at,
    updated_at: at,
    status: 'running',
    reason: null,
    reason_detail: null,
    repo: input.repo,
    directive: { ...input.directive, sha256: createHash('sha256').update(input.directive.text, 'utf8').digest('hex') },
    config: input.config,
    model: input.model,
    image: input.image,
    sandbox: null,
    branch: null,
    phases: {},
    baseline: null,
    iterations: [],
    artifacts_dir: input.artifactsDir,
    errors: [],
  };
}

/** Append iteration n (the next one), empty but for its start time. */
export function startIteration(state: RunState, now: Date): RunState {
  const n = (state.iterations.at(-1)?.n ?? 0) + 1;
  const it: Iteration = {
    n,
    started_at: now.toISOString(),
    phases: {},
    prompt: null,
    answer: null,
    extraction: null,
    patch: null,
    validation: null,
    apply: null,
    test: null,
    outcome: null,
    summary: '',
  };
  return { ...state, updated_at: now.toISOString(), iterations: [...state.iterations, it] };
}

/** Change fields of iteration n. */
export function updateIteration(
  state: RunState,
  n: number,
  change: Partial<Omit<Iteration, 'n'>>,
  now: Date,
): RunState {
  if (!state.iterations.some((it) => it.n === n))
    throw new HammerError('INTERNAL', `no iteration ${n} in run ${state.run_id}`);
  return {
    ...state,
    updated_at: now.toISOString(),
    iterations: state.iterations.map((it) => (it.n === n ? { ...it, ...change } : it)),
  };
}

/** Record an iteration phase's outcome. */
export function recordIterationPhase(
  state: RunState,
  n: number,
  phase: IterationPhase,
  record: PhaseRecord,
  now: Date,
): RunState {
  const it = state.iterations.find((i) => i.n === n);
  if (it === undefined) throw new HammerError('INTERNAL', `no iteration ${n} in run ${state.run_id}`);
  return updateIteration(state, n, { phases: { ...it.phases, [phase]: record } }, now);
}

/** Record a run-level phase's outcome (prepare, baseline, report, deliver). */
export function recordRunPhase(state: RunState, phase: RunPhase, record: PhaseRecord, now: Date): RunState {
  return { ...state, updated_at: now.toISOString(), phases: { ...state.phases, [phase]: record } };
}

/** Record an unrecoverable error (the run goes on to stop with status error). */
export function recordError(state: RunState, error: Omit<RunError, 'at'>, now: Date): RunState {
  return { ...state, updated_at: now.toISOString(), errors: [...state.errors, { at: now.toISOString(), ...error }] };
}

/** End the run with its status and reason. */
export function finishRun(
  state: RunState,
  end: { status: Exclude<RunStatus, 'running'>; reason: ExitReason; detail: string | null },
  now: Date,
): RunState {
  return { ...state, updated_at: now.toISOString(), status: end.status, reason: end.reason, reason_detail: end.detail };
}
