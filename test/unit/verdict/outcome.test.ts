// The one outcome every verdict derives from: runVerdict over states of every shape, and the rule
// each outcome carries (exit code, risk word, badge colour, draft).
import { describe, expect, it } from 'vitest';
import { RUN_STATUSES, type RunState, type TestRecord } from '../../../src/state/run-state.js';
import { OUTCOME_RULES, readTest, runVerdict, verdictRule } from '../../../src/verdict/index.js';
import { iteration, makeState, testRecord } from '../state/make-state.js';

const T = 'test_calc.py::test_total';
const M = 'test_calc.py::test_mean';
const X = 'test_text.py::test_message';

/** A pytest run naming these failing tests (and three passing). */
const pytest = (ids: string[], extra: Partial<TestRecord> = {}): TestRecord =>
  testRecord(ids.length === 0 ? 0 : 1, {
    parsed: {
      runners: ['pytest'],
      failing: ids.map((id) => ({
        runner: 'pytest',
        scope: 'test',
        id,
        name: id,
        package: null,
        file: null,
        line: null,
      })),
      counts: [{ runner: 'pytest', passed: 3, failed: ids.length }],
    },
    ...extra,
  });
const noTests = (): TestRecord => testRecord(5, { parsed: { runners: [], failing: [], counts: [], no_tests: true } });

/** An ended run: this baseline, one applied patch per test record, and a directive. */
function ended(baseline: TestRecord | null, tests: TestRecord[], extra: Partial<RunState> = {}): RunState {
  return makeState({
    status: 'failed',
    reason: 'max_iterations',
    baseline,
    iterations: tests.map((t, k) => iteration(k + 1, 'applied', { patch: String.fromCharCode(97 + k), test: t })),
    ...extra,
  });
}

const directive = (text: string): Pick<RunState, 'directive'> => ({
  directive: { path: 'd.md', text, sha256: 'a'.repeat(64) },
});

