import { describe, expect, it } from 'vitest';
import { changedFiles, lastRejectedIteration, stabilitySignal } from '../../../src/loop/signal.js';
import { testStatus } from '../../../src/verdict/index.js';
import { readTest } from '../../../src/verdict/index.js';
import { iteration, makeState, testRecord } from '../state/make-state.js';

describe('stabilitySignal', () => {
  it.each([
    ['before the baseline', makeState({ baseline: null }), 'first iteration'],
    [
      'baseline failing',
      makeState({ baseline: testRecord(2) }),
      'first iteration; the tests fail at baseline (exit 2)',
    ],
    ['baseline passing', makeState({ baseline: testRecord(0) }), 'first iteration; the tests already pass at baseline'],
    [
      'applied, failing',
      makeState({ iterations: [iteration(1, 'applied', { patch: 'a', test: testRecord(1) })] }),
      'last patch applied, tests still failing (exit 1)',
    ],
    [
      'applied, timed out',
      makeState({
        iterations: [
          iteration(1, 'applied', { patch: 'a', test: testRecord(137, { timed_out: true, duration_ms: 30_000 }) }),
        ],
      }),
      'last patch applied, tests still failing (timed out after 30 s)',
    ],
    [
      'rejected',
      makeState({ iterations: [iteration(1, 'rejected', { patch: 'a' })] }),
      /rejected: it could not be applied/,
    ],
    [
      'unusable',
      makeState({ iterations: [iteration(1, 'unusable', { reason: 'the answer was empty' })] }),
      'no usable diff last time: the answer was empty',
    ],
    [
      'NO_CHANGES while failing',
      makeState({ iterations: [iteration(1, 'no_changes')] }),
      'you answered NO_CHANGES but the tests still fail (exit 1)',
    ],
    ['duplicate', makeState({ iterations: [iteration(1, 'duplicate', { patch: 'a' })] }), /repeated an earlier one/],
    [
      'an unfinished iteration is skipped',
      makeState({ iterations: [iteration(1, 'unusable', { reason: 'r' }), iteration(2, null)] }),
      'no usable diff last time: r',
    ],
  ])('%s', (_name, state, expected) => {
    if (typeof expected === 'string') expect(stabilitySignal(state)).toBe(expected);
    else expect(stabilitySignal(state)).toMatch(expected);
  });
});

describe('stabilitySignal with failures from before', () => {
  const parsed = (ids: string[]) => ({
    runners: ['pytest' as const],
    failing: ids.map((id) => ({
      runner: 'pytest' as const,
      scope: 'test' as const,
      id,
      name: id,
      package: null,
      file: null,
      line: null,
    })),
    counts: [],
  });
  const baseline = testRecord(1, { parsed: parsed(['t::test_total', 't::test_text']) });

  it('names the targeted tests still to fix, and those outside the targets, or declared known', () => {
    const state = makeState({
      baseline,
      iterations: [iteration(1, 'applied', { patch: 'a', test: testRecord(1, { parsed: parsed(['t::test_text']) }) })],
    });
    // no test named: every baseline failure is a target
    expect(stabilitySignal(state)).toBe(
      'last patch applied, tests still failing (exit 1); 1 of the 2 targeted tests pass now, still to fix: t::test_text',
    );
    const named = makeState({
      ...state,
      directive: { path: 'd.md', text: 'Make test_total pass.', sha256: 'a'.repeat(64) },
    });
    expect(stabilitySignal(named)).toBe(
      'last patch applied, tests still failing (exit 1); 1 of the failing tests (t::test_text) failed the same way before any change outside the tests this run targets, or are declared known failures or flaky: they need no fix unless the directive asks for one',
    );
    const known = makeState({
      baseline,
      iterations: [iteration(1, 'applied', { patch: 'a', test: testRecord(1, { parsed: parsed(['t::test_io']) }) })],
    });
    expect(stabilitySignal(known)).toBe('last patch applied, tests still failing (exit 1)');
    expect(stabilitySignal(known, ['t::test_io'])).toMatch(/1 of the failing tests \(t::test_io\)/);
  });
});

describe('signal helpers', () => {
  it('testStatus', () => {
    expect(testStatus(null)).toBe('not run');
    expect(testStatus(testRecord(3))).toBe('exit 3');
    const counted = {
      runners: ['tap' as const],
      failing: [],
      counts: [{ runner: 'tap' as const, passed: 2, failed: 1 }],
    };
    expect(testStatus(testRecord(0, { parsed: counted }))).toBe('exit 0, but its summary counts 1 failed');
    expect(testStatus(testRecord(0, { unread: true }))).toMatch(
      /^exit 0, but its output could not be read .*unread, not a pass$/,
    );
    expect(testStatus(testRecord(1, { unread: true }))).toBe('exit 1');
  });
  it('says a result in a word: a timed-out run is timed out, an unread one unread, never failed', () => {
    expect(readTest(testRecord(0))).toBe('passed');
    expect(readTest(testRecord(1))).toBe('failed');
    expect(readTest(testRecord(137, { timed_out: true }))).toBe('timed_out');
    expect(readTest(testRecord(0, { unread: true }))).toBe('unread');
    expect(
      stabilitySignal(makeState({ baseline: testRecord(137, { timed_out: true, duration_ms: 300_400 }) })),
    ).toMatch(/^first iteration; the tests timed out at baseline \(after 300 s\)/);
  });
  it('lastRejectedIteration is the latest rejection since the last applied patch', () => {
    const r1 = iteration(1, 'rejected', { patch: 'a' });
    expect(lastRejectedIteration(makeState({ iterations: [r1, iteration(2, 'unusable')] }))).toBe(r1);
    expect(
      lastRejectedIteration(
        makeState({ iterations: [r1, iteration(2, 'applied', { patch: 'b', test: testRecord(1) })] }),
      ),
    ).toBeNull();
    expect(lastRejectedIteration(makeState())).toBeNull();
  });
  it('changedFiles lists files of applied patches once, without deleted ones', () => {
    const a = iteration(1, 'applied', { patch: 'a', test: testRecord(1) });
    const b = iteration(2, 'applied', { patch: 'b', test: testRecord(1) });
    b.patch!.files = [
      { path: 'calc.py', status: 'modified' },
      { path: 'new.py', status: 'added' },
      { path: 'old.py', status: 'deleted' },
    ];
    const rejected = iteration(3, 'rejected', { patch: 'c' });
    rejected.patch!.files = [{ path: 'nope.py', status: 'modified' }];
    expect(changedFiles(makeState({ iterations: [a, b, rejected] }))).toEqual(['calc.py', 'new.py']);
  });
});
