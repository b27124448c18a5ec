// Offline setup's best effort: the skip lines it prints, what they say a package is, and whether the
// tests can run without what was skipped (their runner, the modules they import).
import { describe, expect, it } from 'vitest';
import { PYTHON_BEST_EFFORT, toolKind } from '../../../src/images/python-best-effort.js';
import { SetupLog } from '../../../src/images/setup-failure.js';
import {
  localModules,
  modulesOf,
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
