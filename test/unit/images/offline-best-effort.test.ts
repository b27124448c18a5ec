// Offline setup's best effort: the skip lines it prints, what they say a package is, and whether the
// tests can run without what was skipped (their runner, the modules they import).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { jsToolKind, NODE_BEST_EFFORT } from '../../../src/images/node-best-effort.js';
import { PYTHON_BEST_EFFORT, toolKind } from '../../../src/images/python-best-effort.js';
import { SetupLog } from '../../../src/images/setup-failure.js';
import {
  jsImports,
  jsRunnerOf,
  jsTestFiles,
  localModules,
  modulesOf,
  nodeTestNeeds,
  pythonImports,
  pythonTestFiles,
  runnerOf,
  testNeeds,
} from '../../../src/images/test-needs.js';

describe('what a skipped package is', () => {
  it('names linters, formatters, type checkers, build and publishing tools', () => {
    expect(toolKind('flake8')).toBe('a linter');
    expect(toolKind('Black')).toBe('a formatter');
    expect(toolKind('mypy')).toBe('a type checker');
    expect(toolKind('build')).toBe('a build tool');
    expect(toolKind('twine')).toBe('a publishing tool');
    expect(toolKind('flake8-bugbear')).toBe('a linter plugin');
    expect(toolKind('types-requests')).toBe('type stubs');
    expect(toolKind('django-stubs')).toBe('type stubs');
    expect(toolKind('requests')).toBeNull();
  });

  it('the step script carries the same table', () => {
    expect(PYTHON_BEST_EFFORT).toContain('\\"flake8\\":\\"a linter\\"');
    expect(PYTHON_BEST_EFFORT).toContain('is not available without a package index');
  });
});

describe('SetupLog reads the skip lines', () => {
  it('each name once, with its kind', () => {
    const log = new SetupLog();
    for (const l of [
      'hammer-box: setup step 4 of 4: offline, best effort: what the image has, the rest skipped',
      'hammer-box: skipped flake8 (a linter): flake8>=6 is not available without a package index',
      'hammer-box: skipped Requests: requests>=2 is not available without a package index',
      'hammer-box: skipped flake8 (a linter): flake8 is not available without a package index',
      'hammer-box: kept pytest 8.3.5 from the image: pytest==7.0.0 is not available without a package index',
      'hammer-box: setup step 4 succeeded',
    ])
      log.add(l);
    expect(log.skipped()).toEqual([
      { name: 'flake8', kind: 'a linter' },
      { name: 'requests', kind: null },
    ]);
    expect(log.records().map((r) => r.outcome)).toEqual(['succeeded']);
  });
});

describe('what the tests need', () => {
  it('reads the unconditional imports of a test file', () => {
    const text = [
      'import os, json as j',
      'import requests',
      'from yaml import safe_load',
      'from . import helpers',
      'from calc.core import total  # the package',
      'try:',
      '    import numpy',
      'except ImportError:',
      '    numpy = None',
      'def test_x():',
      '    import toml',
    ].join('\n');
    expect(pythonImports(text)).toEqual(['os', 'json', 'requests', 'yaml', 'calc']);
  });

  it('maps distributions to the modules they provide', () => {
    expect(modulesOf('pyyaml')).toContain('yaml');
    expect(modulesOf('python-dateutil')).toContain('dateutil');
    expect(modulesOf('typing-extensions')).toContain('typing_extensions');
  });

  it('the runner and imported packages are needed; linters and unimported packages are not', () => {
    const files = new Map([
      ['tests/test_api.py', 'import requests\nfrom calc import total\n'],
      ['tests/conftest.py', 'import pytest\n'],
    ]);
    const paths = ['calc/__init__.py', 'tests/test_api.py', 'tests/conftest.py'];
    const base = { testCommand: 'python3 -m pytest -q', testFiles: files, local: localModules(paths) };
    expect(testNeeds({ ...base, skipped: ['flake8', 'build', 'six'] })).toEqual({ runner: null, imports: [] });
    expect(testNeeds({ ...base, skipped: ['flake8', 'requests'] })).toEqual({
      runner: null,
      imports: [{ dist: 'requests', module: 'requests', file: 'tests/test_api.py' }],
    });
    expect(testNeeds({ ...base, skipped: ['pytest'] }).runner).toBe('pytest');
    expect(testNeeds({ ...base, testCommand: 'tox -e py', skipped: ['tox'] }).runner).toBe('tox');
    // a module the repository defines itself is never missing
    expect(testNeeds({ ...base, skipped: ['calc'] }).imports).toEqual([]);
  });

  it('finds the test files and the runner of a command', () => {
    expect(
      pythonTestFiles(['tests/test_a.py', 'src/a.py', 'conftest.py', 'pkg/a_test.py', '.venv/lib/test_x.py']),
    ).toEqual(['tests/test_a.py', 'conftest.py', 'pkg/a_test.py']);
    expect(runnerOf('python3 -m pytest -q')).toBe('pytest');
    expect(runnerOf('/usr/bin/python3.12 -m unittest')).toBe('unittest');
    expect(runnerOf('python3 tests/run.py')).toBeNull();
    expect(runnerOf('nox -s tests')).toBe('nox');
  });
});

