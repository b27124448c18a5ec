import { describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { getToolchain, toolchainNames } from '../../../src/images/toolchains.js';
import { imagesDir } from '../../../src/images/package-root.js';
import { existsSync } from 'node:fs';
import path from 'node:path';

describe('toolchains', () => {
  it('knows python with its default test command and a build context on disk', () => {
    const python = getToolchain('python');
    expect(python.defaultTestCommand).toBe('python3 -m pytest -q');
    expect(existsSync(path.join(imagesDir(), python.dir, 'Dockerfile'))).toBe(true);
  });

  it('has a Dockerfile for every registered toolchain', () => {
    for (const name of toolchainNames()) {
      expect(existsSync(path.join(imagesDir(), getToolchain(name).dir, 'Dockerfile'))).toBe(true);
    }
  });

  it('refuses an unknown toolchain with a USAGE error naming the known ones', () => {
    const err = (() => {
      try {
        getToolchain('cobol');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(isHammerError(err, 'USAGE')).toBe(true);
    expect((err as { hint: string }).hint).toContain('python');
    expect(() => getToolchain('constructor')).toThrow();
  });
});
