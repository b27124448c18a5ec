// `hammer-box run`: the whole pipeline from the user's repository to one new branch.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { abortError, HammerError, isHammerError, withRunRef } from '../errors.js';
import {
  branchCandidates,
  branchCommit,
  deliverBranch,
  diffstat,
  resolveUserRepo,
  type UserRepo,
} from '../git/index.js';
import { baselinePassWarning } from '../verdict/baseline-warning.js';
import { artifactNames } from '../state/artifact-names.js';
import type { ExitReason, RunState, RunStatus } from '../state/run-state.js';
import { finishRun, newRunState, recordError, recordRunPhase } from '../state/transitions.js';
import type { RecordedAnswer } from '../llm/index.js';
import { tryAlternatives } from './alternatives.js';
import { flakyNotice, rerunPlan, rerunRecord } from './baseline-rerun.js';
import { startModelGate } from './model-gate.js';
import { RunRecorder } from './phase-runner.js';
import { faultPoint, faultPointHandled } from './fault.js';
import { withResumeHint } from './resumable.js';
import { resolveRuntime } from './runtime.js';
import { prepare, runTests, type Prepared } from './prepare.js';
import type { ResolvedImage, RunDeps, RunOutcome, RunRequest } from './run-types.js';
import { appliedCount, decideNext, type LoopLimits } from './stop-conditions.js';
import { INTERRUPTED_BUDGET_MS, removeSandboxes, reportLeftBehind } from './cleanup.js';

/**
 * The iteration's code (prompts, context, edits, agent mode, the syntax layer): loaded during the
 * prepare phase, instead of before the run can begin.
 */
const iterationCode = (): Promise<[typeof import('./iteration.js'), typeof import('./agent/iteration.js')]> =>
  Promise.all([import('./iteration.js'), import('./agent/iteration.js')]);

/**
 * Run the loop to its end. Failures the loop reasons about (rejected patches, failing tests) end
 * as a recorded status; breakage (engine, model, git) is recorded as status `error` and rethrown.
 * The sandbox and the workbench are removed on every path, including interruption.
 */
export async function runLoop(req: RunRequest, deps: RunDeps): Promise<RunOutcome> {
  const signal = deps.signal;
  const userRepo = req.userRepo ?? (await resolveUserRepo(req.repoPath, req.config.git.base, signal ? { signal } : {}));
  // the state records the runtime the sandbox gets ("auto" resolved), so a resumed run keeps it
  const runtime = await resolveRuntime(req.config.sandbox.runtime, deps.engine, signal);
  const config = { ...req.config, sandbox: { ...req.config.sandbox, runtime } };
  const runId = deps.store.newRunId(deps.now());
  const state: RunState = {
    ...newRunState({
      runId,
      now: deps.now(),
      repo: {
        path: userRepo.root,
        base_ref: userRepo.base,
        base_commit: userRepo.baseCommit,
        base_tree: userRepo.baseTree,
      },
      directive: {
        path: req.directivePath,
        text: req.directiveText,
        ...(req.directiveKind ? { kind: req.directiveKind } : {}),
      },
      config: config,
      model: { provider: config.model.provider, name: config.model.name, url: config.model.url },
      // resolved in the setup phase, so a run that fails there still leaves its state file
      image: null,
      artifactsDir: deps.store.artifactsDir(runId),
    }),
    ...(req.environment ? { environment: req.environment } : {}),
    owner: { pid: process.pid, host: hostname() },
  };
  await deps.store.create(state);
  return drive(state, { ...req, config }, deps, userRepo, null, []);
}

/**
 * Drive a run whose state file exists: prepare (copying in the workbench's head after replaying
 * `applied` patches), the baseline if not yet run, then iterations until a stop condition, the
 * branch and PR_SUMMARY.md. Shared by `run` and `resume`.
 */
