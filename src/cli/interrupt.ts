// Ctrl-C handling for commands: the first interrupt aborts the work (cleanup runs, bounded in time),
// a second forces exit; either way the process is gone within five seconds.
import { HammerError } from '../errors.js';
import { EXIT } from './exit-codes.js';

/** How long cleanup after an interrupt may take before the process exits anyway. */
export const CLEANUP_GRACE_MS = 4_000;

let controller: AbortController | undefined;

/**
 * An AbortSignal that fires on SIGINT/SIGTERM. After the first signal, cleanup has CLEANUP_GRACE_MS
 * (an engine that stops answering cannot hold the process); a second signal exits at once with 130.
 */
export function interruptSignal(): AbortSignal {
  if (controller) return controller.signal;
  const c = new AbortController();
  controller = c;
  const onSignal = (sig: NodeJS.Signals): void => {
    if (c.signal.aborted) {
      process.stderr.write('\nhammer-box: interrupted again, exiting now\n');
      process.exit(EXIT.interrupted);
    }
    process.stderr.write(
      `\nhammer-box: ${sig === 'SIGINT' ? 'interrupted' : 'terminated'}, cleaning up (press Ctrl-C again to force)\n`,
    );
    // unref'd: a cleanup that finishes in time lets the process end on its own
    setTimeout(() => {
      process.stderr.write(
        `hammer-box: cleanup did not finish within ${CLEANUP_GRACE_MS / 1000} s, exiting (hammer-box gc removes what is left)\n`,
      );
      process.exit(EXIT.interrupted);
    }, CLEANUP_GRACE_MS).unref();
    c.abort(new HammerError('ABORTED', `interrupted by ${sig}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return c.signal;
}
