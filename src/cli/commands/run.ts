// `hammer-box run`
import { run } from '../../api/run.js';
import { flagsToConfig, type ConfigFlags } from '../config-flags.js';
import { directiveInput } from '../directive-input.js';
import { interruptSignal } from '../interrupt.js';
import { progressRenderer } from '../progress.js';
import { printRunResult } from '../run-result.js';
import { printOutsideLine } from '../terminal-text.js';
import type { PrFlags } from './pr.js';

interface RunFlags extends ConfigFlags, PrFlags {
  pr?: boolean;
  repo: string;
  directive?: string;
  message?: string;
  plan?: string;
  config?: string;
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  logLevel?: string;
}

export default async function runCommand(f: RunFlags): Promise<number> {
  const directive = f.plan !== undefined ? { directive: f.plan, plan: true } : await directiveInput(f);
  const started = Date.now();
  const progress = progressRenderer(process.stderr, process.stderr.isTTY === true, f.quiet === true);
  try {
    const outcome = await run({
      repo: f.repo,
      ...directive,
      ...(f.config ? { configFile: f.config } : {}),
      flags: flagsToConfig(f),
      emit: progress,
      signal: interruptSignal(),
      verbose: f.verbose === true,
      ...(f.logLevel ? { logLevel: f.logLevel } : {}),
      ...(f.quiet ? {} : { onImageProgress: printOutsideLine }),
    });
    if (!f.pr) return printRunResult(outcome, f.json === true, Date.now() - started);
    // the pull request's code (the forges, the push) loads only for --pr, after the run
    const { withPullRequest } = await import('../run-pr.js');
    return await withPullRequest(outcome, f, Date.now() - started);
  } finally {
    progress.stop();
  }
}
