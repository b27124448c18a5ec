// Debian's Chromium, headless, driven by playwright-core (which attaches to an installed browser and
// never downloads one). HAMMER_CHROMIUM names another executable.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Where the browser is. */
export const CHROMIUM = process.env['HAMMER_CHROMIUM'] || '/usr/bin/chromium';

/** The flags that run here: no sandbox (tests run as root), no GPU, no network chatter of its own. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A browser with a fresh profile; close() removes the profile too. */
export async function launchBrowser(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `no browser at ${CHROMIUM}: run 'bash scripts/chromium.sh' (make test does) or set HAMMER_CHROMIUM`,
    );
  const profile = await mkdtemp(join(tmpdir(), 'hb-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
