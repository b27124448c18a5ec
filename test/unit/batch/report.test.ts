// report.json from the records: a task's status from its samples, what is counted and summed, and
// report.md's tables with every text from a run escaped.
import { describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../../../src/batch/attempt-record.js';
import { buildReport, type ReportInput } from '../../../src/batch/report.js';
import { renderReportMarkdown } from '../../../src/batch/report-md.js';
import { ReportSchema } from '../../../src/batch/report-schema.js';
import type { BatchStatus } from '../../../src/batch/status.js';

const HASH = 'a'.repeat(64);
let clock = 0;
function rec(
  task: string,
  attempt: number,
  status: BatchStatus | 'unfinished' | null,
  more: Partial<AttemptRecord> = {},
): AttemptRecord {
  return {
    schema_version: 1,
    task_id: task,
    attempt,
    sample: 1,
    replaces: null,
    task_hash: HASH,
    commit: 'c'.repeat(40),
    started_at: new Date(Date.UTC(2026, 0, 1, 0, 0, clock++)).toISOString(),
    finished_at: status === null ? null : '2026-01-01T01:00:00.000Z',
    status,
    wall_ms: status === null ? null : 1000,
    run:
      status === null
        ? null
        : {
            run_id: `20260101T000000Z-aaaaa${attempt}`,
            status: status === 'stable' ? 'stable' : 'failed',
            reason: status === 'stable' ? 'tests_pass' : 'max_iterations',
            iterations: 2,
            applied: 1,
            model: 'ollama:m',
            model_ms: 300,
            tokens_in: 100,
            tokens_out: 10,
            branch: status === 'stable' ? 'EngineerExternal/x' : null,
            branch_commit: null,
          },
    error: null,
    owner: { pid: 1, host: 'h' },
    ...more,
  };
}

function input(tasks: ReportInput['tasks'], records: AttemptRecord[], running: string[] = []): ReportInput {
  const byTask = new Map<string, AttemptRecord[]>();
  for (const r of records) byTask.set(r.task_id, [...(byTask.get(r.task_id) ?? []), r]);
  return {
    tasks,
    records: byTask,
    running: new Set(running),
    state: 'running',
    now: new Date('2026-01-01T02:00:00Z'),
    version: '0.0.0-test',
    tasksFile: '/t/tasks.jsonl',
    model: 'ollama:m',
  };
}
const t = (id: string, attempts = 1, line = 1) => ({ id, line, hash: HASH, attempts });

describe('buildReport', () => {
  it('gives each task one status, counts and ids by status, and validates against its schema', () => {
    const r = buildReport(
      input(
        [t('a'), t('b'), t('c'), t('d'), t('e')],
        [rec('a', 1, 'stable'), rec('b', 1, 'no_patch'), rec('c', 1, null), rec('d', 1, 'unfinished')],
        ['c/1'],
      ),
    );
    expect(ReportSchema.parse(r)).toEqual(r);
    expect(r.tasks.map((x) => [x.id, x.status])).toEqual([
      ['a', 'stable'],
      ['b', 'no_patch'],
      ['c', 'running'],
      ['d', 'pending'],
      ['e', 'pending'],
    ]);
    expect(r.counts).toMatchObject({ stable: 1, no_patch: 1, running: 1, pending: 2, infra_error: 0 });
    expect(r.ids.pending).toEqual(['d', 'e']);
    expect(r.resolved).toEqual({ stable: 1, finished: 2 });
    expect(r.tasks[3]!.attempts[0]!.status).toBe('unfinished');
  });

  it('shows a record left running by a dead process as unfinished, not running', () => {
    const r = buildReport(input([t('a')], [rec('a', 1, null)]));
    expect(r.tasks[0]!.status).toBe('pending');
    expect(r.tasks[0]!.attempts[0]!.status).toBe('unfinished');
  });

  it('with several samples: stable when any is, else the first status of the precedence list; pass@k over verdicts', () => {
    const r = buildReport(
      input(
        [t('a', 2), t('b', 3), t('c', 2)],
        [
          rec('a', 1, 'tests_fail'),
          rec('a', 2, 'stable', { sample: 2 }),
          rec('b', 1, 'no_patch'),
          rec('b', 2, 'timeout', { sample: 2 }),
          rec('b', 3, 'model_error', { sample: 3 }),
          rec('c', 1, 'infra_error'),
          rec('c', 2, 'budget_exhausted', { sample: 2 }),
        ],
      ),
    );
    expect(r.tasks.map((x) => [x.id, x.status, x.samples, x.solved])).toEqual([
      ['a', 'stable', 2, 1],
      ['b', 'model_error', 2, 0],
      ['c', 'infra_error', 1, 0],
    ]);
    expect(r.pass_at_k).toEqual([
      { k: 1, value: (0.5 + 0 + 0) / 3, tasks: 3 },
      { k: 2, value: (1 + 0) / 2, tasks: 2 },
    ]);
  });

  it('counts the latest attempt of a sample, sums what the standing attempts cost, and keeps the replaced ones listed', () => {
    const r = buildReport(input([t('a')], [rec('a', 1, 'infra_error'), rec('a', 2, 'stable', { replaces: 1 })]));
    const a = r.tasks[0]!;
    expect(a.status).toBe('stable');
    expect(a.attempts.map((x) => [x.attempt, x.counted, x.dir])).toEqual([
      [1, false, 'tasks/a/attempt-1'],
      [2, true, 'tasks/a/attempt-2'],
    ]);
    expect([a.iterations, a.wall_ms, a.model_ms, a.tokens_in]).toEqual([2, 1000, 300, 100]);
    expect(r.totals).toMatchObject({ tasks: 1, attempts: 2, iterations: 4, wall_ms: 2000 });
  });

  it('leaves out attempts of another definition of the task', () => {
    const r = buildReport(input([t('a')], [rec('a', 1, 'stable', { task_hash: 'b'.repeat(64) })]));
    expect(r.tasks[0]!.status).toBe('pending');
    expect(r.tasks[0]!.attempts).toEqual([]);
  });
});

describe('renderReportMarkdown', () => {
  it('tables the counts and tasks, escaping what runs said', () => {
    const r = buildReport(
      input(
        [t('a'), t('b', 2)],
        [
          rec('a', 1, 'setup_failed', {
            run: null,
            error: { code: 'SETUP_FAILED', message: 'pip said | <b>\u001b[31mred</b>\nsecond line' },
          }),
          rec('b', 1, 'stable'),
          rec('b', 2, 'tests_fail', { sample: 2 }),
        ],
      ),
    );
    const md = renderReportMarkdown({ ...r, state: 'finished' });
    expect(md).toMatch(/^# hammer-box batch: 2 tasks\n/);
    expect(md).toContain('**Resolved: 1 of 2 finished tasks (50.0%).**');
    expect(md).toContain('| `setup_failed` | 1 |');
    expect(md).toContain('| 2 | 100.0% | 1 |');
    expect(md).toContain(
      '| a | `setup_failed` | 1 | 0 | 1.0 s | 0 ms | 0 / 0 | SETUP\\_FAILED: pip said \\| \\<b\\>red\\</b\\> second line |',
    );
    expect(md).toContain('| b | `stable` | 1/2 stable |');
    expect(md).toContain('EngineerExternal/x');
    expect(md).not.toContain('\u001b');
  });

  it('writes the version as it is (0.1.0, not 0\\.1.0)', () => {
    const r = buildReport(input([t('a')], []));
    expect(renderReportMarkdown({ ...r, hammer_box_version: '0.1.0' })).toContain(' by hammer-box 0.1.0.');
    expect(renderReportMarkdown({ ...r, hammer_box_version: '1.2.0-rc.1+x' })).toContain(
      ' by hammer-box 1.2.0-rc.1+x.',
    );
    expect(renderReportMarkdown({ ...r, hammer_box_version: '<b>1</b>' })).toContain(
      ' by hammer-box \\<b\\>1\\</b\\>.',
    );
  });
});
