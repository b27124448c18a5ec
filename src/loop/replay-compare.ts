// Whether a replay reproduced the run it replays (pure): phase by phase, the baseline's result, each
// iteration's outcome, patch, tree and test result, and how the run ended; the first difference is
// where it diverged. Times, tokens and ids are not compared (they differ by nature).
import type { Iteration, RunState, TestRecord } from '../state/run-state.js';
import { finishedIterations, testPassed } from './stop-conditions.js';

/** A replay's verdict on its original. */
export interface ReplayComparison {
  /** The run replayed. */
  original: string;
  /** Every phase gave the same result. */
  reproduced: boolean;
  /** Phases compared until the first difference (or all of them). */
  compared: number;
  /** Where it diverged: the phase, and what differed; null when reproduced. */
  divergence: { phase: string; detail: string } | null;
}

/** Compare `replayed` with `original` (see the file comment). */
export function compareReplay(original: RunState, replayed: RunState): ReplayComparison {
  let compared = 0;
  const diverged = (phase: string, detail: string): ReplayComparison => ({
    original: original.run_id,
    reproduced: false,
    compared,
    divergence: { phase, detail },
  });
  const baseline = testDifference(original.baseline, replayed.baseline);
  if (baseline !== null) return diverged('baseline', baseline);
  compared++;
  const before = finishedIterations(original);
  const after = finishedIterations(replayed);
  for (const [i, was] of before.entries()) {
    const now = after[i];
    const phase = `iteration ${was.n}`;
    if (now === undefined)
      return diverged(phase, `the replay stopped before it (${replayed.reason ?? replayed.status})`);
    const differs = iterationDifference(was, now);
    if (differs !== null) return diverged(`${phase} ${differs.phase}`, differs.detail);
    compared++;
  }
  if (after.length > before.length)
    return diverged(
      `iteration ${after[before.length]!.n}`,
      `the replay went on where the run stopped (${original.reason ?? original.status})`,
    );
  if (original.status !== replayed.status || original.reason !== replayed.reason)
    return diverged('the end', `the run ended ${ended(original)}, the replay ${ended(replayed)}`);
  compared++;
  return { original: original.run_id, reproduced: true, compared, divergence: null };
}

/** The first thing that differs between two records of one iteration, or null. */
function iterationDifference(was: Iteration, now: Iteration): { phase: string; detail: string } | null {
  const hash = (it: Iteration): string => it.patch?.hash.slice(0, 12) ?? 'none';
  if (hash(was) !== hash(now))
    return { phase: 'extract', detail: `the patch was ${hash(was)} in the run, ${hash(now)} in the replay` };
  if (was.outcome !== now.outcome)
    return {
      phase: 'apply',
      detail: `the patch was ${was.outcome ?? 'unfinished'} in the run, ${now.outcome ?? 'unfinished'} in the replay`,
    };
  const tree = (it: Iteration): string => it.apply?.tree.slice(0, 12) ?? 'none';
  if (tree(was) !== tree(now))
    return { phase: 'apply', detail: `the tree was ${tree(was)} in the run, ${tree(now)} in the replay` };
  const test = testDifference(was.test, now.test);
  return test === null ? null : { phase: 'test', detail: test };
}

/** How two test records differ in result (not in time), or null. */
function testDifference(was: TestRecord | null, now: TestRecord | null): string | null {
  if (was === null && now === null) return null;
  const said = (t: TestRecord | null): string =>
    t === null
      ? 'not run'
      : `${testPassed(t) ? 'passed' : 'failed'} (${t.timed_out ? 'timed out' : `exit ${t.exit_code}`})`;
  if (said(was) !== said(now)) return `the tests ${said(was)} in the run, ${said(now)} in the replay`;
  return null;
}

function ended(s: RunState): string {
  return s.reason === null ? s.status : `${s.status} (${s.reason})`;
}

/** One line for people: reproduced, or where it diverged. */
export function replayLine(c: ReplayComparison): string {
  if (c.reproduced)
    return `every phase reproduced run ${c.original} (${c.compared} compared: the baseline, each iteration, the end)`;
  return `diverged from run ${c.original} at ${c.divergence!.phase}: ${c.divergence!.detail}`;
}
