import { describe, expect, it } from 'vitest';
import { compareVerdicts, type Verdict } from '../../../src/api/verify.js';

const verdict = (over: Partial<Verdict> = {}): Verdict => ({
  status: 'stable',
  reason: 'tests_pass',
  baseline: { passed: false, timed_out: false, failing: ['test_calc.py::test_total'] },
  final: { passed: true, timed_out: false, failing: [] },
  ...over,
});

describe('compareVerdicts', () => {
  it('finds nothing when the verdict reproduces', () => {
    expect(compareVerdicts(verdict(), verdict())).toEqual([]);
  });

  it('names the outcome and each test that behaves differently', () => {
    const now = verdict({
      status: 'failed',
      reason: 'max_iterations',
      final: { passed: false, timed_out: false, failing: ['test_env.py::test_steady'] },
    });
    expect(compareVerdicts(verdict(), now)).toEqual([
      'the run ended failed (max_iterations), recorded stable (tests_pass)',
      'the final tests fail now; recorded: pass',
      'final: fail now, passed in the recorded run: test_env.py::test_steady',
    ]);
  });

  it('says when a baseline failure passes now, or a run now times out', () => {
    const now = verdict({ baseline: { passed: true, timed_out: false, failing: [] } });
    expect(compareVerdicts(verdict(), now)).toEqual([
      'the baseline tests pass now; recorded: fail',
      'baseline: pass now, failed in the recorded run: test_calc.py::test_total',
    ]);
    expect(compareVerdicts(verdict(), verdict({ final: { passed: false, timed_out: true, failing: [] } }))).toContain(
      'the final tests timed out now',
    );
  });
});
