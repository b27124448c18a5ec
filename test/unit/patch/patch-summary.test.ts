import { describe, expect, it } from 'vitest';
import { commitMessage } from '../../../src/git/commit-message.js';
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
  it('renders file names inert for a commit message: no mention, issue reference, HTML or link', () => {
    expect(summarizePatch([{ path: 'closes #1', status: 'added' }])).toBe('add closes%20%231');
    expect(summarizePatch([{ path: '@octocat.py', status: 'modified' }])).toBe('update %40octocat.py');
    expect(summarizePatch([{ path: '<b>x</b>.py', status: 'modified' }])).toBe('update %3Cb%3Ex%3C/b%3E.py');
    expect(summarizePatch([{ path: 'www.evil.example/x.py', status: 'modified' }])).toBe(
      'update www%2Eevil.example/x.py',
    );
    expect(summarizePatch([{ path: 'src/app_1.py', status: 'modified' }])).toBe('update src/app_1.py');
    const msg = commitMessage({
      subject: summarizePatch([
        { path: 'a.py', status: 'modified' },
        { path: 'fixes #3 @bob', status: 'added' },
      ]),
      body: '',
      trailers: [],
    });
    expect(msg).not.toMatch(/#3|@bob/);
  });
});
