// Which attempts a batch starts: new samples, unfinished ones, and the statuses being retried.
import { describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../../../src/batch/attempt-record.js';
import { planTask } from '../../../src/batch/plan.js';

const HASH = 'a'.repeat(64);
const rec = (attempt: number, sample: number, status: AttemptRecord['status'], hash = HASH): AttemptRecord => ({
  schema_version: 1,
  task_id: 't',
  attempt,
  sample,
  replaces: null,
  task_hash: hash,
  commit: null,
  started_at: '2026-01-01T00:00:00.000Z',
  finished_at: status === null ? null : '2026-01-01T00:01:00.000Z',
  status,
  wall_ms: null,
  run: null,
  error: null,
  owner: { pid: 1, host: 'h' },
});
const task = { id: 't', hash: HASH, attempts: 2 };

describe('planTask', () => {
  it('runs every sample of a new task, numbered from 1', () => {
    expect(planTask(task, [], [], new Set()).toRun).toEqual([
      { taskId: 't', sample: 1, attempt: 1, replaces: null },
      { taskId: 't', sample: 2, attempt: 2, replaces: null },
    ]);
  });

  it('keeps finished samples and reruns an unfinished one as a new attempt', () => {
    const plan = planTask(task, [rec(1, 1, 'tests_fail'), rec(2, 2, 'unfinished')], [1, 2], new Set());
    expect(plan.kept.map((r) => r?.attempt ?? null)).toEqual([1, null]);
    expect(plan.toRun).toEqual([{ taskId: 't', sample: 2, attempt: 3, replaces: 2 }]);
  });

  it('treats a record still saying running (its process died) as unfinished', () => {
    expect(planTask({ ...task, attempts: 1 }, [rec(1, 1, null)], [1], new Set()).toRun).toEqual([
      { taskId: 't', sample: 1, attempt: 2, replaces: 1 },
    ]);
  });

  it('reruns the retried statuses only, and the latest attempt of a sample decides', () => {
    const records = [rec(1, 1, 'infra_error'), rec(2, 2, 'infra_error'), rec(3, 2, 'stable')];
    const plan = planTask(task, records, [1, 2, 3], new Set(['infra_error']));
    expect(plan.toRun).toEqual([{ taskId: 't', sample: 1, attempt: 4, replaces: 1 }]);
    expect(planTask(task, records, [1, 2, 3], new Set()).toRun).toEqual([]);
  });

  it('ignores attempts of another definition of the task, but never reuses their numbers', () => {
    const plan = planTask({ ...task, attempts: 1 }, [rec(1, 1, 'stable', 'b'.repeat(64))], [1, 5], new Set());
    expect(plan.toRun).toEqual([{ taskId: 't', sample: 1, attempt: 6, replaces: null }]);
  });
});
