import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './test/reporters/summary-line.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 20_000,
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
    ],
  },
});
