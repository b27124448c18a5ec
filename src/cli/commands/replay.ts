// `hammer-box replay <run_id>`: the same directive, base commit and image, with the recorded answers.
import { replay } from '../../api/replay.js';
import { runRefOf } from '../../api/run-ref.js';
import { resolveRun } from '../../api/runs.js';
import { interruptSignal } from '../interrupt.js';
import { progressRenderer } from '../progress.js';
import { printRunResult } from '../run-result.js';
import { printOutsideLine } from '../terminal-text.js';

export default async function replayCommand(opts: {
  runId?: string;
  last?: boolean;
  repo: string;
  config?: string;
  json?: boolean;
  quiet?: boolean;
}): Promise<number> {
  const runId = await resolveRun({ repo: opts.repo, ref: runRefOf(opts.runId, opts.last), env: process.env });
  const started = Date.now();
  const progress = progressRenderer(process.stderr, process.stderr.isTTY === true, opts.quiet === true);
  try {
    const outcome = await replay({
      repo: opts.repo,
      runId,
      ...(opts.config ? { configFile: opts.config } : {}),
      emit: progress,
      signal: interruptSignal(),
      ...(opts.quiet ? {} : { onImageProgress: printOutsideLine }),
    });
    return printRunResult(outcome, opts.json === true, Date.now() - started);
  } finally {
    progress.stop();
  }
}
