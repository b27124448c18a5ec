// The terminal suites need tmux and a Docker engine. Fail loudly, never skip: a skipped suite is not a pass.
import { execFileSync } from 'node:child_process';
import engineSetup from '../integration/global-setup.js';

export default async function setup(): Promise<void> {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'pipe' });
  } catch (err) {
    throw new Error(
      `the terminal tests need tmux and there is none (${(err as Error).message}). Run 'bash scripts/tmux.sh' (make test runs it: it installs Debian's tmux as root).`,
    );
  }
  await engineSetup();
}
