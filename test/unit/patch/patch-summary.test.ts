import { describe, expect, it } from 'vitest';
import { summarizePatch } from '../../../src/patch/patch-summary.js';

describe('summarizePatch', () => {
  it.each([
    [[{ path: 'calc.py', status: 'modified' as const }], 'update calc.py'],
    [[{ path: 'new.py', status: 'added' as const }], 'add new.py'],
    [[{ path: 'b.py', status: 'renamed' as const, from: 'a.py' }], 'rename a.py to b.py'],
    [
      [
        { path: 'a.py', status: 'modified' as const },
        { path: 'b.py', status: 'modified' as const },
      ],
      'update 2 files: a.py, b.py',
    ],
    [
      [
        { path: 'a.py', status: 'added' as const },
        { path: 'b.py', status: 'modified' as const },
      ],
      'change 2 files: a.py, b.py',
    ],
    [[], 'no file changes'],
  ])('%j -> %s', (files, expected) => {
    expect(summarizePatch(files)).toBe(expected);
  });
  it('stays one short line whatever the paths hold', () => {
    const s = summarizePatch([{ path: `evil\n\u001b[31m${'x'.repeat(200)}.py`, status: 'modified' }]);
    expect(s).not.toMatch(/[\n\u001b]/);
    expect(s.length).toBeLessThanOrEqual(60);
  });
});
