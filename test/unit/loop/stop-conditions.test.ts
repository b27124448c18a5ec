import { describe, expect, it } from 'vitest';
import {
  agentSteps,
  appliedCount,
  decideNext,
  firstPendingPhase,
  latestTest,
  seenPatchHash,
  testPassed,
  unusableStreak,
} from '../../../src/loop/stop-conditions.js';
import { ITERATION_PHASES, type Iteration, type TestRecord } from '../../../src/state/run-state.js';
import { iteration as it_, makeState, testRecord, trajectory } from '../state/make-state.js';

const limits = { maxIterations: 5, maxUnusableAnswers: 3 };
const pass = testRecord(0);
const fail = testRecord(1);

const parsedOf = (ids: string[], failed = ids.length): TestRecord['parsed'] => ({
  runners: ['pytest'],
  failing: ids.map((id) => ({ runner: 'pytest', scope: 'test', id, name: id, package: null, file: null, line: null })),
  counts: [{ runner: 'pytest', passed: 3, failed }],
});
const TARGET = 'tests/test_calc.py::test_total';
const OLD = 'tests/test_msg.py::test_text';
const twoFailing = testRecord(1, { parsed: parsedOf([TARGET, OLD]) });
const oldOnly = testRecord(1, { parsed: parsedOf([OLD]) });
const oldAndNew = testRecord(1, { parsed: parsedOf([OLD, 'tests/test_io.py::test_load']) });
const noTests = testRecord(5, { parsed: { runners: [], failing: [], counts: [], no_tests: true } });

type Row = [name: string, baseline: ReturnType<typeof testRecord> | null, iterations: Iteration[], expected: unknown];

const go = { action: 'generate' } as const;
const stop = (status: 'stable' | 'partial' | 'untested' | 'unknown' | 'failed', reason: string, detail: RegExp) => ({
  action: 'stop',
  status,
  reason,
  detail: expect.stringMatching(detail),
});

