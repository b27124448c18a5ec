import { describe, expect, it } from 'vitest';
import {
  parseAnswer,
  planEdits,
  rejectionText,
  renderFailures,
  vetEdits,
  type EditFailure,
} from '../../../src/edits/index.js';
import { systemMessage } from '../../../src/loop/prompt-text.js';

const DIFF = '```diff\n--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n```\n';
const SR = 'm.py\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n';

describe('parseAnswer and the edit format', () => {
  it('auto takes either format', () => {
    expect(parseAnswer(DIFF, { format: 'auto', strict: false })).toMatchObject({
      kind: 'edits',
      edits: { kind: 'udiff' },
    });
    expect(parseAnswer(SR, { format: 'auto', strict: false })).toMatchObject({
      kind: 'edits',
      edits: { kind: 'search_replace' },
    });
  });

  it('udiff refuses SEARCH/REPLACE blocks and search-replace refuses diffs, saying what to send', () => {
    expect(parseAnswer(SR, { format: 'udiff', strict: false })).toMatchObject({
      kind: 'unusable',
      reason: expect.stringMatching(/edit_format = "udiff"/),
    });
    expect(parseAnswer(DIFF, { format: 'search-replace', strict: false })).toMatchObject({
      kind: 'unusable',
      reason: expect.stringMatching(/answer with SEARCH\/REPLACE/),
    });
    expect(parseAnswer('I am not sure.', { format: 'search-replace', strict: false })).toMatchObject({
      kind: 'unusable',
      reason: expect.stringMatching(/no SEARCH\/REPLACE blocks/),
    });
  });

  it('strict mode takes unified diffs only, whatever the format', () => {
    expect(parseAnswer(SR, { format: 'search-replace', strict: true })).toMatchObject({
      kind: 'unusable',
      reason: expect.stringMatching(/strict/),
    });
    expect(parseAnswer(DIFF, { format: 'search-replace', strict: true }).kind).toBe('edits');
  });

  it('refuses an answer that mixes both formats', () => {
    expect(parseAnswer(`${DIFF}\n${SR}`, { format: 'auto', strict: false })).toMatchObject({
      kind: 'unusable',
      reason: expect.stringMatching(/mixes/),
    });
  });

  it('still recognises NO_CHANGES in every format', () => {
    for (const format of ['udiff', 'search-replace', 'auto'] as const)
      expect(parseAnswer('NO_CHANGES', { format, strict: false })).toEqual({ kind: 'no_changes' });
  });

  it("strict mode refuses a diff whose counts disagree with its body, with validation's reason", () => {
    const parsed = parseAnswer(DIFF.replace('@@ -1,2 +1,2 @@', '@@ -1,3 +1,3 @@'), { format: 'auto', strict: true });
    if (parsed.kind !== 'edits') throw new Error('no edits');
    expect(vetEdits(parsed.edits, { maxDiffLines: 100, strict: true })).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/says 3 old and 3 new lines/),
    });
    const lenient = vetEdits(parsed.edits, { maxDiffLines: 100, strict: false });
    expect(lenient.kind).toBe('vetted');
    if (lenient.kind !== 'vetted') return;
    const plan = planEdits(lenient, new Map([['m.py', { kind: 'text', content: 'def f():\n    return 1\n' }]]), {
      maxDiffLines: 100,
      strict: false,
    });
    expect(plan.candidates.map((c) => [c.rung, c.flags])).toEqual([
      ['recount', ['--recount']],
      ['whitespace', ['--recount', '--ignore-whitespace']],
      ['relocated', []],
    ]);
  });
});

describe('feedback', () => {
  const failures: EditFailure[] = [
    {
      path: 'calc.py',
      what: 'hunk 1 (@@ -5,6 +5,6 @@)',
      kind: 'not_found',
      missing: ['    result = 1'],
      region: { start: 4, lines: ['def total(items):', '    """Return the sum of items."""', '    result = 0'] },
      skipped: [],
    },
    { path: 'dup.py', what: 'SEARCH/REPLACE block 2', kind: 'ambiguous', at: [2, 7] },
  ];

  it('names file and hunk, the lines not found, and the closest region with line numbers', () => {
    const text = renderFailures(failures);
    expect(text).toContain('calc.py, hunk 1 (@@ -5,6 +5,6 @@): its lines (context and removed) were not found');
    expect(text).toContain('These lines are not in calc.py at all:\n        result = 1');
    expect(text).toContain(
      'The closest region of calc.py (lines 4-6) is:\n4 | def total(items):\n5 |     """Return the sum of items."""\n6 |     result = 0',
    );
    expect(text).toContain('dup.py, SEARCH/REPLACE block 2: its lines match 2 places (lines 2, 7)');
  });

  it("puts git's message for the patch as written after the failures", () => {
    expect(rejectionText(failures.slice(1), 'error: patch failed: dup.py:2\n')).toMatch(
      /match 2 places[^]*\n\ngit apply --check refused the patch as written:\nerror: patch failed: dup.py:2$/,
    );
    expect(rejectionText([], null)).toMatch(/could not be applied/);
  });
});

describe('the system message', () => {
  it('teaches the chosen format with an example', () => {
    expect(systemMessage(500, 'udiff')).toContain('```diff\ndiff --git a/src/calc.py');
    expect(systemMessage(500, 'udiff')).not.toContain('SEARCH');
    expect(systemMessage(500, 'auto')).toContain('SEARCH/REPLACE blocks are accepted instead');
    const sr = systemMessage(500, 'search-replace');
    expect(sr).toContain('src/calc.py\n```python\n<<<<<<< SEARCH\n');
    expect(sr).not.toContain('```diff');
    expect(systemMessage(500, 'search-replace', true)).toContain('```diff');
  });
});
