// `hammer-box resume <run_id>`
import { resume } from '../../api/run.js';
import { interruptSignal } from '../interrupt.js';
import { progressRenderer } from '../progress.js';
import { printRunResult } from '../run-result.js';

export default async function resumeCommand(opts: {
  runId: string;
  repo: string;
  config?: string;
  json?: boolean;
}): Promise<number> {
  const progress = progressRenderer();
  try {
    const outcome = await resume({
      repo: opts.repo,
      runId: opts.runId,
      ...(opts.config ? { configFile: opts.config } : {}),
      emit: progress,
      signal: interruptSignal(),
    });
    return printRunResult(outcome, opts.json === true);
  } finally {
    progress.stop();
  }
}
