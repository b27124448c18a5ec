// Which runs `runs prune` removes.
import { describe, expect, it } from 'vitest';
import { planRunPrune } from '../../../src/state/prune-runs.js';
import { makeState } from './make-state.js';

const now = new Date('2026-11-30T00:00:00Z');
const run = (day: number, extra = {}) =>
  makeState({
    run_id: `202611${String(day).padStart(2, '0')}T000000Z-abcdef`,
    created_at: `2026-11-${String(day).padStart(2, '0')}T00:00:00.000Z`,
    status: 'stable',
    ...extra,
  });
const ids = (xs: { run_id: string }[]) => xs.map((s) => s.run_id.slice(6, 8));

describe('planRunPrune', () => {
  const runs = [run(20), run(28), run(10), run(29, { status: 'running' }), run(25)];
  const live = (s: { status: string }) => s.status === 'running';

  it('keeps the newest N (10 by default), never a live run, and removes the rest', () => {
    const plan = planRunPrune(runs, { keep: 2 }, now, live);
    expect(ids(plan.remove)).toEqual(['20', '10']);
    expect(plan.keep.map((k) => `${k.state.run_id.slice(6, 8)}:${k.reason}`)).toEqual([
      '29:live',
      '28:newest',
      '25:newest',
    ]);
    expect(planRunPrune(runs, {}, now, live).remove).toEqual([]);
  });

  it('removes only runs older than an age, and combines it with --keep', () => {
    const week = 7 * 86_400_000;
    expect(ids(planRunPrune(runs, { olderThanMs: week }, now, live).remove)).toEqual(['20', '10']);
    expect(ids(planRunPrune(runs, { olderThanMs: week, keep: 3 }, now, live).remove)).toEqual(['10']);
    expect(ids(planRunPrune(runs, { keep: 0 }, now, () => false).remove)).toEqual(['29', '28', '25', '20', '10']);
  });
});
