// Judging a test run against the baseline: the failures that were there before (and how they
// failed), the declared known ones, the new ones, and the tests the directive targets.
import { describe, expect, it } from 'vitest';
import {
  directiveTests,
  failureKind,
  globMatch,
  judgeAgainstBaseline,
  knownFailureMatcher,
  parseTestOutput,
  summaryReportsFailures,
  type FailingTest,
  type RunFacts,
} from '../../../src/test-output/index.js';

const t = (id: string, extra: Partial<FailingTest> = {}): FailingTest => ({
  runner: 'pytest',
  scope: 'test',
  id,
  name: id.split('::').at(-1)!,
  package: null,
  file: id.split('::')[0]!,
  line: null,
  ...extra,
});

const TARGET = t('tests/test_calc.py::test_total', { kind: 'AssertionError' });
const OLD = t('tests/test_messages.py::test_error_text', { kind: 'AssertionError' });
const OTHER = t('tests/test_calc.py::test_mean', { kind: 'AssertionError' });

const run = (failing: FailingTest[], extra: Partial<RunFacts> = {}): RunFacts => ({
  passed: failing.length === 0,
  whole: true,
  runners: ['pytest'],
  failing,
  counts: [{ runner: 'pytest', passed: 3, failed: failing.length }],
  ...extra,
});

const judge = (before: FailingTest[], now: FailingTest[], directive = 'Fix the sum.', known: string[] = []) =>
  judgeAgainstBaseline(run(before), run(now), { knownFailures: known, directive });