export async function drive(
  state: RunState,
  req: RunRequest,
  deps: RunDeps,
  userRepo: UserRepo,
  /** The image when it is known already (resume); null runs the setup phase first. */
  known: ResolvedImage | null,
  applied: { patch: string; iteration: number; summary: string; message: string; tree: string; date: Date }[],
  /** The answer an interrupted iteration had already received (resume continues after generate). */
  pendingAnswer?: { text: string; model: string; finishReason?: string },
  /** Agent mode: the turns an interrupted iteration had already received (resume plays them back first). */
  pendingTurns?: readonly RecordedAnswer[],
): Promise<RunOutcome> {
  const { config } = req;
  const outer = deps.signal;
  // the model is checked beside the sandbox work, which its failure stops (see model-gate.ts)
  const needsModel =
    deps.provider.name !== 'replay' &&
    pendingAnswer === undefined &&
    (state.iterations.length === 0 || decideNext(state, limits(req)).action === 'generate');
  const gate = startModelGate(deps.provider, outer, needsModel);
  // loaded once the sandbox exists, while the base is copied in (node only waits on the engine's
  // extraction then), or at the first iteration
  let code: ReturnType<typeof iterationCode> | undefined;
  const loadCode = (): ReturnType<typeof iterationCode> => {
    code ??= iterationCode();
    code.catch(() => undefined); // awaited before the first iteration
    return code;
  };
  deps = { ...deps, signal: gate.signal };
  const signal = deps.signal;
  const runId = state.run_id;
  const logger = deps.loggerFor(runId).child({ run_id: runId });
  const rec = new RunRecorder(state, deps.store, deps.emit, deps.now, logger);
  // a Ctrl-C is in the state the moment it arrives, before the cleanup it starts (see interruptOn)
  const stopRecordingInterrupt = rec.interruptOn(outer);
  deps.emit({
    type: 'run_started',
    run_id: runId,
    at: deps.now().toISOString(),
    repo: userRepo.root,
    base_ref: state.repo.base_ref,
    model: `${config.model.provider}:${config.model.name}`,
    max_iterations: config.loop.max_iterations,
  });
  logger.info({ repo: userRepo.root, base: userRepo.baseCommit, resumed: state.resumed ?? 0 }, 'run started');
  if (state.environment)
    deps.emit({
      type: 'notice',
      run_id: runId,
      at: deps.now().toISOString(),
      level: 'info',
      text: state.environment.line,
    });

  const made: Partial<Prepared> = {};
  /** Sandboxes of other projects tried at baseline (see alternatives.ts); removed with the run's. */
  const tried: Prepared['sandbox'][] = [];
  let failure: unknown;
  try {
    const image =
      known ??
      (await rec.phase('setup', null, async () => {
        const resolved = await deps.resolveImage(signal);
        await rec.update((s) => ({ ...s, image: resolved, ...setupRecord(s, deps) }));
        return resolved;
      }));
    logger.info({ image }, 'image ready');
    let prep = await rec.phase('prepare', null, () =>
      prepare(
        runId,
        req,
        deps,
        userRepo,
        image,
        (p) => {
          Object.assign(made, p);
          if (p.sandbox) void loadCode();
        },
        applied,
      ),
    );
    await rec.update((s) => ({ ...s, sandbox: { container_id: prep.sandbox.id } }));
    if (rec.state.baseline === null) {
      // the failing tests run again at once, on the same tree: those that pass are flaky (recorded
      // together with the baseline, so a resumed run never has one without the other)
      const { baseline, rerun } = await rec.phase('baseline', null, async () => {
        const first = await runTests(rec, deps, prep.repo, req, null);
        const plan = rerunPlan(first, req.testCommand, {
          enabled: req.config.tests.rerun_baseline_failures,
          knownFailures: req.config.tests.known_failures,
        });
        if (plan === null) return { baseline: first, rerun: null };
        const again = await runTests(rec, deps, prep.repo, req, null, artifactNames.baselineRerunLog(), plan.command);
        return { baseline: first, rerun: rerunRecord(again, plan) };
      });
      await rec.update((s) => ({ ...s, baseline, ...(rerun === null ? {} : { baseline_rerun: rerun }) }));
      const flaky = rerun === null ? null : flakyNotice(baseline, rerun);
      if (flaky !== null)
        deps.emit({ type: 'notice', run_id: runId, at: deps.now().toISOString(), level: 'warning', text: flaky });
      const warning = baselinePassWarning(rec.state);
      if (warning !== null)
        deps.emit({ type: 'notice', run_id: runId, at: deps.now().toISOString(), level: 'warning', text: warning });
      // the failing tests may be another project's: its tests run before the model is asked
      if (warning !== null && deps.alternatives && deps.alternatives.length > 0) {
        const after = await rec.phase('baseline', null, () =>
          tryAlternatives(rec, deps, req, prep, userRepo, deps.alternatives!, (s) => tried.push(s)),
        );
        ({ req, prep } = after);
        made.sandbox = prep.sandbox;
        await rec.update((s) => ({ ...s, sandbox: { container_id: prep.sandbox.id } }));
      }
    }
    // the sandbox's repository is made while the first prompt is built and the model answers
    prep.startInit();
    await gate.ready();
    let next = rec.state.iterations.length ? decideNext(rec.state, limits(req)) : ({ action: 'generate' } as const);
    let recorded = pendingAnswer;
    let turns = pendingTurns;
    while (next.action === 'generate') {
      if (signal?.aborted) throw abortError(signal, 'the run');
      const [{ runIteration }, { runAgentIteration }] = await loadCode();
      if (config.loop.mode === 'agent') await runAgentIteration(rec, deps, req, prep, turns);
      else await runIteration(rec, deps, req, prep, recorded);
      recorded = undefined;
      turns = undefined;
      next = decideNext(rec.state, limits(req));
      const last = rec.state.iterations.at(-1)!;
      deps.emit({
        type: 'iteration_finished',
        run_id: runId,
        at: deps.now().toISOString(),
        iteration: last.n,
        outcome: last.outcome ?? 'unusable',
        summary: last.summary,
      });
    }
    await deliver(rec, deps, req, prep, userRepo);
    await end(rec, next.status, next.reason, next.detail);
  } catch (caught) {
    // work stopped by a failed model check ends with the check's error, whatever the work threw
    const err = gate.failure() ?? caught;
    failure = err;
    const interrupted = isHammerError(err, 'ABORTED') || outer?.aborted === true;
    const e = isHammerError(err)
      ? err
      : new HammerError('INTERNAL', err instanceof Error ? err.message : String(err), { cause: err });
    await rec
      .update((s, now) =>
        recordError(
          s,
          {
            code: e.code,
            message: e.message,
            ...(s.iterations.length ? { iteration: s.iterations.at(-1)!.n } : {}),
            ...(e.hint === undefined ? {} : { hint: e.hint }),
          },
          now,
        ),
      )
      .catch(() => undefined);
    await end(rec, interrupted ? 'interrupted' : 'error', interrupted ? 'interrupted' : 'error', e.message).catch(
      () => undefined,
    );
    logger.error({ code: e.code, err: e.message }, 'run ended with an error');
  } finally {
    // never leave a container, volume or temp repo behind, whatever happened (a second Ctrl-C exits
    // hard); the provider belongs to the caller, who closes it
    gate.dispose();
    stopRecordingInterrupt();
    faultPoint('cleanup');
    const sandboxes = [made.sandbox, ...tried.filter((s) => s !== made.sandbox)].filter((s) => s !== undefined);
    const [left] = await Promise.all([
      removeSandboxes(
        sandboxes,
        // after a Ctrl-C the process is gone within seconds: the report of what is left must come first
        outer?.aborted
          ? Math.min(config.sandbox.remove_retry * 1000, INTERRUPTED_BUDGET_MS)
          : config.sandbox.remove_retry * 1000,
        logger,
      ),
      made.workbench?.dispose().catch(() => undefined),
    ]);
    if (left.length > 0) await reportLeftBehind(rec, deps, req, left);
  }

  const summaryPath = await writeSummary(rec, deps);
  const final = rec.state;
  deps.emit({
    type: 'run_finished',
    run_id: runId,
    at: deps.now().toISOString(),
    status: final.status,
    reason: final.reason,
    detail: final.reason_detail,
    branch: final.branch?.name ?? null,
  });
  if (failure !== undefined)
    throw withRunRef(withResumeHint(failure, final, userRepo.root, req.configFile), {
      id: runId,
      statePath: deps.store.statePath(runId),
    });
  return { state: final, statePath: deps.store.statePath(runId), summaryPath };
}

