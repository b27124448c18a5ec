import { describe, expect, it } from 'vitest';
import { commandTimeoutS, runsTestCommand } from '../../../src/agent/command-timeout.js';

describe("the agent's command timeout", () => {
  it('the test command, with more arguments or its tail in its directory, gets the test limit', () => {
    const opts = { testCommand: 'npm test', testTimeoutS: 900, commandTimeoutS: 120 };
    expect(commandTimeoutS('npm test', opts)).toBe(900);
    expect(commandTimeoutS('  npm   test -- -t adds ', opts)).toBe(900);
    expect(commandTimeoutS('cd /workspace && npm test', opts)).toBe(900);
    expect(commandTimeoutS('npm install', opts)).toBe(120);
    expect(commandTimeoutS('npm testx', opts)).toBe(120);
    expect(runsTestCommand('python3 test.py', 'cd python && python3 test.py')).toBe(true);
    expect(runsTestCommand('python3 -m pytest -q tests/test_a.py', 'python3 -m pytest -q')).toBe(true);
    expect(runsTestCommand('ls', '')).toBe(false);
    // never less than the shell's own limit
    expect(commandTimeoutS('npm test', { ...opts, testTimeoutS: 60 })).toBe(120);
  });
});
