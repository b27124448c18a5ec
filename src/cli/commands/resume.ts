// `hammer-box resume <run_id>`
import { resume } from '../../api/run.js';
import { interruptSignal } from '../interrupt.js';
import { progressRenderer } from '../progress.js';
import { printRunResult } from '../run-result.js';

export default async function resumeCommand(opts: {
  runId: string;
  repo: string;
  json?: boolean;
  quiet?: boolean;
}): Promise<number> {
  const started = Date.now();
  const progress = progressRenderer(process.stderr, process.stderr.isTTY === true, opts.quiet === true);
  try {
    const outcome = await resume({ repo: opts.repo, runId: opts.runId, emit: progress, signal: interruptSignal() });
    return printRunResult(outcome, opts.json === true, Date.now() - started);
  } finally {
    progress.stop();
  }
}
