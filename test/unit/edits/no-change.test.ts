import { describe, expect, it } from 'vitest';
import { renderFailures } from '../../../src/edits/index.js';
import { interpretAnswer } from '../../../src/loop/interpret-answer.js';

const CALC = 'def total(items):\n    result = 0\n    for item in items:\n        result -= item\n    return result\n';
const read = async () => new Map([['calc.py', { kind: 'text' as const, content: CALC }]]);

describe('edits that change nothing', () => {
  it('refuses a diff of context lines only before git, naming each hunk', async () => {
    const answer =
      '```diff\n--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def total(items):\n     result = 0\n@@ -4,2 +4,2 @@\n-        result -= item\n+        result -= item\n     return result\n```\n';
    const r = await interpretAnswer(answer, { maxDiffLines: 500 }, read);
    expect(r.kind).toBe('diff');
    if (r.kind !== 'diff') return;
    expect(r.candidates).toEqual([]);
    expect(r.failures).toEqual([
      { path: 'calc.py', what: 'hunk 1 (@@ -1,2 +1,2 @@)', kind: 'no_change' },
      { path: 'calc.py', what: 'hunk 2 (@@ -4,2 +4,2 @@)', kind: 'no_change' },
    ]);
    expect(renderFailures(r.failures)).toMatch(/^calc\.py, hunk 1 \(@@ -1,2 \+1,2 @@\): it changes nothing/);
  });

  it('keeps a diff when one of its hunks changes something, and a rename that changes no line', async () => {
    const some =
      '```diff\n--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def total(items):\n     result = 0\n@@ -4,1 +4,1 @@\n-        result -= item\n+        result += item\n```\n';
    const r = await interpretAnswer(some, { maxDiffLines: 500 }, read);
    expect(r.kind === 'diff' && r.candidates.length).toBeGreaterThan(0);
    const rename = 'diff --git a/calc.py b/sums.py\nsimilarity index 100%\nrename from calc.py\nrename to sums.py\n';
    const m = await interpretAnswer(`\`\`\`diff\n${rename}\`\`\`\n`, { maxDiffLines: 500 }, read);
    expect(m.kind === 'diff' && m.candidates.map((c) => c.rung)).toContain('as_is');
  });

  it('refuses SEARCH/REPLACE blocks whose REPLACE equals their SEARCH, naming each block', async () => {
    const answer = 'calc.py\n<<<<<<< SEARCH\n    result = 0\n=======\n    result = 0\n>>>>>>> REPLACE\n';
    const r = await interpretAnswer(answer, { maxDiffLines: 500 }, read);
    expect(r.kind === 'diff' && r.candidates).toEqual([]);
    expect(r.kind === 'diff' && r.failures).toEqual([
      { path: 'calc.py', what: 'SEARCH/REPLACE block 1', kind: 'no_change' },
    ]);
  });
});