describe('judgeAgainstBaseline', () => {
  it('a run that passed is passed, and every baseline failure is fixed', () => {
    const j = judge([TARGET, OLD], []);
    expect(j.verdict).toBe('passed');
    expect(j.fixed).toEqual([TARGET, OLD]);
  });

  it('no test named: every baseline failure is a target; one fixed and one left is partial', () => {
    const j = judge([TARGET, OLD], [OLD]);
    expect(j.verdict).toBe('partial');
    expect(j.fixed).toEqual([TARGET]);
    expect(j.preExisting).toEqual([OLD]);
    expect(j.targets).toEqual({ by: 'all', tests: [TARGET, OLD] });
    expect(j.remaining).toEqual([OLD]);
    expect(j.why).toBe(
      '1 of the 2 targeted tests (every test that failed at baseline) passes now; 1 still fails: tests/test_messages.py::test_error_text',
    );
  });

  it('nothing fixed yet: failing', () => {
    expect(judge([TARGET, OLD], [TARGET, OLD])).toMatchObject({
      verdict: 'failing',
      why: 'no test that failed at baseline passes yet',
    });
  });

  it('a test that passed at baseline and fails now always blocks, even with progress', () => {
    const j = judge([TARGET, OLD], [OLD, OTHER]);
    expect(j.verdict).toBe('failing');
    expect(j.regressions).toEqual([OTHER]);
    expect(j.why).toMatch(/^1 test that was not failing this way at baseline fails now/);
  });

  it('a test from before that now fails another way is not "the same way"', () => {
    const directive = 'Make test_total pass.';
    const j = judge([TARGET, OLD], [{ ...OLD, kind: 'TypeError' }], directive);
    expect(j.verdict).toBe('failing');
    expect(j.why).toMatch(/failed another way before/);
    // a kind the output did not name is not a difference
    expect(judge([TARGET, { ...OLD, kind: undefined }], [OLD], directive).verdict).toBe('baseline_only');
  });

  it('the tests the directive names must all pass; failures outside them may remain', () => {
    const directive = 'Fix total() so that test_total and test_mean pass.';
    expect(judge([TARGET, OTHER, OLD], [TARGET, OTHER, OLD], directive)).toMatchObject({
      verdict: 'failing',
      why: 'the tests the directive names still fail: tests/test_calc.py::test_total, tests/test_calc.py::test_mean',
    });
    expect(judge([TARGET, OTHER, OLD], [OTHER, OLD], directive)).toMatchObject({
      verdict: 'partial',
      remaining: [OTHER],
      why: '1 of the 2 targeted tests (named in the directive) passes now; 1 still fails: tests/test_calc.py::test_mean',
    });
    const j = judge([TARGET, OTHER, OLD], [OLD], directive);
    expect(j.verdict).toBe('baseline_only');
    expect(j.targets).toEqual({ by: 'name', tests: [TARGET, OTHER] });
    expect(j.remaining).toEqual([]);
  });

  it('a test file the directive names: all of its failing tests must pass, one is partial', () => {
    const directive = 'Make tests/test_calc.py pass.';
    expect(judge([TARGET, OTHER, OLD], [TARGET, OTHER, OLD], directive).why).toBe(
      'no failing test of the files the directive names passes yet',
    );
    const one = judge([TARGET, OTHER, OLD], [OTHER, OLD], directive);
    expect(one.verdict).toBe('partial');
    expect(one.targets).toEqual({ by: 'file', tests: [TARGET, OTHER] });
    expect(one.why).toMatch(/^1 of the 2 targeted tests \(in the test files the directive names\) passes now/);
    expect(judge([TARGET, OTHER, OLD], [OLD], directive).verdict).toBe('baseline_only');
  });

  it('flaky baseline failures are never targets, and may fail again', () => {
    const flaky = [OLD];
    const j = judgeAgainstBaseline(run([TARGET, OLD]), run([OLD]), { knownFailures: [], directive: 'Fix it.', flaky });
    expect(j.verdict).toBe('known_only');
    expect(j.flaky).toEqual([OLD]);
    expect(j.targets).toEqual({ by: 'all', tests: [TARGET] });
    expect(j.remaining).toEqual([]);
    // not fixed: the target still fails, the flaky one is not counted either way
    expect(
      judgeAgainstBaseline(run([TARGET, OLD]), run([TARGET]), { knownFailures: [], directive: 'Fix it.', flaky }),
    ).toMatchObject({ verdict: 'failing', remaining: [TARGET] });
    // a flaky test in the files the directive names is left out of that file's targets
    const byFile = judgeAgainstBaseline(run([TARGET, OTHER]), run([OTHER]), {
      knownFailures: [],
      directive: 'Make tests/test_calc.py pass.',
      flaky: [OTHER],
    });
    expect(byFile).toMatchObject({ verdict: 'known_only', targets: { by: 'file', tests: [TARGET] } });
  });

  it('a flaky test the directive names stays a target', () => {
    const j = judgeAgainstBaseline(run([TARGET, OLD]), run([TARGET]), {
      knownFailures: [],
      directive: 'Make test_total pass.',
      flaky: [TARGET],
    });
    expect(j.verdict).toBe('failing');
    expect(j.flaky).toEqual([]);
    expect(j.targets).toEqual({ by: 'name', tests: [TARGET] });
  });

  it('declared known failures are left out, even when they passed at baseline', () => {
    const known = ['tests/test_messages.py::*'];
    expect(judge([TARGET], [OLD], 'Fix it.', known)).toMatchObject({ verdict: 'known_only', known: [OLD] });
    expect(judge([TARGET, OLD], [OLD], 'Fix it.', known).verdict).toBe('known_only');
    // at baseline, only known failures: nothing to fix, and nothing new
    expect(judge([OLD], [OLD], 'Fix it.', known).verdict).toBe('known_only');
  });

  it('refuses to judge what it cannot see', () => {
    expect(
      judgeAgainstBaseline(run([TARGET, OLD]), run([OLD], { whole: false }), { knownFailures: [], directive: '' }).why,
    ).toMatch(/not a whole run/);
    expect(
      judgeAgainstBaseline(run([TARGET, OLD]), run([], { passed: false }), { knownFailures: [], directive: '' }).why,
    ).toBe('the test output names no failing test');
    expect(
      judgeAgainstBaseline(run([TARGET, OLD]), run([OLD], { runners: [] }), { knownFailures: [], directive: '' })
        .verdict,
    ).toBe('failing');
    const unnamed = run([OLD], { counts: [{ runner: 'pytest', passed: 3, failed: 2 }] });
    expect(judgeAgainstBaseline(run([TARGET, OLD]), unnamed, { knownFailures: [], directive: '' }).why).toBe(
      'the pytest summary counts 2 failures but the output names 1',
    );
  });
});

