import { describe, expect, it } from 'vitest';
import { wholeSuite } from '../../../src/images/script-chain.js';

describe('a test script that stops at its first failing part, run whole', () => {
  it('npm-run-all and run-s with --continue-on-error (prism)', () => {
    expect(wholeSuite('npm-run-all test:*', {})).toEqual({
      command: 'npm-run-all --continue-on-error test:*',
      how: 'the test script (npm-run-all test:*) with --continue-on-error, so every script runs',
    });
    expect(wholeSuite('run-s lint test:unit test:e2e', {})?.command).toBe(
      'run-s --continue-on-error lint test:unit test:e2e',
    );
    expect(wholeSuite('npx npm-run-all -s a b', {})?.command).toBe('npx npm-run-all --continue-on-error -s a b');
    expect(wholeSuite('npm-run-all -c test:*', {})).toBeNull();
  });

  it('an && chain: each part, the exit status the last failing one', () => {
    expect(wholeSuite('node --test test/a.js && node --test test/b.js', {})?.command).toBe(
      'hb_exit=0; node --test test/a.js || hb_exit=$?; node --test test/b.js || hb_exit=$?; exit $hb_exit',
    );
    expect(wholeSuite('make test lint', {})?.command).toBe('make -k test lint');
  });

  it('anything else is left as it is', () => {
    for (const script of [
      'vitest run',
      'a && b || c',
      'a; b',
      'a && b | tee log',
      'a && $(b)',
      'a && `b`',
      "sh -c 'a && b'",
      'a &',
      'make -k test',
      `a && b${'x'.repeat(600)}`,
      'a && b\u001b[31m',
    ])
      expect(wholeSuite(script, {}), script).toBeNull();
    // pretest and posttest would not run without `npm test`
    expect(wholeSuite('a && b', { pretest: 'build' })).toBeNull();
  });
});
