// The programmatic API behind `hammer-box runs prune`: remove old runs' files, and (when asked) the
// branches they made.
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { resolveConfig } from '../config/resolve.js';
import { resolveUserRepo } from '../git/index.js';
import { removeRecordedBranch, type BranchRemoval } from '../git/remove-branch.js';
import { pidAlive } from '../sandbox/gc.js';
import { planRunPrune, type RunKeepReason, type RunPrunePolicy } from '../state/prune-runs.js';
import type { RunState } from '../state/run-state.js';
import { readPushes } from './push-record.js';
import { repoRunStore, type RunsOptions } from './runs.js';

/** How `runs prune` chooses, and whether it touches anything. */
export interface PruneRunsOptions extends RunsOptions, RunPrunePolicy {
  /** Remove the runs' branches too (by default only their files go). */
  branches?: boolean;
  /** Only say what would be removed. */
  dryRun?: boolean;
  now?: Date;
  signal?: AbortSignal;
}

/** One run removed (or that would be), and what became of its branch. */
export interface PrunedRun {
  run_id: string;
  status: RunState['status'];
  created_at: string;
  branch: string | null;
  /** null: the run made no branch, or branches were not asked for (no --branches), or a dry run. */
  branch_removal: BranchRemoval | null;
}

/** What `runs prune` did. */
export interface PruneRunsReport {
  dry_run: boolean;
  /** Whether the runs' branches are removed with them (--branches). */
  branches: boolean;
  removed: PrunedRun[];
  kept: { run_id: string; reason: RunKeepReason }[];
}

/**
 * Remove the runs the policy selects: with `branches`, each run's branch first (only while it is
 * exactly the branch the run made and known on no remote, see removeRecordedBranch), then its state
 * file and artifacts. A live run is never touched.
 */
export async function pruneRuns(options: PruneRunsOptions): Promise<PruneRunsReport> {
  const store = await repoRunStore(options);
  const { config } = await resolveConfig({ repo: resolve(options.repo), env: options.env ?? process.env });
  const { runs } = await store.list();
  const host = hostname();
  const plan = planRunPrune(
    runs,
    {
      ...(options.keep !== undefined ? { keep: options.keep } : {}),
      ...(options.olderThanMs !== undefined ? { olderThanMs: options.olderThanMs } : {}),
    },
    options.now ?? new Date(),
    (s) => s.status === 'running' && s.owner !== undefined && s.owner.host === host && pidAlive(s.owner.pid),
  );
  const dryRun = options.dryRun === true;
  const branches = options.branches === true;
  const withBranches = !dryRun && branches && plan.remove.some((s) => s.branch !== null);
  const userRepo = withBranches ? await resolveUserRepo(resolve(options.repo), 'HEAD', {}).catch(() => null) : null;
  const removed: PrunedRun[] = [];
  for (const state of plan.remove) {
    let branchRemoval: BranchRemoval | null = null;
    if (state.branch && withBranches) {
      branchRemoval = userRepo
        ? await removeRecordedBranch(
            userRepo,
            {
              name: state.branch.name,
              commit: state.branch.commit,
              baseCommit: state.repo.base_commit,
              prefix: config.git.branch_prefix,
              runId: state.run_id,
              pushedTo: (await readPushes(store, state.run_id)).map((p) => p.remote),
            },
            options.signal,
          )
        : { removed: false, reason: 'failed', detail: 'the repository could not be read' };
    }
    if (!dryRun) await store.remove(state.run_id);
    removed.push({
      run_id: state.run_id,
      status: state.status,
      created_at: state.created_at,
      branch: state.branch?.name ?? null,
      branch_removal: branchRemoval,
    });
  }
  return {
    dry_run: dryRun,
    branches,
    removed,
    kept: plan.keep.map((k) => ({ run_id: k.state.run_id, reason: k.reason })),
  };
}
