// The in-sandbox runner program (runner/hammer-runner.sh), read from the package once.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HammerError } from '../errors.js';
import { packageRoot } from '../paths.js';

/** Path of runner/hammer-runner.sh in the package (works from src/, dist/ and .bench/). */
export function runnerScriptPath(): string {
  return path.join(packageRoot(), 'runner', 'hammer-runner.sh');
}

let cached: string | undefined;

/** The runner's source text, passed to `sh -c` on every exec. Read from disk on first use only. */
export function runnerScript(): string {
  if (cached === undefined) {
    try {
      cached = readFileSync(runnerScriptPath(), 'utf8');
    } catch (err) {
      throw new HammerError('INTERNAL', `cannot read the runner script ${runnerScriptPath()}`, {
        cause: err,
        hint: 'reinstall hammer-box: the runner/ directory is part of the package',
      });
    }
  }
  return cached;
}