describe('known failures', () => {
  it('globs match the whole name: * any run of characters, ? one', () => {
    expect(globMatch('tests/test_net.py::*', 'tests/test_net.py::test_fetch[a-b]')).toBe(true);
    expect(globMatch('TestFetch*', 'TestFetchAll/slow')).toBe(true);
    expect(globMatch('test_?', 'test_a')).toBe(true);
    expect(globMatch('test_?', 'test_ab')).toBe(false);
    expect(globMatch('*mean', 'tests/test_calc.py::test_mean')).toBe(true);
    expect(globMatch('mean', 'tests/test_calc.py::test_mean')).toBe(false);
    // many stars over a long name: no runaway backtracking
    expect(globMatch('*a*a*a*a*a*a*a*a*b', 'a'.repeat(500))).toBe(false);
  });

  it('match the id, the printed name, or "package id"', () => {
    const go = t('TestFetch', { runner: 'go', package: 'example.com/net', name: 'TestFetch', file: null });
    expect(knownFailureMatcher(['example.com/net TestFetch'])(go)).toBe(true);
    expect(knownFailureMatcher(['test_error_text'])(OLD)).toBe(true);
    expect(knownFailureMatcher([])(OLD)).toBe(false);
  });
});

describe('directiveTests', () => {
  it('finds tests by id, by function name, by a Jest title, and by file', () => {
    const jest = t('cart discount takes ten percent off', {
      runner: 'jest',
      name: 'cart › discount › takes ten percent off',
      file: 'src/cart.test.ts',
    });
    const go = t('TestAbs/negative', { runner: 'go', name: 'TestAbs/negative', file: 'abs_test.go' });
    const named = directiveTests(
      'TestAbs is wrong, and "takes ten percent off" fails; see tests/test_calc.py::test_total and python/tests/test_messages.py.',
      [TARGET, OLD, OTHER, jest, go],
    );
    expect(named.byName.map((x) => x.id)).toEqual([TARGET.id, jest.id, go.id]);
    // test_mean is not named, but its file is (in test_total's id)
    expect(named.byFile.map((x) => x.id)).toEqual([OLD.id, OTHER.id]);
  });

  it('does not take a word inside another word, nor a short common name', () => {
    const cargo = t('tests::parses', { runner: 'cargo', name: 'tests::parses', file: null });
    expect(directiveTests('It parses badly; test_totals is unrelated.', [TARGET, cargo]).byName).toEqual([]);
  });
});

describe('failureKind and the summary line', () => {
  it('reads the error type from a failure block', () => {
    const lines = [
      '    def test_x():',
      '>       assert f() == 1',
      'E       assert 0 == 1',
      '',
      'tests/test_x.py:3: AssertionError',
    ];
    expect(failureKind(lines, { start: 1, end: 5 })).toBe('AssertionError');
    expect(failureKind(['E   ValueError: bad'], { start: 1, end: 1 })).toBe('ValueError');
    expect(failureKind(['TypeError: x is not a function', '    at f (a.js:1:1)'], { start: 1, end: 2 })).toBe(
      'TypeError',
    );
    expect(failureKind(['    expect(received).toBe(expected)'], { start: 1, end: 1 })).toBe('expect.toBe');
    expect(failureKind(['panic: runtime error: index out of range'], { start: 1, end: 1 })).toBe('panic');
    expect(failureKind(['calc_test.go:12: Abs(-1) = -1; want 1'], { start: 1, end: 1 })).toBeNull();
    expect(failureKind(['x'], null)).toBeNull();
  });

  it('is part of what the parsers report', () => {
    const out = parseTestOutput(
      [
        '=================================== FAILURES ===================================',
        '__________________________________ test_total __________________________________',
        '    def test_total():',
        '>       assert total([1, 2]) == 3',
        'E       assert -3 == 3',
        '',
        'tests/test_calc.py:4: AssertionError',
        '=========================== short test summary info ============================',
        'FAILED tests/test_calc.py::test_total - assert -3 == 3',
        '1 failed in 0.03s',
      ].join('\n'),
    );
    expect(out.failures[0]?.kind).toBe('AssertionError');
  });

  it('a summary counting failures says so, whatever the exit code', () => {
    expect(summaryReportsFailures([{ runner: 'tap', passed: 3, failed: 1 }])).toBe(true);
    expect(summaryReportsFailures([{ runner: 'tap', passed: 3, failed: 0 }])).toBe(false);
    expect(summaryReportsFailures([{ runner: 'unittest', passed: null, failed: null }])).toBe(false);
    expect(summaryReportsFailures(undefined)).toBe(false);
  });
});
