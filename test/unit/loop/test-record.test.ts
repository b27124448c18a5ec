import { readFileSync } from 'node:fs';
import path from 'node:path';
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
      failureLines: 40,
      maxFailures: 5,
    });
    expect(rec).toEqual({
      command: 'pytest',
      exit_code: 1,
      duration_ms: 1234,
      timed_out: false,
      stdout_tail: 'E   assert 1 == 2\nl0\n[... 47 lines omitted ...]\nl48\nl49',
      stderr_tail: 'warn',
      parsed: { runners: [], failing: [], counts: [] },
      unread: true,
      total_bytes: 5_000_005,
      dropped_bytes: 4_000_000,
      artifact: 'iter-01-test.log',
    });
    expect(TestRecordSchema.safeParse(rec).success).toBe(true);
  });
  it("says a run unread when nothing in its output can be read, and reads a home-made runner's counts", () => {
    const opts = {
      command: 'npm test',
      artifact: null,
      headLines: 40,
      tailLines: 80,
      failureLines: 40,
      maxFailures: 5,
    };
    const silent = toTestRecord(result('building...\ndone\n', { exitCode: 0 }), opts);
    expect(silent.unread).toBe(true);
    const own = toTestRecord(
      result(
        ' Testing plus...\n  Test number 28 failed\n  Expected: 29\n  Actual:   -1\n In total, 64 of 65 tests passed in 0.01 secs.\n',
        {
          exitCode: 0,
        },
      ),
      opts,
    );
    expect(own.unread).toBeUndefined();
    expect(own.parsed).toMatchObject({
      runners: ['generic'],
      counts: [{ runner: 'generic', passed: 64, failed: 1 }],
      failing: [{ runner: 'generic', id: 'plus: Test number 28' }],
    });
    expect(TestRecordSchema.safeParse(own).success).toBe(true);
  });

  it('cuts a line without newlines (1 MB of output on one line) to a small size', () => {
    const rec = toTestRecord(result('x'.repeat(1_000_000)), {
      command: 'c',
      artifact: null,
      headLines: 40,
      tailLines: 80,
      failureLines: 40,
      maxFailures: 5,
    });
    expect(rec.stdout_tail.length).toBeLessThan(600);
    expect(rec.stdout_tail).toContain('[... 999500 more characters]');
  });
  it('cuts once, keeping every failure block between head and tail, and records the failing tests', () => {
    const text = readFileSync(
      path.join(import.meta.dirname, '../../fixtures/test-output/pytest-9-default.txt'),
      'utf8',
    );
    const rec = toTestRecord(result(text), {
      command: 'pytest',
      artifact: null,
      headLines: 3,
      tailLines: 3,
      failureLines: 40,
      maxFailures: 10,
    });
    for (const header of ['test_add', 'test_add_param[2-5-7]', 'TestStack.test_error', 'test_load_missing']) {
      expect(rec.stdout_tail).toContain(`_ ${header} _`);
    }
    // every marker counts the lines it stands for: kept lines + counted lines = the output's lines
    const kept = rec.stdout_tail.split('\n');
    const counted = kept.map((l) => Number(/^\[\.\.\. (\d+) lines omitted \.\.\.\]$/.exec(l)?.[1] ?? 0));
    const markers = counted.filter((n) => n > 0).length;
    expect(kept.length - markers + counted.reduce((a, b) => a + b, 0)).toBe(text.trimEnd().split('\n').length);
    expect(rec.parsed?.runners).toEqual(['pytest']);
    expect(rec.parsed?.counts).toEqual([{ runner: 'pytest', passed: 5, failed: 7 }]);
    expect(rec.parsed?.failing.map((f) => f.id)).toContain('tests/test_calc.py::TestStack::test_lifo');
    expect(rec.parsed?.failing[0]).toEqual({
      runner: 'pytest',
      scope: 'test',
      id: 'tests/test_calc.py::test_add',
      name: 'test_add',
      package: null,
      file: 'tests/test_calc.py',
      line: 7,
      kind: 'AssertionError',
    });
    expect(TestRecordSchema.safeParse(rec).success).toBe(true);
  });

  it('reads each stream: Jest writes its results to stderr', () => {
    const jest = readFileSync(path.join(import.meta.dirname, '../../fixtures/test-output/jest-30.txt'), 'utf8');
    const rec = toTestRecord(
      { ...result(''), stderr: { text: jest, totalBytes: jest.length, droppedBytes: 0 } },
      { command: 'npx jest', artifact: null, headLines: 2, tailLines: 2, failureLines: 40, maxFailures: 5 },
    );
    expect(rec.parsed?.failing.map((f) => f.id)).toEqual([
      'cart discount takes ten percent off',
      'top-level: order of items does not matter',
      'money formats large amounts with separators',
    ]);
    expect(rec.stderr_tail).toContain('> 10 |     expect(money(1234.5)).toBe');
  });

  it('records a timeout', () => {
    expect(
      toTestRecord(result('', { timedOut: true, exitCode: 137 }), {
        command: 'c',
        artifact: null,
        headLines: 1,
        tailLines: 1,
        failureLines: 40,
        maxFailures: 5,
      }),
    ).toMatchObject({
      timed_out: true,
      exit_code: 137,
    });
  });

  it('records that the runner found no test to run', () => {
    const opts = {
      command: 'python3 -m pytest -q',
      artifact: null,
      headLines: 5,
      tailLines: 5,
      failureLines: 40,
      maxFailures: 5,
    };
    const none = toTestRecord(result('\nno tests ran in 0.00s\n', { exitCode: 5 }), opts);
    expect(none.parsed).toEqual({ runners: [], failing: [], counts: [], no_tests: true });
    expect(TestRecordSchema.parse(none)).toEqual(none);
    // said on stderr (unittest), it counts the same
    const unittest = toTestRecord(
      {
        ...result('', { exitCode: 5 }),
        stderr: { text: '\n---\nRan 0 tests in 0.000s\n\nNO TESTS RAN\n', totalBytes: 40, droppedBytes: 0 },
      },
      opts,
    );
    expect(unittest.parsed?.no_tests).toBe(true);
    expect(toTestRecord(result('1 failed in 0.02s\n'), opts).parsed?.no_tests).toBeUndefined();
  });
});