describe('runVerdict: a run that ended on its own is judged from its tests', () => {
  it.each<[string, RunState, string, RegExp]>([
    ['the last run passes', ended(pytest([T]), [pytest([])]), 'stable', /^the tests pass after 1 applied patch$/],
    [
      'the tests passed at baseline, no change',
      makeState({ status: 'stable', reason: 'tests_pass_baseline', baseline: pytest([]) }),
      'stable',
      /^the tests pass without changes$/,
    ],
    [
      'the named test passes, a failure outside it remains',
      ended(pytest([T, X]), [pytest([X])], directive('Make test_total pass.')),
      'stable',
      /^every targeted test \(named in the directive\) passes after 1 applied patch; 1 test outside them failed/,
    ],
    [
      'the named file: one of its two failing tests fixed (the finding)',
      ended(pytest([T, M]), [pytest([M])], {
        status: 'stable',
        reason: 'baseline_failures_remain',
        ...directive('Make all tests in test_calc.py pass.'),
      }),
      'partial',
      /^1 of the 2 targeted tests \(in the test files the directive names\) passes now; 1 still fails: test_calc\.py::test_mean$/,
    ],
    [
      'nothing named: every baseline failure is a target',
      ended(pytest([T, X]), [pytest([X])]),
      'partial',
      /^1 of the 2 targeted tests \(every test that failed at baseline\)/,
    ],
    [
      'progress, then a regression',
      ended(pytest([T, X]), [pytest([X]), pytest([X, M])]),
      'failed',
      /^1 test that was not failing this way at baseline fails now$/,
    ],
    ['nothing fixed', ended(pytest([T]), [pytest([T])]), 'failed', /^no test that failed at baseline passes yet$/],
    [
      'no patch applied, the baseline fails',
      makeState({ status: 'failed', reason: 'no_usable_diff', baseline: pytest([T]) }),
      'failed',
      /^no patch was applied; no test that failed at baseline passes yet$/,
    ],
    [
      'only declared known failures left',
      ended(pytest([T, X]), [pytest([X])], { config: { tests: { known_failures: ['test_text.py::*'] } } }),
      'stable',
      /every test that fails is declared in \[tests\] known_failures$/,
    ],
    [
      'no tests, at baseline and after',
      ended(noTests(), [noTests()]),
      'untested',
      /^the repository has no tests to run/,
    ],
    [
      'no tests, and the model answered NO_CHANGES',
      makeState({
        status: 'untested',
        reason: 'no_tests',
        baseline: noTests(),
        iterations: [iteration(1, 'no_changes')],
      }),
      'untested',
      /the model made no change$/,
    ],
    [
      'no tests, and the model never made a usable change',
      makeState({
        status: 'failed',
        reason: 'no_usable_diff',
        baseline: noTests(),
        iterations: [iteration(1, 'unusable'), iteration(2, 'unusable'), iteration(3, 'unusable')],
      }),
      'failed',
      /^no patch was applied, and the repository has no tests to run$/,
    ],
    [
      'tests at baseline, none after the patch',
      ended(pytest([T]), [noTests()]),
      'failed',
      /^the last test run found no test to run, although the baseline ran tests$/,
    ],
    [
      'no tests at baseline, the patch added tests that pass',
      ended(noTests(), [pytest([])]),
      'stable',
      /^the tests pass after 1 applied patch$/,
    ],
    [
      'the last run timed out',
      ended(pytest([T]), [pytest([T], { timed_out: true, duration_ms: 300_000 })]),
      'unknown',
      /^the last test run timed out after 300 s: its result is unknown$/,
    ],
    [
      'the last run timed out with exit 0',
      ended(pytest([T]), [testRecord(0, { timed_out: true, duration_ms: 90_000 })]),
      'unknown',
      /timed out after 90 s/,
    ],
    [
      "the last run's output could not be read (exit 0)",
      ended(pytest([T]), [
        testRecord(0, { parsed: { runners: [], failing: [], counts: [], unread: 'no runner summary recognised' } }),
      ]),
      'unknown',
      /^the last test run exited 0, but its output could not be read \(no runner summary recognised\)$/,
    ],
    [
      'records from before test output was read: the exit code',
      ended(testRecord(1), [testRecord(1)]),
      'failed',
      /^the tests fail \(exit 1\)$/,
    ],
    [
      'a focused last run never decides a pass',
      ended(pytest([T, X]), [pytest([X], { scope: 'focused' })]),
      'failed',
      /not a whole run/,
    ],
    [
      'no test ever ran: the recorded status stands',
      makeState({ status: 'stable', reason: 'tests_pass', baseline: null }),
      'stable',
      /no test ran/,
    ],
  ])('%s: %s', (_name, state, outcome, why) => {
    const v = runVerdict(state);
    expect(v.outcome).toBe(outcome);
    expect(v.why).toMatch(why);
  });

  it('ignores the status an older hammer-box recorded for a run that ended: the tests decide', () => {
    const base = ended(pytest([T, X]), [pytest([X])]);
    for (const status of ['stable', 'failed', 'partial', 'untested', 'unknown'] as const)
      expect(runVerdict({ ...base, status }).outcome).toBe('partial');
  });

  it('takes the known failures given, else those the run recorded', () => {
    const state = ended(pytest([T, X]), [pytest([X])]);
    expect(runVerdict(state, ['test_text.py::*']).outcome).toBe('stable');
    expect(runVerdict(state).outcome).toBe('partial');
  });

  it('says the targets and how many pass', () => {
    const v = runVerdict(ended(pytest([T, M]), [pytest([M])], directive('Make all tests in test_calc.py pass.')));
    expect(v.targets).toMatchObject({ by: 'file', total: 2, passing: 1 });
    expect(v.targets?.failing.map((t) => t.id)).toEqual([M]);
    expect(v.applied).toBe(1);
    expect(v.final).toBe('failed');
  });
});

