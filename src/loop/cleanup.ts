// Removing a run's sandboxes at its end, whatever happened: a removal that fails is tried again
// with backoff (an engine or API server that is restarting comes back), and what still could not
// be removed is returned; reportLeftBehind records it and names the command that removes it. Nothing is
// left behind without a word.
import { isHammerError } from '../errors.js';
import type { Logger } from '../log.js';
import { backendFlags } from '../config/backend-flags.js';
import { shellWord } from '../text/shell-word.js';
import type { Sandbox } from '../sandbox/types.js';
import type { RunRecorder } from './phase-runner.js';
import type { RunDeps, RunRequest } from './run-types.js';
import { doublingDelays } from '../sandbox/backoff.js';

/** A sandbox that is still there, and the last reason its removal gave. */
export interface LeftBehind {
  sandbox: string;
  error: string;
}

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
/** The shortest time one try may take when the budget is (nearly) spent (never more than a small budget itself, at least 1 s). */
const MIN_TRY_MS = 5_000;

/** Interrupted runs get this long at most: the CLI exits a few seconds after a Ctrl-C, and the report must come first. */
export const INTERRUPTED_BUDGET_MS = 2_000;

/** The waits between tries within `budgetMs` (pure): 0.5 s doubling to 8 s, their sum at most the budget. */
export function removalDelays(budgetMs: number): number[] {
  return doublingDelays(FIRST_DELAY_MS, MAX_DELAY_MS, budgetMs);
}

/** Remove every sandbox (side by side), each tried again for up to `budgetMs`; those still there, with why. */
export async function removeSandboxes(
  sandboxes: readonly Sandbox[],
  budgetMs: number,
  logger?: Logger,
): Promise<LeftBehind[]> {
  const results = await Promise.all(sandboxes.map((s) => removeOne(s, budgetMs, logger)));
  return results.filter((r): r is LeftBehind => r !== null);
}

async function removeOne(sandbox: Sandbox, budgetMs: number, logger?: Logger): Promise<LeftBehind | null> {
  const started = performance.now();
  const delays = removalDelays(budgetMs);
  const minTry = budgetMs >= MIN_TRY_MS || budgetMs === 0 ? MIN_TRY_MS : Math.max(budgetMs, 1_000);
  let reason = '';
  for (let attempt = 0; ; attempt++) {
    const left = budgetMs - (performance.now() - started);
    try {
      await sandbox.destroy({ signal: AbortSignal.timeout(Math.ceil(Math.max(left, minTry))) });
      if (attempt > 0) logger?.info({ sandbox: sandbox.id, attempt }, 'sandbox removed on a later try');
      return null;
    } catch (err) {
      // a try cut by its own deadline keeps the reason an earlier one gave
      if (!isHammerError(err, 'ABORTED') || reason === '')
        reason = isHammerError(err, 'ABORTED')
          ? 'the engine did not answer in time'
          : err instanceof Error
            ? err.message
            : String(err);
      const delay = delays[attempt];
      if (delay === undefined || performance.now() - started + delay > budgetMs) {
        logger?.warn({ sandbox: sandbox.id, attempts: attempt + 1, err: reason }, 'sandbox could not be removed');
        return { sandbox: sandbox.id, error: reason };
      }
      logger?.debug({ sandbox: sandbox.id, attempt, delay, err: reason }, 'sandbox removal failed; trying again');
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/**
 * Sandboxes the run could not remove: recorded in the state, logged, and said on the terminal with
 * the gc command that removes them (it repeats the flags that reach the same engine).
 */
export async function reportLeftBehind(
  rec: RunRecorder,
  deps: RunDeps,
  req: RunRequest,
  left: LeftBehind[],
): Promise<void> {
  const runId = rec.state.run_id;
  const config = req.configFile === undefined ? '' : ` --config ${shellWord(req.configFile)}`;
  const gc = `hammer-box gc --run ${runId}${backendFlags(req.config, { trust: false })}${config}`;
  const at = deps.now().toISOString();
  await rec
    .update((s) => ({ ...s, left_behind: [...(s.left_behind ?? []), ...left.map((l) => ({ ...l, at, gc }))] }))
    .catch(() => undefined);
  for (const l of left)
    deps.emit({
      type: 'notice',
      run_id: runId,
      at,
      level: 'warning',
      text: `sandbox ${l.sandbox} was left behind: removing it failed (${l.error}); remove it with: ${gc}`,
    });
}
