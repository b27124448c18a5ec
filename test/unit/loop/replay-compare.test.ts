// A replay's verdict on the run it replays: reproduced phase by phase, or where it diverged.
import { describe, expect, it } from 'vitest';
import { compareReplay, replayLine } from '../../../src/loop/replay-compare.js';
import { iteration, makeState, testRecord } from '../state/make-state.js';

const run = (patch: string, exit: number, extra: Parameters<typeof makeState>[0] = {}) =>
  makeState({
    status: exit === 0 ? 'stable' : 'failed',
    reason: exit === 0 ? 'tests_pass' : 'max_iterations',
    baseline: testRecord(1),
    iterations: [iteration(1, 'applied', { patch, test: testRecord(exit) })],
    ...extra,
  });

describe('compareReplay', () => {
  it('reproduced: the same baseline, patch, tree, tests and end (times and ids may differ)', () => {
    const original = run('fix', 0);
    const replayed = { ...run('fix', 0), run_id: '20261123T000000Z-zzzzzz', updated_at: '2026-11-24T00:00:00.000Z' };
    const c = compareReplay(original, replayed);
    expect(c).toEqual({ original: original.run_id, reproduced: true, compared: 3, divergence: null });
    expect(replayLine(c)).toBe(
      `every phase reproduced run ${original.run_id} (3 compared: the baseline, each iteration, the end)`,
    );
  });

  it('names the first phase that differs', () => {
    const original = run('fix', 0);
    expect(compareReplay(original, run('other', 0)).divergence).toEqual({
      phase: 'iteration 1 extract',
      detail: 'the patch was fixfixfixfix in the run, otherotherot in the replay',
    });
    expect(compareReplay(original, run('fix', 1)).divergence).toEqual({
      phase: 'iteration 1 test',
      detail: 'the tests passed (exit 0) in the run, failed (exit 1) in the replay',
    });
    expect(compareReplay(original, run('fix', 0, { baseline: testRecord(0) }))).toMatchObject({
      compared: 0,
      divergence: { phase: 'baseline' },
    });
    const stopped = run('fix', 1, { iterations: [], reason: 'error', status: 'error' });
    expect(replayLine(compareReplay(original, stopped))).toBe(
      `diverged from run ${original.run_id} at iteration 1: the replay stopped before it (error)`,
    );
  });
});
