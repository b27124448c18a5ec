import { defineConfig } from 'vitest/config';
import { RunLastSequencer } from './test/security/support/run-last-sequencer.js';

/** Security suites cheap enough for every `make test` (the rest run in `make security`). */
const SECURITY_CHEAP = [
  'test/security/git-config.test.ts',
  'test/security/diffs.test.ts',
  'test/security/disguised-edits.test.ts',
  'test/security/open-triggers.test.ts',
  'test/security/search-bounds.test.ts',
  'test/security/inert-names.test.ts',
  'test/security/inert-titles.test.ts',
  'test/security/setup-proxy.test.ts',
  'test/security/setup-limits.test.ts',
  'test/security/escape-attempts.test.ts',
  'test/security/workspace-fill.test.ts',
  'test/security/engine-options.test.ts',
  'test/security/gvisor.test.ts',
  'test/security/terminal.test.ts',
  'test/security/crash-points.test.ts',
  'test/security/silent-engine.test.ts',
  'test/security/repo-trust.test.ts',
  'test/security/written-paths.test.ts',
  'test/security/kube-admission.test.ts',
];

/** `make test GVISOR=0` (or an engine without runsc under GVISOR=auto) leaves the gVisor file out; the summary says so. */
const GVISOR_EXCLUDE = process.env['HAMMER_GVISOR'] === 'off' ? ['test/security/gvisor.test.ts'] : [];

export default defineConfig({
  test: {
    reporters: ['default', './test/reporters/summary-line.ts'],
    // vitest's order, but the daemon restart (it stops the engine) runs after every other security file
    sequence: { sequencer: RunLastSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // generous: unit files share two cores with each other (and, on a busy machine, with more)
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'browser',
          // the monitor in headless Chromium (Debian's, installed by scripts/chromium.sh): one browser at a
          // time, in a group of its own after the others (a worker limit of its own needs one)
          include: ['test/browser/**/*.test.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          globalSetup: ['./test/browser/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // Docker suites share two cores: at most two files at once, long timeouts.
          maxWorkers: 2,
          // a project with its own worker limit needs its own group (unit runs first)
          sequence: { groupOrder: 1 },
          testTimeout: 180_000,
          hookTimeout: 600_000,
          globalSetup: ['./test/integration/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'terminal',
          // the interactive commands in a real terminal (tmux, installed by scripts/tmux.sh) on the real
          // engine: one file at a time, after the integration suites
          include: ['test/terminal/**/*.test.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 4 },
          testTimeout: 600_000,
          hookTimeout: 600_000,
          globalSetup: ['./test/terminal/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'security',
          // `make security` runs every attack (HAMMER_SECURITY=full); `make test` only the cheap ones
          include: process.env['HAMMER_SECURITY'] === 'full' ? ['test/security/**/*.test.ts'] : SECURITY_CHEAP,
          exclude: GVISOR_EXCLUDE,
          // attacks load the shared engine: one file at a time, after the integration suites
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
          testTimeout: 300_000,
          hookTimeout: 600_000,
          globalSetup: ['./test/integration/global-setup.ts'],
        },
      },
    ],
  },
});
