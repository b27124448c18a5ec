// The tests part of PR_SUMMARY.md, built on test-output's parsers over the runs' test logs.
import { describe, expect, it } from 'vitest';
import { renderPrSummary } from '../../../src/report/pr-summary.js';
import { summaryExtras } from '../../../src/report/summary-extras.js';
import type { TestRecord } from '../../../src/state/run-state.js';
import { iteration, makeState, testRecord } from '../state/make-state.js';

const PYTEST_BASELINE = `$ python3 -m pytest -q
# exit 1 after 900 ms
----- stdout (400 bytes) -----
F.F.                                                                     [100%]
=================================== FAILURES ===================================
__________________________________ test_total __________________________________
    def test_total():
>       assert total([1, 2]) == 3
E       assert -3 == 3
=========================== short test summary info ============================
FAILED test_calc.py::test_total - assert -3 == 3
FAILED test_calc.py::test_mean - assert -1.5 == 1.5
2 failed, 2 passed in 0.03s
----- stderr (0 bytes) -----
`;
const PYTEST_PASS = `$ python3 -m pytest -q
# exit 0 after 800 ms
----- stdout (40 bytes) -----
....                                                                     [100%]
4 passed in 0.02s
----- stderr (0 bytes) -----
`;
const PYTEST_ONE_LEFT = `$ python3 -m pytest -q
# exit 1 after 900 ms
----- stdout (400 bytes) -----
..F.                                                                     [100%]
=================================== FAILURES ===================================
__________________________________ test_mean ___________________________________
    def test_mean():
>       assert mean([1, 2]) == 1.5
E       assert -1.5 == 1.5
=========================== short test summary info ============================
FAILED test_calc.py::test_mean - assert -1.5 == 1.5
1 failed, 3 passed in 0.03s
----- stderr (0 bytes) -----
`;

/** What pytest's output said: these tests failing, `passed` passing. */
const pytest = (ids: string[], passed: number): TestRecord['parsed'] => ({
  runners: ['pytest'],
  failing: ids.map((id) => ({ runner: 'pytest', scope: 'test', id, name: id, package: null, file: null, line: null })),
  counts: [{ runner: 'pytest', passed, failed: ids.length }],
});

function run(latestLog: string, exit: number, directive = 'Fix the add function in calc.py so tests pass.') {
  const failing = [...latestLog.matchAll(/^FAILED (\S+)/gm)].map((m) => m[1]!);
  const last = iteration(1, 'applied', {
    patch: 'a',
    test: testRecord(exit, { artifact: 'iter-01-test.log', parsed: pytest(failing, 4 - failing.length) }),
  });
  const state = makeState({
    status: exit === 0 ? 'stable' : 'failed',
    reason: exit === 0 ? 'tests_pass' : 'max_iterations',
    directive: { path: 'd.md', text: directive, sha256: 'a'.repeat(64) },
    baseline: testRecord(1, {
      artifact: 'baseline-test.log',
      parsed: pytest(['test_calc.py::test_total', 'test_calc.py::test_mean'], 2),
    }),
    iterations: [last],
  });
  const logs: Record<string, string> = {
    'baseline-test.log': PYTEST_BASELINE,
    'iter-01-test.log': latestLog,
    'iter-01-answer.md': 'Added instead of subtracting.\n\n```diff\n--- a/calc.py\n+++ b/calc.py\n```\n',
  };
  const read = (name: string) =>
    name in logs ? Promise.resolve(logs[name]!) : Promise.reject(new Error(`no ${name}`));
  return { state, read };
}