const rows: Row[] = [
  ['no iterations yet', fail, [], go],
  ['no iterations, baseline passing (the model still gets asked)', pass, [], go],
  [
    'applied, tests pass',
    fail,
    [it_(1, 'applied', { patch: 'a', test: pass })],
    stop('stable', 'tests_pass', /after iteration 1/),
  ],
  ['applied, tests fail', fail, [it_(1, 'applied', { patch: 'a', test: fail })], go],
  [
    'applied, tests timed out with exit 0',
    fail,
    [it_(1, 'applied', { patch: 'a', test: testRecord(0, { timed_out: true }) })],
    go,
  ],
  [
    'NO_CHANGES with baseline passing',
    pass,
    [it_(1, 'no_changes')],
    stop('stable', 'tests_pass_baseline', /passed at baseline/),
  ],
  [
    'NO_CHANGES after a passing applied patch',
    fail,
    [it_(1, 'applied', { patch: 'a', test: pass }), it_(2, 'no_changes')],
    stop('stable', 'tests_pass', /NO_CHANGES in iteration 2/),
  ],
  ['NO_CHANGES with baseline failing counts as unusable', fail, [it_(1, 'no_changes')], go],
  [
    'NO_CHANGES after an applied patch with failing tests',
    fail,
    [it_(1, 'applied', { patch: 'a', test: fail }), it_(2, 'no_changes')],
    go,
  ],
  ['NO_CHANGES while baseline not run', null, [it_(1, 'no_changes')], go],
  [
    'three NO_CHANGES while tests fail',
    fail,
    [it_(1, 'no_changes'), it_(2, 'no_changes'), it_(3, 'no_changes')],
    stop('failed', 'no_usable_diff', /3 answers in a row/),
  ],
  [
    'three unusable answers',
    fail,
    [it_(1, 'unusable'), it_(2, 'unusable'), it_(3, 'unusable')],
    stop('failed', 'no_usable_diff', /3 answers/),
  ],
  [
    'unusable and NO_CHANGES mixed',
    fail,
    [it_(1, 'unusable'), it_(2, 'no_changes'), it_(3, 'unusable')],
    stop('failed', 'no_usable_diff', /3 answers/),
  ],
  ['two unusable answers', fail, [it_(1, 'unusable'), it_(2, 'unusable')], go],
  [
    'an applied patch breaks the unusable streak',
    fail,
    [it_(1, 'unusable'), it_(2, 'unusable'), it_(3, 'applied', { patch: 'a', test: fail }), it_(4, 'unusable')],
    go,
  ],
  [
    'a rejected patch breaks the unusable streak',
    fail,
    [it_(1, 'unusable'), it_(2, 'unusable'), it_(3, 'rejected', { patch: 'a' }), it_(4, 'unusable')],
    go,
  ],
  [
    'rejected patches do not count as unusable',
    fail,
    [it_(1, 'rejected', { patch: 'a' }), it_(2, 'rejected', { patch: 'b' }), it_(3, 'rejected', { patch: 'c' })],
    go,
  ],
  [
    'the same patch hash twice (rejected both times)',
    fail,
    [it_(1, 'rejected', { patch: 'a' }), it_(2, 'rejected', { patch: 'a' })],
    stop('failed', 'duplicate_patch', /iteration 2 repeated the patch of iteration 1/),
  ],
  [
    'the same hash as an applied patch, further back',
    fail,
    [
      it_(1, 'applied', { patch: 'a', test: fail }),
      it_(2, 'rejected', { patch: 'b' }),
      it_(3, 'rejected', { patch: 'a' }),
    ],
    stop('failed', 'duplicate_patch', /iteration 3 repeated the patch of iteration 1/),
  ],
  [
    'an iteration marked duplicate',
    fail,
    [it_(1, 'rejected', { patch: 'a' }), it_(2, 'duplicate', { patch: 'a' })],
    stop('failed', 'duplicate_patch', /repeated/),
  ],
  ['different hashes', fail, [it_(1, 'rejected', { patch: 'a' }), it_(2, 'rejected', { patch: 'b' })], go],
  [
    'max iterations reached',
    fail,
    [1, 2, 3, 4, 5].map((n) => it_(n, 'applied', { patch: String.fromCharCode(96 + n), test: fail })),
    stop('failed', 'max_iterations', /5 of 5 iterations/),
  ],
  [
    'max iterations reached but the last passes',
    fail,
    [1, 2, 3, 4]
      .map((n) => it_(n, 'applied', { patch: String.fromCharCode(96 + n), test: fail }))
      .concat([it_(5, 'applied', { patch: 'z', test: pass })]),
    stop('stable', 'tests_pass', /iteration 5/),
  ],
  [
    'max iterations reached on a duplicate: duplicate wins',
    fail,
    [1, 2, 3, 4]
      .map((n) => it_(n, 'rejected', { patch: String.fromCharCode(96 + n) }))
      .concat([it_(5, 'rejected', { patch: 'a' })]),
    stop('failed', 'duplicate_patch', /iteration 5/),
  ],
  [
    'max iterations reached on the third unusable: no_usable_diff wins',
    fail,
    [
      it_(1, 'rejected', { patch: 'a' }),
      it_(2, 'rejected', { patch: 'b' }),
      it_(3, 'unusable'),
      it_(4, 'unusable'),
      it_(5, 'unusable'),
    ],
    stop('failed', 'no_usable_diff', /3 answers/),
  ],
  [
    'one below max iterations',
    fail,
    [1, 2, 3, 4].map((n) => it_(n, 'rejected', { patch: String.fromCharCode(96 + n) })),
    go,
  ],
  ['an unfinished iteration is not counted', fail, [it_(1, 'unusable'), it_(2, 'unusable'), it_(3, null)], go],
  [
    'applied: one of two baseline failures fixed, no test named: the loop goes on with the other',
    twoFailing,
    [it_(1, 'applied', { patch: 'a', test: oldOnly })],
    go,
  ],
  [
    'applied: a failure from before and a new one',
    twoFailing,
    [it_(1, 'applied', { patch: 'a', test: oldAndNew })],
    go,
  ],
  ['applied: nothing fixed yet', twoFailing, [it_(1, 'applied', { patch: 'a', test: twoFailing })], go],
  [
    'NO_CHANGES after a patch that fixed one of two: counted as unusable, the loop goes on',
    twoFailing,
    [
      it_(1, 'applied', { patch: 'a', test: oldAndNew }),
      it_(2, 'applied', { patch: 'b', test: oldOnly }),
      it_(3, 'no_changes'),
    ],
    go,
  ],
  [
    'the iteration limit with one of two targets fixed and nothing regressed: partial',
    twoFailing,
    [1, 2, 3, 4, 5].map((n) => it_(n, 'applied', { patch: String.fromCharCode(96 + n), test: oldOnly })),
    stop(
      'partial',
      'max_iterations',
      /^5 of 5 iterations without passing tests; 1 of the 2 targeted tests \(every test that failed at baseline\) passes now; 1 still fails: tests\/test_msg\.py::test_text$/,
    ),
  ],
  [
    'a repeated patch after progress: partial',
    twoFailing,
    [it_(1, 'applied', { patch: 'a', test: oldOnly }), it_(2, 'duplicate', { patch: 'a' })],
    stop('partial', 'duplicate_patch', /repeated the patch of iteration 1; 1 of the 2 targeted tests/),
  ],
  [
    'the iteration limit after a regression: failed',
    twoFailing,
    [1, 2, 3, 4, 5].map((n) => it_(n, 'applied', { patch: String.fromCharCode(96 + n), test: oldAndNew })),
    stop('failed', 'max_iterations', /fails now$/),
  ],
  [
    'the iteration limit on a test run that timed out: unknown',
    twoFailing,
    [1, 2, 3, 4, 5].map((n) =>
      it_(n, 'applied', {
        patch: String.fromCharCode(96 + n),
        test: testRecord(137, { timed_out: true, duration_ms: 300_000 }),
      }),
    ),
    stop('unknown', 'max_iterations', /the last test run timed out after 300 s: its result is unknown$/),
  ],
  [
    'no tests at baseline, none after an applied patch: untested at once',
    noTests,
    [it_(1, 'applied', { patch: 'a', test: noTests })],
    stop(
      'untested',
      'no_tests',
      /^the runner found no test to run after iteration 1, as at baseline; the repository has no tests/,
    ),
  ],
  [
    'no tests at baseline, a patch adds tests that fail: the loop goes on',
    noTests,
    [it_(1, 'applied', { patch: 'a', test: fail })],
    go,
  ],
  [
    'no tests at baseline, a patch adds tests that pass: stable',
    noTests,
    [it_(1, 'applied', { patch: 'a', test: pass })],
    stop('stable', 'tests_pass', /after iteration 1/),
  ],
  [
    'tests at baseline, none after a patch: the loop goes on (the patch lost them)',
    twoFailing,
    [it_(1, 'applied', { patch: 'a', test: noTests })],
    go,
  ],
  [
    'no tests at baseline and NO_CHANGES: untested, nothing changed',
    noTests,
    [it_(1, 'no_changes')],
    stop('untested', 'no_tests', /NO_CHANGES in iteration 1; the repository has no tests to run .*made no change$/),
  ],
  ['NO_CHANGES with no patch: failures from before are not a fix', twoFailing, [it_(1, 'no_changes')], go],
  [
    'exit 0 with output nothing could be read from is unread, not a pass',
    fail,
    [it_(1, 'applied', { patch: 'a', test: testRecord(0, { unread: true }) })],
    go,
  ],
  [
    'NO_CHANGES on an unread baseline that exited 0 does not end stable',
    testRecord(0, { unread: true }),
    [it_(1, 'no_changes')],
    go,
  ],
  [
    'exit 0 with a summary counting a failure is not a pass',
    pass,
    [it_(1, 'applied', { patch: 'a', test: testRecord(0, { parsed: parsedOf(['t'], 1) }) })],
    go,
  ],
];

