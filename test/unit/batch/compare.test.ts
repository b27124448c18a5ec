// batch compare: the paired cells, what is left out, the exact McNemar test, and its rendering.
import { describe, expect, it } from 'vitest';
import { compareReports, mcnemarExact } from '../../../src/batch/compare.js';
import { renderComparison } from '../../../src/batch/compare-render.js';
import type { Report, ReportStatus } from '../../../src/batch/report-schema.js';

function report(tasks: [string, ReportStatus, number?, number?][]): Report {
  return {
    schema_version: 1,
    generated_at: '2026-01-01T00:00:00.000Z',
    hammer_box_version: '0',
    tasks_file: '/t',
    state: 'finished',
    model: 'ollama:m',
    counts: {} as Report['counts'],
    ids: {} as Report['ids'],
    resolved: { stable: 0, finished: 0 },
    pass_at_k: [],
    totals: { tasks: 0, attempts: 0, iterations: 0, wall_ms: 0, model_ms: 0, tokens_in: 0, tokens_out: 0 },
    tasks: tasks.map(([id, status, samples, solved]) => ({
      id,
      line: 1,
      status,
      attempts_wanted: samples ?? 1,
      samples: samples ?? (status === 'infra_error' || status === 'pending' ? 0 : 1),
      solved: solved ?? (status === 'stable' ? 1 : 0),
      iterations: 0,
      wall_ms: 0,
      model_ms: 0,
      tokens_in: 0,
      tokens_out: 0,
      attempts: [],
    })),
  };
}

describe('compareReports', () => {
  it('pairs tasks by id into both / only A / only B / neither, and leaves out those without a verdict', () => {
    const a = report([
      ['t1', 'stable'],
      ['t2', 'stable'],
      ['t3', 'tests_fail'],
      ['t4', 'no_patch'],
      ['t5', 'infra_error'],
      ['t6', 'stable'],
    ]);
    const b = report([
      ['t1', 'stable'],
      ['t2', 'timeout'],
      ['t3', 'stable'],
      ['t4', 'setup_failed'],
      ['t5', 'stable'],
      ['t7', 'stable'],
    ]);
    const c = compareReports(a, b);
    expect([c.both, c.onlyA, c.onlyB, c.neither]).toEqual([['t1'], ['t2'], ['t3'], ['t4']]);
    expect(c.left).toEqual([
      { id: 't5', a: 'infra_error', b: 'stable' },
      { id: 't6', a: 'stable', b: null },
      { id: 't7', a: null, b: 'stable' },
    ]);
    expect(c.pValue).toBe(1);
  });

  it("gives pass@k of the paired tasks beside each report's own", () => {
    const a = report([
      ['x', 'stable', 2, 1],
      ['y', 'tests_fail', 2, 0],
    ]);
    const b = report([
      ['x', 'stable', 2, 2],
      ['y', 'model_error', 2, 0],
    ]);
    const c = compareReports(a, b);
    expect(c.pairedPassA.map((p) => p.value)).toEqual([0.5, 1]);
    expect(c.pairedPassB.map((p) => p.value)).toEqual([1, 1]);
  });
});

describe('mcnemarExact', () => {
  it('is twice the smaller binomial tail', () => {
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(5, 5)).toBe(1);
    expect(mcnemarExact(0, 6)).toBeCloseTo(2 / 64, 12);
    expect(mcnemarExact(1, 9)).toBeCloseTo((2 * (1 + 10)) / 1024, 12);
    expect(mcnemarExact(2000, 2100)).toBeGreaterThan(0);
  });
});

describe('renderComparison', () => {
  it('prints the paired table, the ids and the test', () => {
    const c = compareReports(
      report([
        ['t1', 'stable'],
        ['t2', 'stable'],
      ]),
      report([
        ['t1', 'stable'],
        ['t2', 'no_patch'],
      ]),
    );
    const text = renderComparison(c, {
      a: { label: 'runs/a', model: 'ollama:x|y' },
      b: { label: 'runs/b', model: 'ollama:z' },
    });
    expect(text).toContain('- A: runs/a (model ollama:x\\|y)');
    expect(text).toContain('| **A stable** | 1 (both) | 1 (only A) |');
    expect(text).toContain('- only A (1): t2');
    expect(text).toContain('exact McNemar test on the 1 solved by one only: p = 1.000');
    expect(text).not.toContain('pass@k');
  });
});
