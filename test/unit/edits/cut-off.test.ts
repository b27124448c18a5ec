import { describe, expect, it } from 'vitest';
import { cutOffReason, detectCutOff } from '../../../src/edits/index.js';
import { interpretAnswer } from '../../../src/loop/interpret-answer.js';

const HUNK = ['@@ -1,4 +1,5 @@', ' import os', '+import sys', ' ', ' def main():', '     pass'];
const complete = ['```diff', '--- a/app.py', '+++ b/app.py', ...HUNK, '```', ''].join('\n');

describe('detectCutOff', () => {
  it('takes the server at its word: "length" cuts off even a complete diff', () => {
    expect(detectCutOff(`${complete}\nThis fixes the import and`, 'length')).toEqual({ by: 'server', where: '' });
    expect(detectCutOff(complete, 'stop')).toBeNull();
    expect(detectCutOff(complete)).toBeNull();
  });

  it('says where a diff stops: the hunk, its file and the lines it has of those its header announces', () => {
    const text = ['```diff', '--- a/app.py', '+++ b/app.py', ...HUNK.slice(0, 3)].join('\n');
    for (const reason of ['length', 'stop', undefined]) {
      const cut = detectCutOff(text, reason);
      expect(cut?.by).toBe(reason === 'length' ? 'server' : 'text');
      expect(cut?.where).toBe(
        'in hunk @@ -1,4 +1,5 @@ of app.py (it has 1 of its 4 old lines) inside its ```diff block, which was never closed',
      );
    }
  });

  it('takes a raw diff whose last hunk runs short at the end of the answer as cut off', () => {
    const text = ['--- a/app.py', '+++ b/app.py', ...HUNK.slice(0, 4)].join('\n');
    expect(detectCutOff(text, 'stop')).toEqual({
      by: 'text',
      where: 'in hunk @@ -1,4 +1,5 @@ of app.py (it has 2 of its 4 old lines)',
    });
  });

  it('does not take a miscounted hunk that ends before the answer does as cut off', () => {
    const text = [
      '```diff',
      '--- a/app.py',
      '+++ b/app.py',
      '@@ -1,9 +1,9 @@',
      '-import os',
      '+import sys',
      '```',
      'Done.',
    ];
    expect(detectCutOff(text.join('\n'))).toBeNull();
  });

  it('counts an unclosed fence around a hunk without numbers only when the server did not say why it stopped', () => {
    const text = [
      '```diff',
      '--- a/app.py',
      '+++ b/app.py',
      '@@ ... @@',
      ' import os',
      '+from sympy.matrices.expressions.trace import',
    ].join('\n');
    expect(detectCutOff(text)?.where).toBe(
      'in hunk @@ ... @@ of app.py inside its ```diff block, which was never closed',
    );
    expect(detectCutOff(text, 'stop')).toBeNull();
    expect(detectCutOff(text, 'length')?.by).toBe('server');
  });

  it('takes a SEARCH/REPLACE block that is never closed as cut off', () => {
    const text = 'app.py\n<<<<<<< SEARCH\nimport os\n=======\nimport os\nimport sy';
    expect(detectCutOff(text, 'stop')).toEqual({
      by: 'text',
      where: 'in a SEARCH/REPLACE block for app.py, which was never closed',
    });
  });

  it('names an answer that ran out while thinking', () => {
    expect(detectCutOff('<think>first I need to look at', 'length')?.where).toBe(
      'while still thinking, before any edit',
    );
  });

  it('tells the model plainly that the answer was cut off at the token limit and asks for a smaller change', () => {
    const reason = cutOffReason({ by: 'server', where: 'in hunk @@ -1,4 +1,5 @@ of app.py' });
    expect(reason).toMatch(
      /^your answer was cut off at the token limit in hunk @@ -1,4 \+1,5 @@ of app.py; nothing of it was applied/,
    );
    expect(reason).toMatch(/smaller change/);
  });
});

describe('interpretAnswer and cut-off answers', () => {
  it('uses nothing of an answer the server cut off, even its complete hunks', async () => {
    const two = complete.replace('```\n', '```\n\n```diff\n--- a/b.py\n+++ b/b.py\n@@ -1,2 +1,3 @@\n x = 1\n+y');
    const read = async () =>
      new Map([['app.py', { kind: 'text' as const, content: 'import os\n\ndef main():\n    pass\n' }]]);
    const cut = await interpretAnswer(two, { maxDiffLines: 500, finishReason: 'length' }, read);
    expect(cut).toMatchObject({ kind: 'unusable', cutOff: { by: 'server' } });
    expect(cut.kind === 'unusable' && cut.reason).toMatch(
      /cut off at the token limit in hunk @@ -1,2 \+1,3 @@ of b.py/,
    );
    const whole = await interpretAnswer(complete, { maxDiffLines: 500, finishReason: 'stop' }, read);
    expect(whole.kind).toBe('diff');
  });
});
