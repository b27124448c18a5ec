import { describe, expect, it } from 'vitest';
import { interpretAnswer } from '../../../src/loop/interpret-answer.js';

describe('interpretAnswer', () => {
  it('turns a good answer into a vetted patch', async () => {
    const r = await interpretAnswer('Fix:\n```diff\n--- calc.py\n+++ calc.py\n@@ -1 +1 @@\n-a\n+b\n```\n', {
      maxDiffLines: 50,
    });
    expect(r).toMatchObject({
      kind: 'diff',
      patch: '--- a/calc.py\n+++ b/calc.py\n@@ -1 +1 @@\n-a\n+b\n',
      files: [{ oldPath: 'calc.py', newPath: 'calc.py', status: 'modified' }],
      lines: 5,
      added: 1,
      removed: 1,
      blocks: 1,
      fixes: [expect.stringMatching(/prefixes/)],
    });
  });
  it('passes NO_CHANGES through', async () => {
    expect(await interpretAnswer('NO_CHANGES', { maxDiffLines: 50 })).toEqual({ kind: 'no_changes' });
  });
  it('makes a diff that fails vetting unusable, with the vetting reason', async () => {
    expect(
      await interpretAnswer('```diff\n--- a/.git/config\n+++ b/.git/config\n@@ -1 +1 @@\n-a\n+b\n```', {
        maxDiffLines: 50,
      }),
    ).toEqual({
      kind: 'unusable',
      reason: '".git/config" is inside .git; patches may not touch git\'s own files',
    });
    expect(
      await interpretAnswer('```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```', { maxDiffLines: 2 }),
    ).toMatchObject({
      kind: 'unusable',
      reason: expect.stringMatching(/over the limit of 2/),
    });
  });
  it('keeps prose out of the patch so it never reaches validation as junk', async () => {
    const r = await interpretAnswer('Sure!\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\nThat should do it.\n', {
      maxDiffLines: 50,
    });
    expect(r.kind).toBe('diff');
  });
});