describe('decideNext in agent mode', () => {
  it("stops with max_steps once the trajectories used the run's tool calls, after a pass and before the iteration limit", () => {
    const agentIt = (n: number, steps: number, outcome: Iteration['outcome'], test = testRecord(1)) => ({
      ...it_(n, outcome, { test }),
      answer: null,
      trajectory: trajectory(n, steps),
    });
    const limits = { maxIterations: 2, maxUnusableAnswers: 3, maxRunSteps: 5 };
    const used = makeState({ iterations: [agentIt(1, 3, 'applied'), agentIt(2, 2, 'applied')] });
    expect(agentSteps(used)).toBe(5);
    expect(decideNext(used, limits)).toMatchObject({ action: 'stop', reason: 'max_steps', status: 'failed' });
    const passed = makeState({ iterations: [agentIt(1, 5, 'applied', testRecord(0))] });
    expect(decideNext(passed, limits)).toMatchObject({ reason: 'tests_pass' });
    const left = makeState({ iterations: [agentIt(1, 4, 'applied')] });
    expect(decideNext(left, limits)).toEqual({ action: 'generate' });
    expect(decideNext(used, { ...limits, maxRunSteps: undefined })).toMatchObject({ reason: 'max_iterations' });
  });
});

describe('decideNext', () => {
  it.each(rows)('%s', (_name, baseline, iterations, expected) => {
    expect(decideNext(makeState({ baseline, iterations }), limits)).toEqual(expected);
  });
  it('ignores the declared known failures', () => {
    const known = testRecord(1, { parsed: parsedOf(['tests/test_io.py::test_load']) });
    const state = makeState({ baseline: twoFailing, iterations: [it_(1, 'applied', { patch: 'a', test: known })] });
    expect(decideNext(state, limits)).toEqual(go);
    expect(decideNext(state, { ...limits, knownFailures: ['tests/test_io.py::*'] })).toEqual(
      stop('stable', 'baseline_failures_remain', /every test that fails is declared in \[tests\] known_failures$/),
    );
    const onlyKnown = makeState({ baseline: known, iterations: [it_(1, 'no_changes')] });
    expect(decideNext(onlyKnown, { ...limits, knownFailures: ['*test_load'] })).toEqual(
      stop(
        'stable',
        'tests_pass_baseline',
        /NO_CHANGES in iteration 1; without changes, every test that fails is declared/,
      ),
    );
  });

  it('the tests the directive names must pass; a failure outside them may remain', () => {
    const state = makeState({
      baseline: twoFailing,
      directive: { path: 'd.md', text: 'Fix test_text.', sha256: 'a'.repeat(64) },
      iterations: [it_(1, 'applied', { patch: 'a', test: oldOnly })],
    });
    expect(decideNext(state, limits)).toEqual(go);
    const named = makeState({
      baseline: twoFailing,
      directive: { path: 'd.md', text: 'Make test_total pass.', sha256: 'a'.repeat(64) },
      iterations: [it_(1, 'applied', { patch: 'a', test: oldOnly })],
    });
    expect(decideNext(named, limits)).toEqual(
      stop(
        'stable',
        'baseline_failures_remain',
        /^after iteration 1; every targeted test \(named in the directive\) passes after 1 applied patch; 1 test outside them failed the same way at baseline and still does$/,
      ),
    );
    const again = makeState({ ...named, iterations: [...named.iterations, it_(2, 'no_changes')] });
    expect(decideNext(again, limits)).toMatchObject({ status: 'stable', reason: 'baseline_failures_remain' });
  });

  it('a flaky baseline failure is not a target: it may fail again', () => {
    const rerun = testRecord(1, {
      scope: 'focused',
      parsed: { ...parsedOf([TARGET])!, counts: [{ runner: 'pytest', passed: 1, failed: 1 }] },
    });
    const state = makeState({
      baseline: twoFailing,
      baseline_rerun: rerun,
      iterations: [it_(1, 'applied', { patch: 'a', test: oldOnly })],
    });
    expect(decideNext(state, limits)).toEqual(
      stop(
        'stable',
        'baseline_failures_remain',
        /every test that fails is flaky at baseline \(it passed on its rerun\)$/,
      ),
    );
  });

  it('honours the limits it is given', () => {
    const state = makeState({ iterations: [it_(1, 'unusable')] });
    expect(decideNext(state, { maxIterations: 10, maxUnusableAnswers: 1 })).toMatchObject({ reason: 'no_usable_diff' });
    expect(decideNext(state, { maxIterations: 1, maxUnusableAnswers: 5 })).toMatchObject({ reason: 'max_iterations' });
  });
});