/** The setup steps the image resolution reported, into the environment record. */
function setupRecord(s: RunState, deps: RunDeps): Partial<RunState> {
  const steps = deps.setupSteps?.();
  if (!s.environment || !steps || steps.length === 0) return {};
  return { environment: { ...s.environment, setup_steps: steps } };
}

function limits(req: RunRequest): LoopLimits {
  const { loop, agent } = req.config;
  return {
    maxIterations: loop.max_iterations,
    maxUnusableAnswers: loop.max_unusable_answers,
    ...(loop.mode === 'agent' ? { maxRunSteps: agent.max_run_steps } : {}),
    knownFailures: req.config.tests.known_failures,
  };
}

async function end(
  rec: RunRecorder,
  status: Exclude<RunStatus, 'running'>,
  reason: ExitReason,
  detail: string | null,
): Promise<RunState> {
  return rec.update((s, now) => finishRun(s, { status, reason, detail }, now));
}

/**
 * Bring the accepted commits into the user's repository as one new branch (never any other change).
 * Each name is recorded before its ref is made: a run killed in between is resumed onto that branch
 * (adopted when it already points at the commit), never onto a second one. When another run makes
 * the same name first, the next free name is recorded and taken instead.
 */
async function deliver(
  rec: RunRecorder,
  deps: RunDeps,
  req: RunRequest,
  prep: Prepared,
  userRepo: UserRepo,
): Promise<void> {
  const sig = deps.signal ? { signal: deps.signal } : {};
  if (req.deliver === false) {
    await rec.update((s, now) =>
      recordRunPhase(
        s,
        'deliver',
        { status: 'skipped', started_at: now.toISOString(), duration_ms: 0, detail: 'a verification: no branch' },
        now,
      ),
    );
    return;
  }
  if (prep.workbench.head() === userRepo.baseCommit && !req.config.git.keep_empty_branch) {
    // nothing was applied: a branch at the base would only be clutter ([git] keep_empty_branch keeps it)
    rec.logger.info('no branch: no patch was applied');
    await rec.update((s, now) =>
      recordRunPhase(
        s,
        'deliver',
        { status: 'skipped', started_at: now.toISOString(), duration_ms: 0, detail: 'no patch was applied' },
        now,
      ),
    );
    return;
  }
  await rec.phase('deliver', null, async () => {
    const commit = prep.workbench.head();
    const stat = await diffstat(prep.workbench.gitOptions(sig), userRepo.baseCommit, commit);
    const pending = rec.state.delivering?.commit === commit ? rec.state.delivering.name : null;
    const made = pending === null ? null : await branchCommit(userRepo, pending, deps.signal);
    if (pending !== null && made === commit) {
      rec.logger.info({ branch: pending, commit }, 'branch adopted: an earlier process made it before it stopped');
      await rec.update((s) => ({ ...s, branch: { name: pending, commit, diffstat: stat }, delivering: null }));
      return;
    }
    const fresh = branchCandidates(req.config.git.branch_prefix, rec.state.run_id);
    // a recorded name nobody made yet is tried first; one another run made goes to the fresh names
    const names = pending !== null && made === null ? [pending, ...fresh] : fresh;
    const branch = await deliverBranch({
      userRepo,
      workbench: prep.workbench,
      commit,
      names,
      claim: async (name) => {
        if (rec.state.delivering?.name !== undefined && rec.state.delivering.name !== name)
          rec.logger.info({ taken: rec.state.delivering.name, branch: name }, 'branch name taken by another process');
        await rec.update((s) => ({ ...s, delivering: { name, commit } }));
        await faultPointHandled('deliver:name');
      },
      ...sig,
    });
    faultPoint('deliver:ref');
    rec.logger.info(
      { branch: branch.branch, commit: branch.commit, commits: appliedCount(rec.state) },
      'branch delivered',
    );
    await rec.update((s) => ({
      ...s,
      branch: { name: branch.branch, commit: branch.commit, diffstat: stat },
      delivering: null,
    }));
  });
}

