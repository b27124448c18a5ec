// `hammer-box resume <run_id>`: continue a run that was interrupted, killed or broke, from its state file.
import { hostname } from 'node:os';
import { type Config, ConfigSchema } from '../config/schema.js';
import { HammerError } from '../errors.js';
import { resolveUserRepo } from '../git/index.js';
import { pidAlive } from '../sandbox/gc.js';
import type { RunState } from '../state/run-state.js';
import { summarizePatch } from '../patch/patch-summary.js';
import { iterationDate } from './iteration.js';
import { resumeRefusal } from './resumable.js';
import { drive } from './run.js';
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

/** Refuse, with the reason, a run that cannot be resumed (ended, delivered, or still alive). */
export function assertResumable(old: RunState): void {
  const refusal = resumeRefusal(old, pidAlive, hostname());
  if (refusal)
    throw new HammerError('USAGE', `cannot resume: ${refusal}`, { hint: "see 'hammer-box runs show <run_id>'" });
}

/** The config a run was started with, validated again (the state file is outside data). */
export function recordedConfig(old: RunState): Config {
  const parsed = ConfigSchema.safeParse(old.config);
  if (!parsed.success)
    throw new HammerError(
      'STATE_INVALID',
      `run ${old.run_id}'s recorded config is not valid any more: ${parsed.error.issues[0]?.message ?? ''}`,
    );
  return parsed.data;
}

/** Drive a run read from the store (already checked with assertResumable) from its first phase not done. */
export async function resumeLoop(
  old: RunState,
  config: Config,
  deps: RunDeps,
  testCommand: string,
): Promise<RunOutcome> {
  const runId = old.run_id;
  // whatever the dead process left on the engine goes first
  await deps.engine.gc({ runIds: [runId], ...(deps.signal ? { signal: deps.signal } : {}) });
  const userRepo = await resolveUserRepo(
    old.repo.path,
    old.repo.base_commit,
    deps.signal ? { signal: deps.signal } : {},
  );
  const image = await deps.resolveImage(deps.signal);
  const state = resumableState(old, deps.now());
  const applied = [];
  for (const it of state.iterations) {
    if (it.outcome !== 'applied' || !it.patch || !it.apply) continue;
    applied.push({
      patch: await deps.store.readArtifact(runId, it.patch.artifact),
      iteration: it.n,
      summary: summarizePatch(it.patch.files),
      tree: it.apply.tree,
      date: iterationDate(old, it.n),
    });
  }
  // an iteration cut short after its answer arrived continues from that answer, without a new model call
  const cut = old.iterations.find((it) => it.outcome === null && it.answer !== null);
  const pendingAnswer = cut?.answer
    ? { text: await deps.store.readArtifact(runId, cut.answer.artifact), model: cut.answer.model }
    : undefined;
  await deps.store.write(state);
  const req: RunRequest = {
    repoPath: old.repo.path,
    directivePath: old.directive.path,
    directiveText: old.directive.text,
    config,
    testCommand,
  };
  return drive(state, req, deps, { ...userRepo, base: old.repo.base_ref }, image, applied, pendingAnswer);
}
