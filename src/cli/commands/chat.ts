// `hammer-box chat`
import { openChat } from '../../chat/open.js';
import { HammerError } from '../../errors.js';
import { runRepl } from '../chat/repl.js';
import { flagsToConfig, type ConfigFlags } from '../config-flags.js';
import { printOutsideLine } from '../terminal-text.js';

interface ChatFlags extends ConfigFlags {
  repo: string;
  config?: string;
  /** true: the last conversation; a string: that one. */
  continue?: boolean | string;
  new?: boolean;
  plan?: boolean;
}

export default async function chatCommand(f: ChatFlags): Promise<number> {
  const opening = new AbortController();
  const onSignal = (): void => opening.abort(new HammerError('ABORTED', 'interrupted while the chat started'));
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.stderr.write('hammer-box: starting the sandbox...\n');
  let chat;
  try {
    chat = await openChat({
      repo: f.repo,
      ...(f.config ? { configFile: f.config } : {}),
      flags: flagsToConfig(f),
      env: process.env,
      signal: opening.signal,
      kind: 'chat',
      ...(f.plan ? { mode: 'plan' as const } : {}),
      ...(f.continue === undefined || f.continue === false
        ? {}
        : { resume: typeof f.continue === 'string' ? f.continue : ({ latest: true } as const) }),
      onImageProgress: printOutsideLine,
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return runRepl(chat, { input: process.stdin, output: process.stdout, env: process.env });
}