describe('runVerdict: flaky baseline failures', () => {
  const rerun = (ids: string[], passed: number, scope?: 'focused'): TestRecord =>
    pytest(ids, {
      ...(scope ? { scope } : {}),
      parsed: {
        runners: ['pytest'],
        failing: ids.map((id) => ({
          runner: 'pytest',
          scope: 'test',
          id,
          name: id,
          package: null,
          file: null,
          line: null,
        })),
        counts: [{ runner: 'pytest', passed, failed: ids.length }],
      },
    });

  it('a failure that passed on the rerun is flaky, said, and not a target: it may fail again', () => {
    const state = ended(pytest([T, X]), [pytest([X])], { baseline_rerun: rerun([T], 1, 'focused') });
    const v = runVerdict(state);
    expect(v.flaky.map((t) => t.id)).toEqual([X]);
    expect(v.outcome).toBe('stable');
    expect(v.why).toMatch(/flaky at baseline \(it passed on its rerun\)$/);
  });

  it('a failure that failed again on the rerun is not flaky', () => {
    const v = runVerdict(ended(pytest([T, X]), [pytest([X])], { baseline_rerun: rerun([T, X], 0, 'focused') }));
    expect(v.flaky).toEqual([]);
    expect(v.outcome).toBe('partial');
  });

  it('a flaky test the directive names stays a target', () => {
    const v = runVerdict(
      ended(pytest([T, X]), [pytest([T])], {
        baseline_rerun: rerun([X], 1, 'focused'),
        ...directive('Make test_total pass.'),
      }),
    );
    // said flaky, and still held to: the directive asks for it
    expect(v.flaky.map((t) => t.id)).toEqual([T]);
    expect(v.outcome).toBe('failed');
  });

  it('is said on every outcome, also before the run ended', () => {
    const running = makeState({
      status: 'running',
      baseline: pytest([T, X]),
      baseline_rerun: rerun([T], 1, 'focused'),
    });
    expect(runVerdict(running)).toMatchObject({ outcome: 'running', why: 'the run is still going' });
    expect(runVerdict(running).flaky.map((t) => t.id)).toEqual([X]);
  });
});

describe('runVerdict: runs that did not end on their own', () => {
  it('running, interrupted and error are what the status says', () => {
    const base = ended(pytest([T]), [pytest([])]);
    expect(runVerdict({ ...base, status: 'running', reason: null }).outcome).toBe('running');
    expect(runVerdict({ ...base, status: 'interrupted', reason: 'interrupted' })).toMatchObject({
      outcome: 'interrupted',
      why: 'the run was interrupted before it ended',
    });
    const error = {
      ...base,
      status: 'error' as const,
      reason: 'error' as const,
      errors: [{ at: '2026-11-22T14:05:01.000Z', code: 'MODEL_UNREACHABLE', message: 'connection refused' }],
    };
    expect(runVerdict(error)).toMatchObject({
      outcome: 'error',
      why: 'stopped on an error: MODEL_UNREACHABLE: connection refused',
    });
  });
});

describe('OUTCOME_RULES', () => {
  it('gives every status a rule; only stable exits 0, says pass, is green and opens a ready pull request', () => {
    for (const status of RUN_STATUSES) {
      const rule = OUTCOME_RULES[status];
      const isStable = status === 'stable';
      expect(rule.exitCode === 0, status).toBe(isStable);
      expect(rule.risk === 'pass', status).toBe(isStable);
      expect(rule.colour === 'green', status).toBe(isStable);
      expect(rule.ready, status).toBe(isStable);
    }
  });

  it('gives each outcome of an ended run its own exit code, risk word and colour', () => {
    const ended = ['stable', 'partial', 'untested', 'unknown', 'failed'] as const;
    for (const key of ['exitCode', 'risk', 'colour'] as const)
      expect(new Set(ended.map((o) => OUTCOME_RULES[o][key])).size, key).toBe(ended.length);
    expect(ended.map((o) => OUTCOME_RULES[o].exitCode)).toEqual([0, 4, 5, 6, 1]);
    expect(OUTCOME_RULES.interrupted.exitCode).toBe(130);
  });

  it('verdictRule looks the outcome up', () => {
    expect(verdictRule({ outcome: 'partial' })).toBe(OUTCOME_RULES.partial);
  });
});

describe('readTest', () => {
  it('reads a run in one word; a timeout or unread output is never a pass', () => {
    expect(readTest(testRecord(0))).toBe('passed');
    expect(readTest(testRecord(1))).toBe('failed');
    expect(readTest(testRecord(0, { timed_out: true }))).toBe('timed_out');
    expect(readTest(noTests())).toBe('no_tests');
    expect(readTest(testRecord(0, { parsed: { runners: [], failing: [], counts: [], unread: 'why' } }))).toBe('unread');
    expect(
      readTest(
        testRecord(0, { parsed: { runners: ['tap'], failing: [], counts: [{ runner: 'tap', passed: 1, failed: 2 }] } }),
      ),
    ).toBe('failed');
  });
});
