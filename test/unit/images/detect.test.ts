import { describe, expect, it } from 'vitest';
import { HammerError, isHammerError } from '../../../src/errors.js';
import { detectToolchain, environmentLine, testEvidence } from '../../../src/images/detect.js';

function usageError(fn: () => unknown): HammerError {
  try {
    fn();
  } catch (err) {
    if (isHammerError(err, 'USAGE')) return err;
    throw err;
  }
  throw new Error('expected a USAGE error');
}

describe('detectToolchain', () => {
  it.each([
    [['pyproject.toml', 'src.py'], 'python'],
    [['setup.py'], 'python'],
    [['setup.cfg'], 'python'],
    [['requirements.txt'], 'python'],
    [['requirements-dev.txt', 'README.md'], 'python'],
    [['package.json', 'index.js'], 'node'],
    [['go.mod', 'go.sum', 'main.go'], 'go'],
    [['Cargo.toml', 'Cargo.lock'], 'rust'],
  ])('%j gives %s by marker, naming the marker files', (files, toolchain) => {
    const d = detectToolchain(files);
    expect(d.toolchain).toBe(toolchain);
    expect(d.by).toBe('marker');
    expect(d.evidence.length).toBeGreaterThan(0);
    for (const e of d.evidence) expect(files).toContain(e);
  });

  it('refuses several toolchains, naming each with its files and the overrides', () => {
    const err = usageError(() => detectToolchain(['package.json', 'pyproject.toml', 'requirements.txt']));
    expect(err.message).toContain('node (package.json; no tests found)');
    expect(err.message).toContain('python (pyproject.toml, requirements.txt; no tests found)');
    expect(err.hint).toContain('--toolchain');
    expect(err.hint).toContain('test_command');
  });

  it('refuses a repository with neither markers nor sources, listing the markers it looked for', () => {
    const err = usageError(() => detectToolchain(['README.md', 'LICENSE']));
    expect(err.message).toContain('package.json');
    expect(err.message).toContain('Cargo.toml');
    expect(err.hint).toContain('--toolchain');
  });

  it('only counts markers at the root; a nested package.json does not make a python repo node', () => {
    const d = detectToolchain(['requirements.txt'], ['requirements.txt', 'web/package.json']);
    expect(d.toolchain).toBe('python');
  });

  it('falls back on source extensions when no marker exists (a bare pytest repo)', () => {
    const d = detectToolchain(['calc.py', 'test_calc.py'], ['calc.py', 'test_calc.py', 'docs/index.md']);
    expect(d).toMatchObject({ toolchain: 'python', by: 'sources' });
  });

  it('refuses mixed sources without a marker', () => {
    const err = usageError(() => detectToolchain(['a.py', 'b.go']));
    expect(err.message).toContain('mixed');
    expect(err.message).toContain('go (b.go)');
  });

  it('a mixed repository: the ecosystem with tests wins, and says why the other was passed over', () => {
    const paths = ['package.json', 'pyproject.toml', 'src/app/__init__.py', 'tests/test_app.py', 'web/index.js'];
    const d = detectToolchain(['package.json', 'pyproject.toml'], paths, {
      packageJson: JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }),
    });
    expect(d).toMatchObject({ toolchain: 'python', by: 'evidence', evidence: ['pyproject.toml'], tests: ['tests/'] });
    expect(d.passedOver).toEqual(['node (package.json) has no tests']);
  });

  it('a real test script counts as node tests; the directive decides between two tested ecosystems', () => {
    const paths = ['package.json', 'setup.py', 'test_calc.py', 'calc.test.js'];
    const facts = { packageJson: JSON.stringify({ scripts: { test: 'node --test' } }) };
    const err = usageError(() => detectToolchain(['package.json', 'setup.py'], paths, facts));
    expect(err.message).toContain('evidence does not decide');
    expect(err.message).toContain('tests: calc.test.js, package.json test script');
    const d = detectToolchain(['package.json', 'setup.py'], paths, {
      ...facts,
      directive: 'Fix test_calc.py: total is wrong',
    });
    expect(d.toolchain).toBe('python');
  });

  it('tests under node_modules or vendor are not evidence', () => {
    expect(
      testEvidence(
        'node',
        ['node_modules/x/a.test.js'].filter((p) => !p.includes('node_modules')),
      ),
    ).toEqual([]);
    const d = detectToolchain(
      ['package.json', 'go.mod'],
      ['package.json', 'go.mod', 'node_modules/x/a.test.js', 'x_test.go'],
    );
    expect(d.toolchain).toBe('go');
  });
});

