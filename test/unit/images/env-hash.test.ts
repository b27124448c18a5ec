import { describe, expect, it } from 'vitest';
import { envImageTag, hashEnvInputs, type EnvInputs } from '../../../src/images/env-hash.js';
import { planEnvImage } from '../../../src/images/env-image.js';

const base: EnvInputs = {
  toolchainImageId: 'sha256:aaaa',
  command: 'npm ci',
  script: 'set -eu\n',
  files: [
    { path: 'package.json', oid: '1111111111111111111111111111111111111111' },
    { path: 'package-lock.json', oid: '2222222222222222222222222222222222222222' },
  ],
};

describe('hashEnvInputs', () => {
  it('is 12 hex digits and ignores the order of files', () => {
    const h = hashEnvInputs(base);
    expect(h).toMatch(/^[0-9a-f]{12}$/);
    expect(hashEnvInputs({ ...base, files: [...base.files].reverse() })).toBe(h);
  });

  it.each([
    ['the toolchain image', { toolchainImageId: 'sha256:bbbb' }],
    ['the setup command', { command: 'npm install' }],
    ['the setup script', { script: 'set -eu\n# v2\n' }],
    [
      'a lockfile',
      { files: [base.files[0]!, { path: 'package-lock.json', oid: '3333333333333333333333333333333333333333' }] },
    ],
    ['the set of files', { files: [base.files[0]!] }],
  ])('changes with %s', (_what, change) => {
    expect(hashEnvInputs({ ...base, ...change })).not.toBe(hashEnvInputs(base));
  });

  it('does not confuse a path/oid boundary (length-prefixed fields)', () => {
    const a = hashEnvInputs({ ...base, files: [{ path: 'ab', oid: 'c' }] });
    const b = hashEnvInputs({ ...base, files: [{ path: 'a', oid: 'bc' }] });
    expect(a).not.toBe(b);
  });

  it('names env images hammer-box/<toolchain>-env:<hash>, and planEnvImage is stable for the same inputs', () => {
    expect(envImageTag('node', 'abcdef012345')).toBe('hammer-box/node-env:abcdef012345');
    const req = {
      recipe: { toolchain: 'node', command: 'npm ci', custom: false },
      toolchainImage: { ref: 'hammer-box/node:x', id: 'sha256:aaaa' },
      files: base.files,
    };
    expect(planEnvImage(req)).toEqual(planEnvImage({ ...req, files: [...base.files].reverse() }));
    expect(planEnvImage(req).tag).toMatch(/^hammer-box\/node-env:[0-9a-f]{12}$/);
    expect(planEnvImage({ ...req, recipe: { ...req.recipe, toolchain: 'python' } }).hash).not.toBe(
      planEnvImage(req).hash,
    );
  });
});
