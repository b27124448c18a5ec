// Ctrl-C handling for commands: the first interrupt aborts the work (cleanup runs), a second forces exit.
import { HammerError } from '../errors.js';
import { EXIT } from './exit-codes.js';

let controller: AbortController | undefined;

/** An AbortSignal that fires on SIGINT/SIGTERM; a second signal exits at once with 130. */
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
    c.abort(new HammerError('ABORTED', `interrupted by ${sig}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return c.signal;
}
