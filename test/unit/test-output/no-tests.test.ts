// "No test to run", as real runners print it (captured under test/fixtures/test-output/no-tests-*),
// and never read into an output that ran tests or failed otherwise.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTestOutput, saysNoTests } from '../../../src/test-output/index.js';
import { fixture } from './fixtures.js';

const says = (text: string): boolean => saysNoTests(text, parseTestOutput(text));

const NO_TESTS = readdirSync(path.join(import.meta.dirname, '../../fixtures/test-output')).filter((n) =>
  n.startsWith('no-tests-'),
);

describe('saysNoTests', () => {
  it('has a capture of every runner', () => {
    expect(NO_TESTS.sort()).toEqual([
      'no-tests-cargo-1.85.txt',
      'no-tests-go-1.24-no-packages.txt',
      'no-tests-go-1.24.txt',
      'no-tests-jest-30-pass.txt',
      'no-tests-jest-30.txt',
      'no-tests-mocha-11.txt',
      'no-tests-node-24-spec.txt',
      'no-tests-node-24-tap.txt',
      'no-tests-npm-default.txt',
      'no-tests-pytest-8-q.txt',
      'no-tests-pytest-8.txt',
      'no-tests-unittest-py3.13.txt',
      'no-tests-vitest-4.txt',
    ]);
  });

  it.each(NO_TESTS)('reads %s as no test to run', (name) => {
    expect(says(fixture(name))).toBe(true);
  });

  it.each([
    'pytest-9-q.txt',
    'pytest-7-collect-error.txt',
    'unittest-py3.11.txt',
    'node-20-tap.txt',
    'node-20-spec.txt',
    'jest-30.txt',
    'vitest-4.txt',
    'mocha-11.txt',
    'go-1.19.txt',
    'go-1.19-build-failed.txt',
    'cargo-1.95.txt',
    'cargo-1.95-compile-error.txt',
  ])('never reads %s (tests that ran, or failed to build) as no test', (name) => {
    expect(says(fixture(name))).toBe(false);
  });

  it('is not fooled by part of a suite having no tests', () => {
    // go: one package without test files, one that ran
    expect(says('?   \texample.com/a\t[no test files]\nok  \texample.com/b\t0.01s\n')).toBe(false);
    // cargo: a doc-test target with none, a unit target with some
    expect(
      says(
        'running 2 tests\ntest a ... ok\ntest b ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored\n\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored\n',
      ),
    ).toBe(false);
    // pytest's usage error ends with "no tests ran" too
    expect(says('ERROR: file or directory not found: tests\n\nno tests ran in 0.00s\n')).toBe(false);
    // a collection error
    expect(says('=== 1 error in 0.12s ===\nno tests ran, 1 error in 0.12s\n')).toBe(false);
    expect(says('')).toBe(false);
  });
});
