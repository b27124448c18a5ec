// The in-sandbox runner program (runner/hammer-runner.sh), read from the package once.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HammerError } from '../errors.js';

/** Path of runner/hammer-runner.sh, found from this module (works from src/ and from dist/). */
export function runnerScriptPath(): string {
  return path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'runner', 'hammer-runner.sh');
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
