import { describe, expect, it } from 'vitest';
import { HammerError, isHammerError } from '../../../src/errors.js';
import { detectToolchain } from '../../../src/images/detect.js';

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
    expect(err.message).toContain('node (package.json)');
    expect(err.message).toContain('python (pyproject.toml, requirements.txt)');
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
});
