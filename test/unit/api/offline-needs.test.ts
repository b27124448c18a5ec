// After an offline setup's best effort: the run stops, naming what is missing, only when the tests'
// runner or a package the tests (or the repository's own modules they import) import was skipped.
import { describe, expect, it } from 'vitest';
import { assertTestsCanRun, describeSkipped } from '../../../src/api/offline-needs.js';
import type { RepoEnvironment } from '../../../src/api/repo-environment.js';
import { isHammerError } from '../../../src/errors.js';

const files: Record<string, string> = {
  'calc/__init__.py': 'import requests\nfrom calc.core import total\n',
  'calc/core.py': 'def total(xs):\n    return sum(xs)\n',
  'tests/test_calc.py': 'from calc import total\n',
  'web/package.json': JSON.stringify({ scripts: { test: 'vitest run' } }),
  'web/a.test.ts': "import { expect } from 'vitest';\nimport isNumber from 'is-number';\n",
};

const env = (toolchain: string, dir = ''): RepoEnvironment =>
  ({
    toolchain,
    dir,
    testCommand: toolchain === 'python' ? 'python3 -m pytest -q' : 'cd web && npm test',
    treePaths: Object.keys(files),
  }) as RepoEnvironment;

const read = (paths: readonly string[]) =>
  Promise.resolve(new Map(paths.filter((p) => p in files).map((p) => [p, files[p]!])));

async function refusal(p: Promise<void>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isHammerError(err, 'SETUP_FAILED')).toBe(true);
  return (err as Error).message;
}

describe('assertTestsCanRun', () => {
  it('lets the run go on without linters and packages nothing imports', async () => {
    await assertTestsCanRun(['flake8', 'black', 'six'], env('python'), read);
    await assertTestsCanRun(['eslint', '@types/node'], env('node', 'web'), read);
  });

  it("stops on a package the repository's own module imports, the tests importing that module", async () => {
    expect(await refusal(assertTestsCanRun(['flake8', 'requests'], env('python'), read))).toBe(
      'no package index is reachable, and the tests cannot run without what setup could not install: requests (calc/__init__.py imports requests)',
    );
  });

  it("stops on node's test runner or a package a test file imports", async () => {
    expect(await refusal(assertTestsCanRun(['vitest', 'is-number'], env('node', 'web'), read))).toBe(
      'no package registry is reachable, and the tests cannot run without what setup could not install: the test runner vitest; is-number (web/a.test.ts imports is-number)',
    );
  });

  it('describes a skipped package by what it is, when it is a known tool', () => {
    expect(describeSkipped('flake8')).toBe('flake8 (a linter)');
    expect(describeSkipped('eslint')).toBe('eslint (a linter)');
    expect(describeSkipped('requests')).toBe('requests');
  });
});