/**
 * Finish a run that ended (stable or failed) but stopped before its report: write PR_SUMMARY.md and
 * record the report phase. Nothing else of the run is done again.
 */
export async function reportOnly(
  state: RunState,
  deps: Pick<RunDeps, 'store' | 'emit' | 'now' | 'loggerFor' | 'renderSummary'>,
): Promise<RunOutcome> {
  const logger = deps.loggerFor(state.run_id).child({ run_id: state.run_id });
  const rec = new RunRecorder(state, deps.store, deps.emit, deps.now, logger);
  logger.info({ status: state.status }, 'resumed to write the report only');
  const summaryPath = await writeSummary(rec, deps);
  const final = rec.state;
  deps.emit({
    type: 'run_finished',
    run_id: final.run_id,
    at: deps.now().toISOString(),
    status: final.status,
    reason: final.reason,
    detail: final.reason_detail,
    branch: final.branch?.name ?? null,
  });
  return { state: final, statePath: deps.store.statePath(final.run_id), summaryPath };
}

/** PR_SUMMARY.md beside the run's artifacts; written for every run that got a state file. */
async function writeSummary(rec: RunRecorder, deps: Pick<RunDeps, 'store' | 'renderSummary'>): Promise<string | null> {
  try {
    const name = artifactNames.prSummary();
    const text = await deps.renderSummary(rec.state, (artifact) => deps.store.readArtifact(rec.state.run_id, artifact));
    await rec.phase('report', null, () => deps.store.writeArtifact(rec.state.run_id, name, text));
    return join(rec.state.artifacts_dir, name);
  } catch (err) {
    rec.logger.error({ err: (err as Error).message }, 'could not write PR_SUMMARY.md');
    return null;
  }
}
