// `hammer-box run`
import { run } from '../../api/run.js';
import { flagsToConfig, type ConfigFlags } from '../config-flags.js';
import { interruptSignal } from '../interrupt.js';
import { progressRenderer } from '../progress.js';
import { printRunResult } from '../run-result.js';

interface RunFlags extends ConfigFlags {
  repo: string;
  directive: string;
  config?: string;
  json?: boolean;
  logLevel?: string;
}

export default async function runCommand(f: RunFlags): Promise<number> {
  const progress = progressRenderer();
  try {
    const outcome = await run({
      repo: f.repo,
      directive: f.directive,
      ...(f.config ? { configFile: f.config } : {}),
      flags: flagsToConfig(f),
      emit: progress,
      signal: interruptSignal(),
      ...(f.logLevel ? { logLevel: f.logLevel } : {}),
      onImageProgress: (line) => process.stderr.write(`  ${line.trimEnd()}\n`),
    });
    return printRunResult(outcome, f.json === true);
  } finally {
    progress.stop();
  }
}
