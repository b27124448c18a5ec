import { describe, expect, it } from 'vitest';
import { testTimeoutMs } from '../../../src/loop/test-timeout.js';

const tools = { test_timeout: 300, baseline_timeout: 1800, test_timeout_factor: 3 };

describe('the test timeout follows the suite', () => {
  it('the first baseline gets the generous limit (never less than test_timeout)', () => {
    expect(testTimeoutMs(tools, null)).toBe(1_800_000);
    expect(testTimeoutMs({ ...tools, test_timeout: 3600 }, null)).toBe(3_600_000);
  });

  it('later runs get a multiple of what the baseline took, at least test_timeout', () => {
    // mathjs: 2 minutes of tests and then eslint, 260 s in all
    expect(testTimeoutMs(tools, { duration_ms: 260_000, timed_out: false })).toBe(780_000);
    expect(testTimeoutMs(tools, { duration_ms: 20_000, timed_out: false })).toBe(300_000);
    expect(testTimeoutMs({ ...tools, test_timeout: 3 }, { duration_ms: 6_500, timed_out: false })).toBe(19_500);
  });

  it('a baseline that timed out gives later runs the time it had', () => {
    expect(testTimeoutMs(tools, { duration_ms: 1_800_200, timed_out: true })).toBe(1_800_200);
  });
});
