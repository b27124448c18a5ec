// `batch` on the terminal: progress lines, the summary, the exit code and --retry.
import { describe, expect, it } from 'vitest';
import type { Report } from '../../../src/batch/report-schema.js';
import { batchEventLine, progressText } from '../../../src/cli/batch-progress.js';
import { batchExitCode, renderBatchSummary } from '../../../src/cli/batch-summary.js';
import { parseRetry } from '../../../src/cli/commands/batch.js';

const progress = { done: 3, running: 2, left: 5, stable: 2, finished: 3, etaMs: 95_000 };

function report(statuses: Report['tasks'][number]['status'][], state: Report['state'] = 'finished'): Report {
  const counts = Object.fromEntries(
    [
      'stable',
      'tests_fail',
      'no_patch',
      'budget_exhausted',
      'setup_failed',
      'model_error',
      'infra_error',
      'timeout',
      'running',
      'pending',
    ].map((s) => [s, statuses.filter((x) => x === s).length]),
  ) as Report['counts'];
  return {
    schema_version: 1,
    generated_at: '2026-01-01T00:00:00.000Z',
    hammer_box_version: '0',
    tasks_file: '/t',
    state,
    model: 'ollama:m',
    counts,
    ids: {} as Report['ids'],
    resolved: { stable: counts.stable, finished: statuses.length - counts.pending - counts.running },
    pass_at_k: [{ k: 1, value: 0.5, tasks: 2 }],
    totals: {
      tasks: statuses.length,
      attempts: 0,
      iterations: 0,
      wall_ms: 0,
      model_ms: 0,
      tokens_in: 0,
      tokens_out: 0,
    },
    tasks: statuses.map((status, i) => ({
      id: `t${i}`,
      line: i + 1,
      status,
      attempts_wanted: 1,
      samples: 1,
      solved: 0,
      iterations: 0,
      wall_ms: 0,
      model_ms: 0,
      tokens_in: 0,
      tokens_out: 0,
      attempts: [],
    })),
  };
}

describe('batch progress', () => {
  it('says done, running, left, resolved so far and the time left', () => {
    expect(progressText(progress)).toBe('[3 done, 2 running, 5 left; resolved 2/3, about 1 min 35 s left]');
    expect(progressText({ ...progress, etaMs: null })).toBe('[3 done, 2 running, 5 left; resolved 2/3]');
  });

  it("shows an attempt's end with its error, sanitised and cut", () => {
    const line = batchEventLine({
      type: 'attempt_finished',
      task: 'parser-1',
      attempt: 2,
      status: 'setup_failed',
      wallMs: 1500,
      iterations: 0,
      detail: `SETUP_FAILED: \u001b]0;owned\u0007pip failed\n${'x'.repeat(500)}`,
      progress,
    })!;
    expect(line).toMatch(
      /^ {2}ended {4}parser-1 attempt 2: setup_failed after 1\.5 s \(0 iterations\) - SETUP_FAILED: pip failed x+… \[3 done/,
    );
    expect(line).not.toMatch(/[\u0000-\u001f]/);
  });
});

describe('batch summary and exit code', () => {
  it('exits 0 when every task has a verdict, 1 for infra or model errors and unfinished tasks, 130 when interrupted', () => {
    expect(
      batchExitCode({ interrupted: false, report: report(['stable', 'no_patch', 'timeout', 'setup_failed']) }),
    ).toBe(0);
    expect(batchExitCode({ interrupted: false, report: report(['stable', 'infra_error']) })).toBe(1);
    expect(batchExitCode({ interrupted: false, report: report(['model_error']) })).toBe(1);
    expect(batchExitCode({ interrupted: false, report: report(['pending']) })).toBe(1);
    expect(batchExitCode({ interrupted: true, report: report(['stable']) })).toBe(130);
  });

  it('says how to continue: --resume for unfinished tasks, --retry for infra and model errors', () => {
    const lines = renderBatchSummary(
      {
        report: report(['stable', 'infra_error', 'pending'], 'interrupted'),
        interrupted: true,
        reportPath: '/o/report.json',
        markdownPath: '/o/report.md',
      },
      ['hammer-box', 'batch', 'my tasks.jsonl', '--out', '/o'],
    );
    expect(lines[0]).toBe('hammer-box batch: interrupted: 3 tasks, resolved 1 of 2 finished (50.0%)');
    expect(lines).toContain("  hammer-box batch 'my tasks.jsonl' --out /o --resume");
    expect(lines).toContain("  hammer-box batch 'my tasks.jsonl' --out /o --resume --retry infra");
  });
});

describe('--retry', () => {
  it('reads a comma-separated list of kinds as statuses', () => {
    expect(parseRetry(undefined)).toEqual([]);
    expect(parseRetry('infra')).toEqual(['infra_error']);
    expect(parseRetry('infra, model,infra,timeout,setup')).toEqual([
      'infra_error',
      'model_error',
      'timeout',
      'setup_failed',
    ]);
    expect(() => parseRetry('infra,network')).toThrow(/"network" is not one of infra, model, timeout, setup/);
  });
});
