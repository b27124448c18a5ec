// Which runs `runs prune` removes: all but the newest N, or those older than an age; never a run
// whose process is alive. Pure, so it is unit-tested.
import type { RunState } from './run-state.js';

/** What to keep: the newest `keep` runs, and/or runs younger than `olderThanMs`. Neither: keep the newest 10. */
export interface RunPrunePolicy {
  keep?: number;
  olderThanMs?: number;
}

/** Runs kept when no policy is given. */
export const DEFAULT_RUNS_KEPT = 10;

/** Why a run stays. */
export type RunKeepReason = 'live' | 'newest' | 'recent';

/** The decision for every run, newest first within each list. */
export interface RunPrunePlan {
  remove: RunState[];
  keep: { state: RunState; reason: RunKeepReason }[];
}

/** Decide which of `runs` to remove at `now`; `isLive` says whether a run's process still drives it. */
export function planRunPrune(
  runs: readonly RunState[],
  policy: RunPrunePolicy,
  now: Date,
  isLive: (state: RunState) => boolean,
): RunPrunePlan {
  const keepN = policy.keep ?? (policy.olderThanMs === undefined ? DEFAULT_RUNS_KEPT : undefined);
  const newestFirst = [...runs].sort(
    (a, b) => b.created_at.localeCompare(a.created_at) || b.run_id.localeCompare(a.run_id),
  );
  const plan: RunPrunePlan = { remove: [], keep: [] };
  let kept = 0;
  for (const state of newestFirst) {
    if (isLive(state)) {
      plan.keep.push({ state, reason: 'live' });
      continue;
    }
    if (keepN !== undefined && kept < keepN) {
      kept++;
      plan.keep.push({ state, reason: 'newest' });
      continue;
    }
    if (policy.olderThanMs !== undefined && now.getTime() - Date.parse(state.created_at) < policy.olderThanMs) {
      plan.keep.push({ state, reason: 'recent' });
      continue;
    }
    plan.remove.push(state);
  }
  return plan;
}
