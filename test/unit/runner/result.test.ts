import { describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import {
  parseRunnerResult,
  patchPath,
  runnerArgv,
  runnerScript,
  splitRunnerOutput,
} from '../../../src/runner/index.js';

const H = 'a'.repeat(40);

describe('splitRunnerOutput', () => {
  it('separates the op output from the result line the runner appends', () => {
    const diff = 'diff --git a/x b/x\n+y\n';
    const out = splitRunnerOutput(
      `${diff}\nHAMMER_RESULT {"op":"diff","ok":true,"exit":0,"from":"${H}","to":"${H}"}\n`,
    );
    expect(out.output).toBe(diff);
    expect(out.result).toEqual({ op: 'diff', ok: true, exit: 0, from: H, to: H });
  });

  it('takes the last result line, so a forged earlier one loses', () => {
    const stdout =
      'HAMMER_RESULT {"op":"test","ok":true,"exit":0}\nall tests passed' +
      '\nHAMMER_RESULT {"op":"test","ok":false,"exit":1}\n';
    expect(splitRunnerOutput(stdout).result).toEqual({ op: 'test', ok: false, exit: 1 });
    expect(splitRunnerOutput(stdout).output).toContain('all tests passed');
  });

  it('finds a result at the very start of stdout', () => {
    expect(splitRunnerOutput('HAMMER_RESULT {"op":"tree","ok":false,"exit":1}\n').result).toEqual({
      op: 'tree',
      ok: false,
      exit: 1,
    });
  });

  it('rejects a missing, malformed or out-of-schema result', () => {
    expect(splitRunnerOutput('no result here\n').result).toBeUndefined();
    expect(splitRunnerOutput('\nHAMMER_RESULT {"op":"tree",').result).toBeUndefined();
    expect(splitRunnerOutput('\nHAMMER_RESULT {"op":"rm -rf","ok":true,"exit":0}\n').result).toBeUndefined();
    expect(
      splitRunnerOutput('\nHAMMER_RESULT {"op":"tree","ok":true,"exit":0,"tree":"not-a-hash"}\n').result,
    ).toBeUndefined();
    expect(splitRunnerOutput('\nHAMMER_RESULT {"op":"tree","ok":true,"exit":0,"note":"x"}\n').result).toBeUndefined();
    expect(splitRunnerOutput('\nHAMMER_RESULT {"op":"test","ok":true,"exit":300}\n').result).toBeUndefined();
    // Text glued onto the marker without a newline is not a result line.
    expect(splitRunnerOutput('xHAMMER_RESULT {"op":"tree","ok":true,"exit":0}\n').result).toBeUndefined();
  });
});

describe('parseRunnerResult', () => {
  it('returns the result and checks it against the exec exit code', () => {
    const stdout = '\nHAMMER_RESULT {"op":"test","ok":false,"exit":3}\n';
    expect(parseRunnerResult(stdout, { exitCode: 3 })).toEqual({ op: 'test', ok: false, exit: 3 });
    const err = (() => {
      try {
        parseRunnerResult(stdout, { exitCode: 0 });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(isHammerError(err, 'SANDBOX_BROKEN')).toBe(true);
  });

  it('throws SANDBOX_BROKEN when there is no result', () => {
    expect(() => parseRunnerResult('sh: git: not found\n')).toThrow(/no valid result/);
  });
});

describe('runnerArgv', () => {
  it('passes the script in argv with the op and its arguments', () => {
    const argv = runnerArgv('test', '300', 'python3 -m pytest -q');
    expect(argv.slice(0, 2)).toEqual(['sh', '-c']);
    expect(argv[2]).toBe(runnerScript());
    expect(argv[2]).toContain('HAMMER_RESULT');
    expect(argv.slice(3)).toEqual(['hammer-runner', 'test', '300', 'python3 -m pytest -q']);
  });

  it('refuses NUL bytes in arguments', () => {
    expect(() => runnerArgv('commit', 'a\0b')).toThrow(/NUL/);
  });

  it('patchPath keeps patches under .git/hammer with plain names', () => {
    expect(patchPath('iteration-1.diff')).toBe('.git/hammer/iteration-1.diff');
    expect(() => patchPath('../x')).toThrow();
    expect(() => patchPath('a/b')).toThrow();
    expect(() => patchPath('-x')).toThrow();
  });
});
