import { describe, expect, it } from 'vitest';
import { ParseCache } from '../../../src/context/index.js';
import { treeOf } from './support.js';

describe('ParseCache: parses by blob id', () => {
  it('parses a blob once, and again when the content (so the blob id) changes', async () => {
    const cache = new ParseCache();
    const [before] = treeOf({ 'calc.py': 'def add(a, b):\n    return a - b\n' });
    const [after] = treeOf({ 'calc.py': 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n' });
    const first = await cache.analyze('calc.py', before!.oid, 'def add(a, b):\n    return a - b\n');
    const again = await cache.analyze('calc.py', before!.oid, 'def add(a, b):\n    return a - b\n');
    expect(again).toBe(first);
    expect(cache.parsed).toBe(1);
    const changed = await cache.analyze(
      'calc.py',
      after!.oid,
      'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n',
    );
    expect(cache.parsed).toBe(2);
    expect(changed?.definitions.map((d) => d.name)).toEqual(['add', 'sub']);
    expect(first?.definitions.map((d) => d.name)).toEqual(['add']);
  });
});

describe('ParseCache: tree indexes', () => {
  it('indexes a listing once, and a new listing (a file changed) anew', () => {
    const cache = new ParseCache();
    const listing = treeOf({ 'a.py': 'x = 1\n', 'vendor/b.py': 'y = 2\n', 'README.md': '# r\n' });
    const index = cache.index(listing);
    expect(cache.index(listing)).toBe(index);
    expect(index.sources).toEqual(['a.py']);
    const next = treeOf({ 'a.py': 'x = 3\n', 'vendor/b.py': 'y = 2\n', 'c.go': 'package c\n' });
    const fresh = cache.index(next);
    expect(fresh).not.toBe(index);
    expect(fresh.sources).toEqual(['a.py', 'c.go']);
    expect(fresh.byPath.get('a.py')?.oid).toBe(next[0]!.oid);
    expect(fresh.byPath.get('a.py')?.oid).not.toBe(listing[0]!.oid);
    expect(fresh.byDir.get('vendor')).toEqual(['vendor/b.py']);
  });
});

describe('ParseCache.searchOnce', () => {
  it('runs a search of one tree once per key, and again after it failed', async () => {
    const cache = new ParseCache();
    const index = cache.index(treeOf({ 'a.py': '' }));
    let runs = 0;
    const run = (): Promise<number> => Promise.resolve(++runs);
    expect(await cache.searchOnce(index, 'k', run)).toBe(1);
    expect(await cache.searchOnce(index, 'k', run)).toBe(1);
    expect(await cache.searchOnce(index, 'other', run)).toBe(2);
    await expect(cache.searchOnce(index, 'bad', () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(await cache.searchOnce(index, 'bad', run)).toBe(3);
  });
});
