// `hammer-box replay <run_id>`: the same directive, config and image, with the recorded answers.
import { join, resolve } from 'node:path';
import { run } from '../../api/run.js';
import { resolveConfig } from '../../config/resolve.js';
import { HammerError } from '../../errors.js';
import { RunStore } from '../../state/store.js';
import { interruptSignal } from '../interrupt.js';
import { progressRenderer } from '../progress.js';
import { printRunResult } from '../run-result.js';

export default async function replayCommand(opts: { runId: string; repo: string; json?: boolean }): Promise<number> {
  const repo = resolve(opts.repo);
  const { config } = await resolveConfig({ repo });
  const store = new RunStore({ dir: join(repo, config.state.dir) });
  const original = await store.read(opts.runId);
  if (original.image === null)
    throw new HammerError(
      'USAGE',
      `run ${opts.runId} ended before its environment was ready, so there is nothing to replay`,
      {
        hint: 'start a new run',
      },
    );
  const answers = await store.readReplayAnswers(opts.runId);
  const recorded = original.config as Record<string, Record<string, unknown>>;
  const progress = progressRenderer();
  try {
    const outcome = await run({
      repo,
      directive: original.directive.path,
      directiveText: original.directive.text,
      flags: { ...recorded, model: { ...recorded.model, provider: 'replay', replay_run: opts.runId } },
      replayAnswers: answers,
      pinnedImage: original.image,
      emit: progress,
      signal: interruptSignal(),
    });
    return printRunResult(outcome, opts.json === true);
  } finally {
    progress.stop();
  }
}
