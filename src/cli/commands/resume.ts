// `hammer-box resume <run_id>`
import { resume } from '../../api/run.js';
import { runRefOf } from '../../api/run-ref.js';
import { resolveRun } from '../../api/runs.js';
import { flagsToConfig } from '../config-flags.js';
import { interruptSignal } from '../interrupt.js';
import { progressRenderer } from '../progress.js';
import { printRunResult } from '../run-result.js';

export default async function resumeCommand(opts: {
  runId?: string;
  last?: boolean;
  repo: string;
  config?: string;
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  provider?: 'ollama' | 'openai' | 'replay';
  model?: string;
  llmUrl?: string;
  engine?: string;
  kubeContext?: string;
  trustedRepo?: boolean;
}): Promise<number> {
  const runId = await resolveRun({ repo: opts.repo, ref: runRefOf(opts.runId, opts.last), env: process.env });
  const started = Date.now();
  const progress = progressRenderer(process.stderr, process.stderr.isTTY === true, opts.quiet === true);
  try {
    // the highest layer over the current configuration, recorded in the run's state
    const model = {
      ...(opts.provider ? { provider: opts.provider } : {}),
      ...(opts.model ? { name: opts.model } : {}),
      ...(opts.llmUrl ? { url: opts.llmUrl } : {}),
    };
    const outcome = await resume({
      repo: opts.repo,
      runId,
      ...(opts.config ? { configFile: opts.config } : {}),
      flags: flagsToConfig({ engine: opts.engine, kubeContext: opts.kubeContext, trustedRepo: opts.trustedRepo }),
      emit: progress,
      signal: interruptSignal(),
      model,
      verbose: opts.verbose === true,
    });
    return printRunResult(outcome, opts.json === true, Date.now() - started);
  } finally {
    progress.stop();
  }
}
