// The programmatic API behind `hammer-box runs list` and `runs show`: a repository's run states, read back.
import { lstat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { resolveConfig } from '../config/resolve.js';
import { HammerError, isHammerError } from '../errors.js';
import { finishedIterations, runVerdict } from '../verdict/index.js';
import { renderPrBody } from '../report/pr-summary.js';
import { shellWord } from '../text/shell-word.js';
import { summaryExtras } from '../report/summary-extras.js';
import { artifactNames } from '../state/artifact-names.js';
import type { RunRef } from '../state/run-ref.js';
import type { RunState } from '../state/run-state.js';
import type { RunStore, SkippedStateFile } from '../state/store.js';
import { assertDirectory } from './repo-path.js';
import { pickRunId } from './run-ref.js';
import { openRunStore } from './run-store.js';

/** Which repository's runs; its state directory comes from the resolved config ([state] dir). */
export interface RunsOptions {
  repo: string;
  env?: NodeJS.ProcessEnv;
}

/** One run in `runs list --json`. */
export interface RunSummary {
  run_id: string;
  /** The run's outcome (see runVerdict). */
  status: RunState['status'];
  reason: RunState['reason'];
  created_at: string;
  /** Finished iterations. */
  iterations: number;
  branch: string | null;
}

/** What `runs list` shows: readable runs newest first, and the state files that could not be read. */
export interface RunListing {
  /** The runs directory looked in. */
  dir: string;
  runs: RunState[];
  skipped: SkippedStateFile[];
}

/** What `runs show` shows: the validated state and where the run's files are. */
export interface RunDetails {
  state: RunState;
  statePath: string;
  artifactsDir: string;
  /** PR_SUMMARY.md, or null when the run has not written it (yet). */
  summaryPath: string | null;
}

/** The run store of a repository (REPO_INVALID when the path is not a directory). */
export async function repoRunStore(options: RunsOptions): Promise<RunStore> {
  const repo = resolve(options.repo);
  await assertDirectory(repo, 'pass --repo <path> with the repository the runs belong to');
  const env = options.env ?? process.env;
  const { config } = await resolveConfig({ repo, env });
  return openRunStore(repo, config, env);
}

/** The id of the run `ref` names (a whole id, its start, the letters after its dash, or the last run). */
export async function resolveRun(options: RunsOptions & { ref: RunRef }): Promise<string> {
  const store = await repoRunStore(options);
  return pickRunId(await store.runIds(), options.ref, options.repo);
}

/** Every run of the repository, newest first; unreadable state files are listed, not fatal. */
export async function listRuns(options: RunsOptions): Promise<RunListing> {
  const store = await repoRunStore(options);
  const { runs, skipped } = await store.list();
  return { dir: store.runsDir, runs, skipped };
}

/** One run's state (RUN_NOT_FOUND, STATE_INVALID) and the paths of its files. */
export async function showRun(options: RunsOptions & { runId: string }): Promise<RunDetails> {
  const store = await repoRunStore(options);
  let state: RunState;
  try {
    state = await store.read(options.runId);
  } catch (err) {
    if (!isHammerError(err, 'RUN_NOT_FOUND')) throw err;
    const where = options.repo === '.' ? '' : ` --repo ${shellWord(options.repo)}`;
    throw new HammerError('RUN_NOT_FOUND', err.message, {
      hint: `list the runs with: hammer-box runs list${where}`,
      cause: err,
    });
  }
  const artifactsDir = store.artifactsDir(state.run_id);
  const summary = join(artifactsDir, artifactNames.prSummary());
  const written = await lstat(summary).then(
    (s) => s.isFile(),
    () => false,
  );
  return { state, statePath: store.statePath(state.run_id), artifactsDir, summaryPath: written ? summary : null };
}

/** The pull request's body for `runs show --pr-body`: PR_SUMMARY.md without its title, rendered from the state now. */
export async function prBody(options: RunsOptions & { runId: string }): Promise<string> {
  const store = await repoRunStore(options);
  const { state } = await showRun(options);
  return renderPrBody(state, await summaryExtras(state, (name) => store.readArtifact(state.run_id, name)));
}

/** The short form of a run for `runs list --json`. */
export function runSummary(state: RunState): RunSummary {
  return {
    run_id: state.run_id,
    status: runVerdict(state).outcome,
    reason: state.reason,
    created_at: state.created_at,
    iterations: finishedIterations(state).length,
    branch: state.branch?.name ?? null,
  };
}