describe("node's best effort", () => {
  it('names the JavaScript tools tests never need', () => {
    expect(jsToolKind('eslint')).toBe('a linter');
    expect(jsToolKind('eslint-plugin-import')).toBe('a linter plugin');
    expect(jsToolKind('@typescript-eslint/parser')).toBe('a linter plugin');
    expect(jsToolKind('@types/node')).toBe('type definitions');
    expect(jsToolKind('prettier')).toBe('a formatter');
    expect(jsToolKind('vitest')).toBeNull();
  });

  it('the step script names every dependency once, each in one line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hb-node-be-'));
    try {
      await writeFile(
        join(dir, 'package.json'),
        JSON.stringify({
          dependencies: { 'is-number': '7.0.0' },
          devDependencies: { eslint: '9', '@types/node': '22', 'is-number': '7.0.0', 'bad name;': '1' },
        }),
      );
      await writeFile(join(dir, 'be.js'), NODE_BEST_EFFORT);
      const { stdout } = await promisify(execFile)(process.execPath, ['be.js'], { cwd: dir });
      expect(stdout.trim().split('\n')).toEqual([
        'hammer-box: skipped is-number: not available without a package registry',
        'hammer-box: skipped eslint (a linter): not available without a package registry',
        'hammer-box: skipped @types/node (type definitions): not available without a package registry',
      ]);
      const log = new SetupLog();
      for (const l of stdout.trim().split('\n')) log.add(l);
      expect(log.skipped().map((s) => s.name)).toEqual(['is-number', 'eslint', '@types/node']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads the packages a test file imports, and the program a test script starts', () => {
    const text = [
      "import { expect } from 'vitest';",
      "import type { X } from '@acme/types/sub';",
      "const fs = require('fs');",
      "const x = await import('lodash/fp');",
      "import './setup.js';",
      "import { readFile } from 'node:fs/promises';",
    ].join('\n');
    expect(jsImports(text)).toEqual(['vitest', '@acme/types', 'lodash']);
    expect(jsRunnerOf('vitest run')).toBe('vitest');
    expect(jsRunnerOf('NODE_ENV=test npx jest --ci')).toBe('jest');
    expect(jsRunnerOf('node --test')).toBeNull();
    expect(jsTestFiles(['src/a.test.ts', 'test/b.js', 'src/c.ts', 'node_modules/x/d.test.js'])).toEqual([
      'src/a.test.ts',
      'test/b.js',
    ]);
  });

  it('the runner and the imported packages are needed; linters are not', () => {
    const testFiles = new Map([
      ['calc.test.js', "const test = require('node:test');\nconst n = require('is-number');\n"],
    ]);
    expect(nodeTestNeeds({ skipped: ['eslint', 'prettier'], testScript: 'node --test', testFiles })).toEqual({
      runner: null,
      imports: [],
    });
    expect(nodeTestNeeds({ skipped: ['eslint', 'is-number'], testScript: 'node --test', testFiles }).imports).toEqual([
      { dist: 'is-number', module: 'is-number', file: 'calc.test.js' },
    ]);
    expect(nodeTestNeeds({ skipped: ['vitest'], testScript: 'vitest run', testFiles: new Map() }).runner).toBe(
      'vitest',
    );
  });
});