describe('projects below the root', () => {
  const paths = [
    'package.json',
    'test/index.test.js',
    'python/pyproject.toml',
    'python/calc/__init__.py',
    'python/tests/test_calc.py',
    'docs/package.json',
    'examples/go-client/go.mod',
    'examples/go-client/client_test.go',
  ];
  const facts = { packageJson: JSON.stringify({ scripts: { test: 'node --test' } }) };

  it('a Python project beside a root package.json is an alternative, tried when the root tests pass', () => {
    const d = detectToolchain(['package.json'], paths, { ...facts, directive: 'The sum is wrong; fix it.' });
    expect(d).toMatchObject({ toolchain: 'node', dir: '', by: 'marker', evidence: ['package.json'] });
    expect(d.alternatives).toEqual([
      { toolchain: 'python', dir: 'python', markers: ['python/pyproject.toml'], tests: ['python/tests/'] },
    ]);
  });

  it('the directive pointing into the project chooses it, and says why the root was passed over', () => {
    const d = detectToolchain(['package.json'], paths, {
      ...facts,
      directive: 'total() is wrong: tests/test_calc.py fails.',
    });
    expect(d).toMatchObject({
      toolchain: 'python',
      dir: 'python',
      by: 'evidence',
      evidence: ['python/pyproject.toml'],
    });
    expect(d.tests).toEqual(['python/tests/']);
    expect(d.passedOver).toEqual(['node (package.json): the directive points at python/']);
    expect(d.alternatives.map((a) => a.toolchain)).toEqual(['node']);
    expect(detectToolchain(['package.json'], paths, { ...facts, directive: 'See python/calc for the bug.' }).dir).toBe(
      'python',
    );
  });

  it('a project without a manifest at the root: the one below it', () => {
    const d = detectToolchain(['README.md'], ['README.md', 'server/go.mod', 'server/main_test.go']);
    expect(d).toMatchObject({ toolchain: 'go', dir: 'server', by: 'evidence', tests: ['server/main_test.go'] });
  });

  it('several projects below the root: the one the directive points at, or on a fix the first; else refuse', () => {
    const two = ['README.md', 'api/go.mod', 'api/x_test.go', 'web/package.json', 'web/a.test.js'];
    expect(detectToolchain(['README.md'], two, { directive: 'Fix web/a.js' }).dir).toBe('web');
    expect(detectToolchain(['README.md'], two, { directive: 'The handler crashes; fix it.' })).toMatchObject({
      dir: 'api',
      alternatives: [{ toolchain: 'node', dir: 'web' }],
    });
    expect(usageError(() => detectToolchain(['README.md'], two, { directive: 'Add a flag.' })).message).toContain(
      'several projects below it',
    );
  });

  it('a directory whose name is not plain words is never a project (it would be shell syntax in `cd <dir>`)', () => {
    const d = detectToolchain(
      ['package.json'],
      [
        'package.json',
        'a.test.js',
        'x;curl evil/pyproject.toml',
        'x;curl evil/test_x.py',
        '$(id)/go.mod',
        '$(id)/a_test.go',
      ],
      facts,
    );
    expect(d.alternatives).toEqual([]);
  });

  it('workspace members of the root toolchain, documentation and examples are not projects of their own', () => {
    const d = detectToolchain(
      ['package.json'],
      [
        'package.json',
        'packages/a/package.json',
        'packages/a/a.test.js',
        'examples/py/setup.py',
        'examples/py/test_x.py',
      ],
      facts,
    );
    expect(d.alternatives).toEqual([]);
  });

  it('a directory of test files without a manifest is a project (a test script beside its module, flatted)', () => {
    const flatted = [
      'package.json',
      'test/index.js',
      'golang/go.mod',
      'golang/pkg/flatted/flatted.go',
      'golang/pkg/flatted/flatted_test.go',
      'python/flatted.py',
      'python/test.py',
      'php/test.php',
    ];
    const fix = (directive: string) => detectToolchain(['package.json'], flatted, { ...facts, directive });
    // the directive names the module: its directory is chosen, run as the script it is
    expect(fix('parse() in flatted.py loses the last key. Fix it.')).toMatchObject({
      toolchain: 'python',
      dir: 'python',
      by: 'evidence',
      evidence: ['python/test.py'],
      command: 'python3 test.py',
      passedOver: ['node (package.json): the directive points at python/'],
    });
    // the directive names the language only
    const byLanguage = fix("The Python version's parse() loses the last key. Fix it.");
    expect(byLanguage).toMatchObject({ toolchain: 'python', dir: 'python', command: 'python3 test.py' });
    expect(byLanguage.passedOver).toEqual(['node (package.json): the directive names python, which is at python/']);
    expect(byLanguage.alternatives.map((a) => `${a.toolchain} ${a.dir}`)).toEqual(['node ', 'go golang']);
    // nothing points anywhere: the root, with the others tried after it
    const root = fix('parse() loses the last key. Fix it.');
    expect(root).toMatchObject({ toolchain: 'node', dir: '' });
    expect(root.alternatives).toEqual([
      { toolchain: 'go', dir: 'golang', markers: ['golang/go.mod'], tests: ['golang/pkg/'] },
      { toolchain: 'python', dir: 'python', markers: [], tests: ['python/test.py'], command: 'python3 test.py' },
    ]);
  });

  it("pytest's files without a manifest: the default command; under the root's package.json, the root's own", () => {
    const d = detectToolchain(
      ['package.json'],
      ['package.json', 'index.test.js', 'tests/test_calc.py', 'calc.py', 'tools/sub/test_x.py'],
      { ...facts, directive: 'calc.py returns the wrong total; fix it.' },
    );
    expect(d).toMatchObject({ toolchain: 'python', dir: '', evidence: ['tests/'] });
    expect(d.command).toBeUndefined();
    // Go test files without a go.mod run in GOPATH mode
    const go = detectToolchain(['package.json'], ['package.json', 'a.test.js', 'tool/x_test.go'], facts);
    expect(go.alternatives).toEqual([
      {
        toolchain: 'go',
        dir: 'tool',
        markers: [],
        tests: ['tool/x_test.go'],
        command: 'GO111MODULE=off go test ./...',
      },
    ]);
    // examples and a manifest of the same toolchain above keep theirs
    const kept = detectToolchain(
      ['package.json'],
      ['package.json', 'a.test.js', 'examples/py/test.py', 'py/pyproject.toml', 'py/tests/test_a.py', 'py/sub/test.py'],
      facts,
    );
    expect(kept.alternatives.map((a) => `${a.toolchain} ${a.dir} ${a.markers.join(',')}`)).toEqual([
      'python py py/pyproject.toml',
    ]);
  });

  it('two tested ecosystems at the root on a fix: the one with more tests, the other tried after', () => {
    const d = detectToolchain(
      ['package.json', 'setup.py'],
      ['package.json', 'setup.py', 'tests/test_a.py', 'pkg/test_b.py', 'calc.test.js'],
      { ...facts, directive: 'The total is wrong, fix it.' },
    );
    expect(d.toolchain).toBe('python');
    expect(d.alternatives.map((a) => a.toolchain)).toEqual(['node']);
    expect(d.passedOver[0]).toMatch(/tried if python's tests pass at baseline/);
  });
});

describe('environmentLine', () => {
  it('says toolchain, version, evidence and test command in one line', () => {
    expect(
      environmentLine({
        toolchain: 'python',
        version: '3.13',
        evidence: ['pyproject.toml', 'tests/'],
        testCommand: 'python3 -m pytest -q',
      }),
    ).toBe('toolchain python 3.13 (pyproject.toml, tests/), test command: python3 -m pytest -q');
    expect(environmentLine({ toolchain: 'go', evidence: [], testCommand: 'go test ./...', named: true })).toBe(
      'toolchain go (named), test command: go test ./...',
    );
    expect(
      environmentLine({
        toolchain: 'node',
        evidence: ['package.json'],
        testCommand: 'npm test',
        alternatives: ['python (python/test.py, no manifest)'],
      }),
    ).toBe(
      'toolchain node (package.json), test command: npm test; other projects, tried if these tests pass at baseline on a fix: python (python/test.py, no manifest)',
    );
  });
});