describe('state helpers', () => {
  it('testPassed is the exit code, and a summary that counts failures', () => {
    expect(testPassed(pass)).toBe(true);
    expect(testPassed(testRecord(0, { parsed: parsedOf([], 2) }))).toBe(false);
    expect(testPassed(testRecord(0, { parsed: parsedOf([], 0) }))).toBe(true);
    expect(testPassed(testRecord(1, { stdout_tail: 'all tests passed\n' }))).toBe(false);
    expect(testPassed(testRecord(0, { timed_out: true }))).toBe(false);
    expect(testPassed(null)).toBe(false);
  });
  it('latestTest is the last iteration test, else the baseline', () => {
    const t2 = testRecord(2);
    expect(latestTest(makeState({ baseline: fail }))).toBe(fail);
    expect(
      latestTest(
        makeState({
          baseline: fail,
          iterations: [it_(1, 'applied', { patch: 'a', test: t2 }), it_(2, 'rejected', { patch: 'b' })],
        }),
      ),
    ).toBe(t2);
  });
  it('counts applied patches, seen hashes and the unusable streak', () => {
    const state = makeState({
      iterations: [it_(1, 'applied', { patch: 'a', test: fail }), it_(2, 'unusable'), it_(3, 'no_changes')],
    });
    expect(appliedCount(state)).toBe(1);
    expect(seenPatchHash(state, 'a'.repeat(64))).toBe(true);
    expect(seenPatchHash(state, 'a'.repeat(64), 1)).toBe(false);
    expect(seenPatchHash(state, 'b'.repeat(64))).toBe(false);
    expect(unusableStreak(state)).toBe(2);
  });
  it('firstPendingPhase finds where a resumed iteration continues', () => {
    const t = '2026-11-22T14:05:01.000Z';
    const done = { status: 'done', started_at: t, duration_ms: 1 } as const;
    expect(firstPendingPhase({}, ITERATION_PHASES)).toBe('read_state');
    expect(firstPendingPhase({ read_state: done, generate: done }, ITERATION_PHASES)).toBe('extract');
    expect(firstPendingPhase({ read_state: done, generate: { ...done, status: 'failed' } }, ITERATION_PHASES)).toBe(
      'generate',
    );
    const all = Object.fromEntries(
      ITERATION_PHASES.map((p) => [p, p === 'validate' ? { ...done, status: 'skipped' } : done]),
    );
    expect(firstPendingPhase(all, ITERATION_PHASES)).toBeNull();
  });
});
