import { describe, expect, it } from 'vitest';
import { asksForFix, baselinePassWarning } from '../../../src/verdict/baseline-warning.js';

describe('the baseline warning', () => {
  it('warns when the tests pass at baseline on a directive that asks for a fix', () => {
    const baseline = { exit_code: 0, timed_out: false, command: 'npm test' };
    expect(
      baselinePassWarning({ directive: { text: 'Fix the parser: it crashes on empty input' }, baseline }),
    ).toContain('already pass at the base commit (npm test)');
    expect(baselinePassWarning({ directive: { text: 'Add a --verbose flag' }, baseline })).toBeNull();
    expect(baselinePassWarning({ directive: { text: 'fix it' }, baseline: { ...baseline, exit_code: 1 } })).toBeNull();
    expect(baselinePassWarning({ directive: { text: 'fix it' }, baseline: null })).toBeNull();
  });

  it('warns, too, when the baseline exits 0 with output nothing could be read from', () => {
    const baseline = { exit_code: 0, timed_out: false, command: 'npm test', unread: true as const };
    expect(baselinePassWarning({ directive: { text: 'Fix the rounding bug' }, baseline })).toMatch(
      /exits 0 at the base commit \(npm test\), but hammer-box cannot read its output.*unread, never a pass/,
    );
    expect(baselinePassWarning({ directive: { text: 'Add a flag' }, baseline })).toBeNull();
  });

  it('reads fix requests as such', () => {
    for (const t of ['total() returns the wrong sum', 'the test fails', 'a regression in 2.0', 'bug in calc'])
      expect(asksForFix(t), t).toBe(true);
    expect(asksForFix('document the API')).toBe(false);
  });
});
