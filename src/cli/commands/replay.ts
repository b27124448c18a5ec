// `hammer-box replay <run_id>`: the same directive, base commit and image, with the recorded answers.
import { replay } from '../../api/replay.js';
import { interruptSignal } from '../interrupt.js';
import { progressRenderer } from '../progress.js';
import { printRunResult } from '../run-result.js';
import { printOutsideLine } from '../terminal-text.js';

export default async function replayCommand(opts: {
  runId: string;
  repo: string;
  config?: string;
  json?: boolean;
}): Promise<number> {
  const progress = progressRenderer();
  try {
    const outcome = await replay({
      repo: opts.repo,
      runId: opts.runId,
      ...(opts.config ? { configFile: opts.config } : {}),
      emit: progress,
      signal: interruptSignal(),
      onImageProgress: printOutsideLine,
    });
    return printRunResult(outcome, opts.json === true);
  } finally {
    progress.stop();
  }
}
