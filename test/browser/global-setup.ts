// Browser suites need Chromium. Fail loudly, never skip: a skipped browser suite is not a pass.
import { existsSync } from 'node:fs';
import { CHROMIUM } from './chromium.js';

export default function setup(): void {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `the browser tests need Chromium at ${CHROMIUM} and there is none. Run 'bash scripts/chromium.sh' (make test runs it: it installs Debian's chromium as root), or set HAMMER_CHROMIUM to a Chromium executable.`,
    );
}
