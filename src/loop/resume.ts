// `hammer-box resume <run_id>`: continue a run that was interrupted, killed or broke, from its state file.
import { hostname } from 'node:os';
import { HammerError } from '../errors.js';
import type { UserRepo } from '../git/index.js';
import { pidAlive } from '../sandbox/gc.js';
import type { Config } from '../config/schema.js';
import type { RunState } from '../state/run-state.js';
import { summarizePatch } from '../patch/patch-summary.js';
import { iterationExplanation } from '../edits/iteration-explanation.js';
import { iterationCommitMessage } from './commit-text.js';
import { iterationDate } from './iteration-date.js';
import { resumeRefusal } from './resumable.js';
import { drive } from './run.js';
import { resolveRuntime } from './runtime.js';
import type { RunDeps, RunOutcome, RunRequest } from './run-types.js';

export { resumeRefusal };

/** The state to continue from: an unfinished last iteration is dropped (its phases run again; its answer, if recorded, is reused). */
export function resumableState(state: RunState, now: Date): RunState {
  const iterations = state.iterations.filter((it) => it.outcome !== null);
  return {
    ...state,
    status: 'running',
    reason: null,
    reason_detail: null,
    sandbox: null,
    iterations,
    owner: { pid: process.pid, host: hostname() },
    resumed: (state.resumed ?? 0) + 1,
    updated_at: now.toISOString(),
  };
}

/** The model settings `resume` may change: server, model and provider (the highest config layer). */
export type ModelOverrides = Partial<Pick<Config['model'], 'provider' | 'name' | 'url'>>;

/** The overrides that were given (an empty object when none). */
export function givenOverrides(overrides: ModelOverrides): ModelOverrides {
  return Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined && v !== ''));
}

/**
 * The state with a resume's model overrides appended to `model_overrides` (pure; unchanged when
 * none were given), so the run shows which model made which answer.
 */
export function recordModelOverrides(state: RunState, overrides: ModelOverrides, now: Date): RunState {
  const given = givenOverrides(overrides);
  if (Object.keys(given).length === 0) return state;
  return { ...state, model_overrides: [...(state.model_overrides ?? []), { at: now.toISOString(), ...given }] };
}

/** Refuse, with the reason, a run that cannot be resumed (ended, delivered, or still alive). */
export function assertResumable(old: RunState): void {
  const refusal = resumeRefusal(old, pidAlive, hostname());
  if (refusal)
    throw new HammerError('USAGE', `cannot resume: ${refusal}`, { hint: "see 'hammer-box runs show <run_id>'" });
}

/**
 * Drive a run read from the store (already checked with assertResumable) from its first phase not
 * done, in `req`'s repository and with `req`'s configuration (the current user's: the state is a
 * record, never a source of trust); the model `overrides` already in that configuration are recorded.
 */
export async function resumeLoop(
  old: RunState,
  req: RunRequest & { userRepo: UserRepo },
  deps: RunDeps,
  overrides: ModelOverrides = {},
): Promise<RunOutcome> {
  const runId = old.run_id;
  const { userRepo, config } = req;
  // whatever the dead process left on the engine goes first
  await deps.engine.gc({ runIds: [runId], ...(deps.signal ? { signal: deps.signal } : {}) });
  const [image, runtime] = await Promise.all([
    deps.resolveImage(deps.signal),
    resolveRuntime(config.sandbox.runtime, deps.engine, deps.signal),
  ]);
  const used = { ...config, sandbox: { ...config.sandbox, runtime } };
  const state: RunState = {
    ...recordModelOverrides(resumableState(old, deps.now()), overrides, deps.now()),
    repo: { ...old.repo, path: userRepo.root },
    config: used,
    model: { provider: used.model.provider, name: used.model.name, url: used.model.url },
    artifacts_dir: deps.store.artifactsDir(runId),
    // a branch name recorded under another prefix is not adopted: the current prefix decides
    delivering: old.delivering?.name.startsWith(used.git.branch_prefix) ? old.delivering : null,
  };
  const applied = [];
  for (const it of state.iterations) {
    if (it.outcome !== 'applied' || !it.patch || !it.apply) continue;
    const explanation = await iterationExplanation(it, (name) => deps.store.readArtifact(runId, name));
    applied.push({
      patch: await deps.store.readArtifact(runId, it.patch.artifact),
      iteration: it.n,
      summary: summarizePatch(it.patch.files),
      message: iterationCommitMessage(old, it.n, it.patch.files, explanation),
      tree: it.apply.tree,
      date: iterationDate(old, it.n),
    });
  }
  // an iteration cut short after its answer arrived continues from that answer, without a new model call
  const cut = old.iterations.find((it) => it.outcome === null && it.answer !== null);
  const pendingAnswer = cut?.answer
    ? {
        text: await deps.store.readArtifact(runId, cut.answer.artifact),
        model: cut.answer.model,
        ...(cut.answer.finish_reason === undefined ? {} : { finishReason: cut.answer.finish_reason }),
      }
    : undefined;
  // an agent iteration cut short replays its recorded turns first (their calls run again to rebuild
  // the work tree), then asks the model for the next one
  const cutAgent = old.iterations.find((it) => it.outcome === null && (it.trajectory?.turns.length ?? 0) > 0);
  const pendingTurns = cutAgent ? await deps.store.readTurnAnswers(runId, cutAgent) : undefined;
  await deps.store.write(state);
  return drive(
    state,
    { ...req, config: used },
    deps,
    { ...userRepo, base: old.repo.base_ref },
    image,
    applied,
    pendingAnswer,
    pendingTurns,
  );
}
