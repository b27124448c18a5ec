// The model's words about its change, without the change itself.
import { describe, expect, it } from 'vitest';
import { EXPLANATION_MAX_LINES, modelExplanation } from '../../../src/edits/explanation.js';
import { renderDiffstat } from '../../../src/report/diffstat.js';
import { parseNumstat } from '../../../src/git/diffstat.js';

describe('modelExplanation', () => {
  it('keeps the prose and drops thinking, fenced diffs, raw hunks and search/replace blocks', () => {
    const answer = [
      '<think>the tests say total is negative</think>',
      'The loop subtracted each item; it now adds them.',
      '',
      '```diff',
      '--- a/calc.py',
      '+++ b/calc.py',
      '@@ -1 +1 @@',
      '-x',
      '+y',
      '```',
      'calc.py',
      '<<<<<<< SEARCH',
      '        result -= item',
      '=======',
      '        result += item',
      '>>>>>>> REPLACE',
      '--- a/b.py',
      '+++ b/b.py',
      '@@ -3,1 +3,1 @@',
      '-a',
      '+b',
      '',
      'This also fixes the empty list case.',
    ].join('\n');
    expect(modelExplanation(answer)).toBe(
      'The loop subtracted each item; it now adds them.\n\nThis also fixes the empty list case.',
    );
  });

  it('is null for an answer that is only an edit, and at most a few lines otherwise', () => {
    expect(modelExplanation('```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```\n')).toBeNull();
    expect(modelExplanation('NO_CHANGES')).toBeNull();
    const long = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    expect(modelExplanation(long)!.split('\n')).toHaveLength(EXPLANATION_MAX_LINES);
  });

  it('leaves out what the model says about the edit itself: its format, hunks, applying, earlier attempts', () => {
    const answer = [
      'Here is the corrected unified diff with proper hunk headers:',
      '',
      '```diff',
      '--- a/calc.py',
      '+++ b/calc.py',
      '@@ -1 +1 @@',
      '-x',
      '+y',
      '```',
      '',
      'My previous patch did not apply because the line numbers were off. total() subtracted each item; it now adds them, so the sum of [1, 2, 3] is 6.',
      '',
      'This diff should apply cleanly with git apply.',
    ].join('\n');
    expect(modelExplanation(answer)).toBe(
      'total() subtracted each item; it now adds them, so the sum of [1, 2, 3] is 6.',
    );
    expect(modelExplanation('Here is the fix:\n\n```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```\n')).toBeNull();
    expect(modelExplanation('- fixed the hunk header\n- mean() of [] is 0 now')).toBe('- mean() of [] is 0 now');
  });

  it('shows no escape sequence', () => {
    expect(modelExplanation('done \u001b[2J\u0007')).toBe('done');
  });
});

describe('diffstat', () => {
  it('parses git diff --numstat -z with renames and binary files', () => {
    expect(parseNumstat('3\t1\tcalc.py\0-\t-\tlogo.png\x000\t0\t\0old.py\0new.py\0')).toEqual([
      { path: 'calc.py', added: 3, removed: 1 },
      { path: 'logo.png', added: null, removed: null },
      { path: 'new.py', from: 'old.py', added: 0, removed: 0 },
    ]);
  });

  it('scales the bar to 40 characters', () => {
    const text = renderDiffstat([{ path: 'big.py', added: 300, removed: 100 }]);
    expect(text).toBe(
      ` big.py | 400 ${'+'.repeat(30)}${'-'.repeat(10)}\n 1 file changed, 300 insertions(+), 100 deletions(-)`,
    );
  });
});
