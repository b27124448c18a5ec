import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/images/package-root.js';

describe('packageRoot', () => {
  it('finds the checkout from src/', () => {
    expect(path.basename(path.join(packageRoot(), 'images', 'python', 'Dockerfile'))).toBe('Dockerfile');
    expect(packageRoot()).toBe(path.resolve(import.meta.dirname, '..', '..', '..'));
  });

  it('walks up past directories that are not hammer-box’s (dist/, .bench/src/)', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'hb-root-'));
    try {
      await writeFile(path.join(root, 'package.json'), JSON.stringify({ name: 'hammer-box' }));
      const deep = path.join(root, '.bench', 'src', 'images');
      await mkdir(deep, { recursive: true });
      await writeFile(path.join(root, '.bench', 'package.json'), JSON.stringify({ name: 'something-else' }));
      expect(packageRoot(deep)).toBe(root);
      expect(packageRoot(path.join(root, 'dist', 'images'))).toBe(root);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
