import { describe, expect, it } from 'vitest';
import { isHammerError } from '../../../../src/errors.js';
import type { VersionConstraint } from '../../../../src/images/versions/constraint.js';
import {
  describeResolved,
  resolveToolchainVersion,
  type ResolvedToolchain,
} from '../../../../src/images/versions/resolve.js';

const declared = (constraint: VersionConstraint, file = 'f', text = 't') => ({ file, text, constraint });

function failure(fn: () => unknown): { code: string; message: string; hint: string | undefined } {
  try {
    fn();
  } catch (err) {
    if (isHammerError(err)) return { code: err.code, message: err.message, hint: err.hint };
  }
  throw new Error('expected a HammerError');
}

describe('resolveToolchainVersion', () => {
  it('gives the default when nothing is declared', () => {
    const r = resolveToolchainVersion('go', null);
    expect(r).toMatchObject({ source: 'default', release: { version: '1.24', origin: 'Debian 13' } });
    expect(describeResolved(r)).toBe('go 1.24 (default)');
    expect(resolveToolchainVersion('node', null).release.version).toMatch(/^24\./);
    expect(resolveToolchainVersion('rust', null).release.version).toBe('1.85');
    expect(resolveToolchainVersion('python', null).release.version).toBe('3.13');
  });

  it('keeps the default when it satisfies the declaration', () => {
    const r = resolveToolchainVersion('go', declared({ kind: 'at-least', version: '1.22' }, 'go.mod', 'go 1.22'));
    expect(describeResolved(r)).toBe('go 1.24 (go.mod: go 1.22)');
    expect(r.source).toBe('declared');
  });

  it('takes the nearest newer release when the default is too old', () => {
    expect(resolveToolchainVersion('go', declared({ kind: 'at-least', version: '1.24.7' })).release.version).toBe(
      '1.25',
    );
    expect(resolveToolchainVersion('go', declared({ kind: 'at-least', version: '1.26' })).release.version).toBe('1.26');
    expect(resolveToolchainVersion('rust', declared({ kind: 'at-least', version: '1.88' })).release.version).toBe(
      '1.96',
    );
  });

  it('takes an older release when only that fits', () => {
    const r = resolveToolchainVersion('node', declared({ kind: 'semver', range: '22' }, '.nvmrc', '22'));
    expect(r.release).toMatchObject({
      version: '22.23.3',
      buildArgs: { NODE_VERSION: '22.23.3', NPM_VERSION: '10.9.9' },
    });
    expect(resolveToolchainVersion('node', declared({ kind: 'semver', range: '^18 || ^20' })).release.version).toBe(
      '20.20.2',
    );
  });

  it('builds an exact Node.js pin the table does not hold', () => {
    const r = resolveToolchainVersion('node', declared({ kind: 'semver', range: '22.3.0' }));
    expect(r.release).toMatchObject({ version: '22.3.0', origin: 'npm registry (exact pin)' });
  });

  it('refuses with the list of what is available', () => {
    const f = failure(() =>
      resolveToolchainVersion('python', declared({ kind: 'series', version: '3.12' }, '.python-version', '3.12')),
    );
    expect(f.code).toBe('TOOLCHAIN_UNAVAILABLE');
    expect(f.message).toBe(
      '.python-version asks for python 3.12 (3.12.x), and no python hammer-box can build satisfies it; available: 3.13 (Debian 13)',
    );
    expect(f.hint).toContain('[sandbox] toolchain_version');
    const g = failure(() => resolveToolchainVersion('go', declared({ kind: 'at-least', version: '1.30' })));
    expect(g.message).toContain(
      'available: 1.24 (Debian 13), 1.25 (Debian 13 backports), 1.26 (Debian 13 backports), 1.27 (Debian 13 backports)',
    );
    expect(failure(() => resolveToolchainVersion('node', declared({ kind: 'semver', range: '22.3' }))).code).toBe(
      'TOOLCHAIN_UNAVAILABLE',
    );
  });

  it('an override wins over the declaration and names itself when it fits nothing', () => {
    const r: ResolvedToolchain = resolveToolchainVersion(
      'python',
      declared({ kind: 'series', version: '3.12' }),
      '3.13',
    );
    expect(describeResolved(r)).toBe('python 3.13 ([sandbox] toolchain_version: 3.13)');
    expect(resolveToolchainVersion('go', null, '1.26').release.version).toBe('1.26');
    expect(resolveToolchainVersion('node', null, '22').release.version).toBe('22.23.3');
    const f = failure(() => resolveToolchainVersion('go', null, '1.19'));
    expect(f.message).toMatch(/^\[sandbox\] toolchain_version asks for go 1\.19/);
    expect(f.hint).toBe('set [sandbox] toolchain_version (or --toolchain-version) to one of: 1.24, 1.25, 1.26, 1.27');
  });

  it('PEP 440 specifiers are evaluated as pip does', () => {
    expect(resolveToolchainVersion('python', declared({ kind: 'pep440', specifier: '>=3.9,<4' })).release.version).toBe(
      '3.13',
    );
    expect(
      failure(() => resolveToolchainVersion('python', declared({ kind: 'pep440', specifier: '<3.13' }))).code,
    ).toBe('TOOLCHAIN_UNAVAILABLE');
  });
});