describe('the tests in PR_SUMMARY.md', () => {
  it('names the tests that failed at baseline and pass now', async () => {
    const { state, read } = run(PYTEST_PASS, 0);
    const md = renderPrSummary(state, await summaryExtras(state, read));
    expect(md).toContain('**Tests: failing before, passing now**');
    expect(md).toContain(
      'Failed at baseline, pass now (2):\n\n- `test_calc.py::test_total`\n- `test_calc.py::test_mean`',
    );
    expect(md).not.toContain('Still failing');
    expect(md).toContain("The model's explanation:\n\n> Added instead of subtracting.");
  });

  it('names what is fixed and the targeted tests that still fail: a partial fix', async () => {
    const { state, read } = run(PYTEST_ONE_LEFT, 1);
    const md = renderPrSummary(state, await summaryExtras(state, read));
    expect(md).toContain('**Tests: some targeted tests pass now, others still fail**');
    expect(md).toContain('Failed at baseline, pass now (1):\n\n- `test_calc.py::test_total`');
    // no test named: the one left is a target, listed apart from the fixed one
    expect(md).toContain('Targeted, still failing (1):\n\n- `test_calc.py::test_mean`');
    expect(md).not.toContain('outside the targeted tests');
    expect(md).toContain('**Risk: partial** - 1 of the 2 targeted tests');
    expect(md).not.toContain('Fail now, did not fail this way at baseline');
  });

  it('gives the counts when the output names no test', async () => {
    const { state, read } = run('$ python3 -m pytest -q -rN\n....\n4 passed in 0.05s\n', 0);
    const baseline = '$ python3 -m pytest -q -rN\nFFF.                  [100%]\n3 failed, 1 passed in 0.10s\n';
    const md = renderPrSummary(
      state,
      await summaryExtras(state, (n) => (n === 'baseline-test.log' ? Promise.resolve(baseline) : read(n))),
    );
    expect(md).toContain('**Tests: failing before, passing now**');
    expect(md).not.toContain('Failed at baseline, pass now');
    expect(md).toContain('At baseline: 3 failed, 1 passed. Now: 0 failed, 4 passed.');
  });

  it('leaves the names out, not the summary, when a log cannot be read', async () => {
    const { state } = run(PYTEST_PASS, 0);
    const md = renderPrSummary(state, await summaryExtras(state, () => Promise.reject(new Error('gone'))));
    expect(md).toContain('**Tests: failing before, passing now**');
    expect(md).not.toContain('Failed at baseline, pass now');
  });

  it('lists the failures outside the targets, the known ones and the new ones apart from the fixed ones', async () => {
    const { state, read } = run(PYTEST_ONE_LEFT, 1, 'Make test_total pass.');
    const md = renderPrSummary(state, await summaryExtras(state, read));
    expect(md).toContain('**Tests: every targeted test passes now; only failures outside them remain**');
    expect(md).toContain('**Risk: pass** - every targeted test (named in the directive) passes after 1 applied patch');
    expect(md).toContain('Failed at baseline, pass now (1):\n\n- `test_calc.py::test_total`');
    expect(md).toContain(
      'Failed at baseline and still fail the same way, outside the targeted tests (1):\n\n- `test_calc.py::test_mean`',
    );
    const known = {
      ...state,
      config: { ...state.config, tests: { known_failures: ['test_calc.py::test_mean'] } },
    };
    const md2 = renderPrSummary(known, await summaryExtras(known, read));
    expect(md2).toContain('Declared known failures, `[tests] known_failures` (1):\n\n- `test_calc.py::test_mean`');
    const { state: fresh, read: read2 } = run(PYTEST_ONE_LEFT.replaceAll('test_mean', 'test_median'), 1);
    const md3 = renderPrSummary(fresh, await summaryExtras(fresh, read2));
    expect(md3).toContain('Fail now, did not fail this way at baseline (1):\n\n- `test_calc.py::test_median`');
    expect(md3).toContain('**Risk: fail**');
  });

  it('lists the flaky baseline failures apart, never as targets', async () => {
    const { state, read } = run(PYTEST_ONE_LEFT, 1);
    const rerun = testRecord(1, { scope: 'focused', parsed: pytest(['test_calc.py::test_total'], 1) });
    const flaky = { ...state, baseline_rerun: rerun };
    const md = renderPrSummary(flaky, await summaryExtras(flaky, read));
    expect(md).toContain(
      'Flaky at baseline: failed, then passed when run again at once; not targets of this run (1):\n\n- `test_calc.py::test_mean`',
    );
    expect(md).toContain('**Risk: pass**');
    expect(md).not.toContain('Targeted, still failing');
  });
});
