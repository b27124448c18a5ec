import { describe, expect, it } from 'vitest';
import { toTestRecord } from '../../../src/loop/test-record.js';
import { TestRecordSchema } from '../../../src/state/run-state.js';
import type { ExecResult } from '../../../src/sandbox/types.js';

function result(stdout: string, extra: Partial<ExecResult> = {}): ExecResult {
  return {
    exitCode: 1,
    stdout: { text: stdout, totalBytes: 5_000_000, droppedBytes: 4_000_000 },
    stderr: { text: 'warn\n', totalBytes: 5, droppedBytes: 0 },
    durationMs: 1234,
    timedOut: false,
    ...extra,
  };
}

describe('toTestRecord', () => {
  it('keeps sanitised head and tail lines, byte counts and the exit code', () => {
    const out = `\u001b[31mE   assert 1 == 2\u001b[0m\n${Array.from({ length: 50 }, (_, k) => `l${k}`).join('\n')}\n`;
    const rec = toTestRecord(result(out), {
      command: 'pytest',
      artifact: 'iter-01-test.log',
      headLines: 2,
      tailLines: 2,
    });
    expect(rec).toEqual({
      command: 'pytest',
      exit_code: 1,
      duration_ms: 1234,
      timed_out: false,
      stdout_tail: 'E   assert 1 == 2\nl0\n[... 47 lines omitted ...]\nl48\nl49',
      stderr_tail: 'warn',
      total_bytes: 5_000_005,
      dropped_bytes: 4_000_000,
      artifact: 'iter-01-test.log',
    });
    expect(TestRecordSchema.safeParse(rec).success).toBe(true);
  });
  it('cuts a line without newlines (1 MB of output on one line) to a small size', () => {
    const rec = toTestRecord(result('x'.repeat(1_000_000)), {
      command: 'c',
      artifact: null,
      headLines: 40,
      tailLines: 80,
    });
    expect(rec.stdout_tail.length).toBeLessThan(600);
    expect(rec.stdout_tail).toContain('[... 999500 more characters]');
  });
  it('records a timeout', () => {
    expect(
      toTestRecord(result('', { timedOut: true, exitCode: 137 }), {
        command: 'c',
        artifact: null,
        headLines: 1,
        tailLines: 1,
      }),
    ).toMatchObject({
      timed_out: true,
      exit_code: 137,
    });
  });
});
