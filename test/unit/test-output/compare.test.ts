import { describe, expect, it } from 'vitest';
import {
  distinctFailingTests,
  fixedTests,
  parseTestOutput,
  testKey,
  type FailingTest,
} from '../../../src/test-output/index.js';
import { fixture } from './fixtures.js';

const test = (id: string, extra: Partial<FailingTest> = {}): FailingTest => ({
  runner: 'pytest',
  scope: 'test',
  id,
  name: id,
  package: null,
  file: null,
  line: null,
  ...extra,
});

describe('distinctFailingTests', () => {
  it('counts a test with several failing subtests once, and drops output positions', () => {
    const failures = parseTestOutput(fixture('unittest-py3.11-v.txt')).failures;
    const distinct = distinctFailingTests(failures);
    expect(distinct.map((t) => t.id)).toEqual([
      'tests.test_calc_ut.StackTest.test_error',
      'tests.test_calc_ut.AddTest.test_add',
      'tests.test_calc_ut.AddTest.test_add_many',
      'tests.test_calc_ut.StackTest.test_lifo',
    ]);
    expect(distinct[0]).not.toHaveProperty('block');
  });

  it('tells go tests of different packages apart', () => {
    const a = test('TestX', { runner: 'go', package: 'example.com/a' });
    const b = test('TestX', { runner: 'go', package: 'example.com/b' });
    expect(testKey(a)).not.toBe(testKey(b));
    expect(distinctFailingTests([a, b, a])).toHaveLength(2);
  });
});

describe('fixedTests', () => {
  const baseline = { runners: ['pytest' as const], failing: [test('t::a'), test('t::b'), test('t::c')] };

  it('is every baseline failure when the latest run passed', () => {
    expect(fixedTests(baseline, { runners: [], failing: [], passed: true }).map((t) => t.id)).toEqual([
      't::a',
      't::b',
      't::c',
    ]);
  });

  it('is the baseline failures the latest run of the same runner no longer names', () => {
    const latest = { runners: ['pytest' as const], failing: [test('t::b')], passed: false };
    expect(fixedTests(baseline, latest).map((t) => t.id)).toEqual(['t::a', 't::c']);
  });

  it('counts nothing as fixed when the latest failing output was not recognised', () => {
    expect(fixedTests(baseline, { runners: [], failing: [], passed: false })).toEqual([]);
  });
});
