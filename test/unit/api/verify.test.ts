import { describe, expect, it } from 'vitest';
import { compareVerdicts, type Verdict } from '../../../src/api/verify.js';

const verdict = (over: Partial<Verdict> = {}): Verdict => ({
  outcome: 'stable',
  why: 'every targeted test passes',
  baseline: { reading: 'failed', failing: ['test_calc.py::test_total'] },
  final: { reading: 'passed', failing: [] },
  ...over,
});

describe('compareVerdicts', () => {
  it('finds nothing when the verdict reproduces', () => {
    expect(compareVerdicts(verdict(), verdict())).toEqual([]);
  });

  it('names the outcome and each test that behaves differently', () => {
    const now = verdict({
      outcome: 'failed',
      why: 'a test that passed at baseline fails now',
      final: { reading: 'failed', failing: ['test_env.py::test_steady'] },
    });
    expect(compareVerdicts(verdict(), now)).toEqual([
      'the run ended failed (a test that passed at baseline fails now), recorded stable (every targeted test passes)',
      'the final tests fail now; recorded: pass',
      'final: fail now, passed in the recorded run: test_env.py::test_steady',
    ]);
  });

  it('says when a baseline failure passes now, or a run now times out', () => {
    const now = verdict({ baseline: { reading: 'passed', failing: [] } });
    expect(compareVerdicts(verdict(), now)).toEqual([
      'the baseline tests pass now; recorded: fail',
      'baseline: pass now, failed in the recorded run: test_calc.py::test_total',
    ]);
    expect(compareVerdicts(verdict(), verdict({ final: { reading: 'timed_out', failing: [] } }))).toContain(
      'the final tests time out now; recorded: pass',
    );
  });
});
