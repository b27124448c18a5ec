import { describe, expect, it } from 'vitest';
import { applySearchEdits, renderFailures, splitFileText } from '../../../src/edits/index.js';
import { repeatedBeside, skippedLines } from '../../../src/edits/stale-context.js';
import { interpretAnswer } from '../../../src/loop/interpret-answer.js';

const MOD = [
  'def mod(p, q):',
  '    if q.is_zero:',
  '        raise ZeroDivisionError("modulo by zero")',
  '    if (p == q or p == -q or',
  '            p.is_Pow and p.exp.is_Integer and p.base == q or',
  '            p.is_integer and q == 1):',
  '        return 0',
  '    return None',
  '',
].join('\n');
const L1 = '    if (p == q or p == -q or';
const MERGED = '    if (p == q or p == -q or p.is_Pow and p.exp.is_Integer and p.base == q or';
const L2 = '            p.is_integer and q == 1):';
const read = async () => new Map([['mod.py', { kind: 'text' as const, content: MOD }]]);
const diff = (body: string): string => `\`\`\`diff\n--- a/mod.py\n+++ b/mod.py\n${body}\`\`\`\n`;

describe('skippedLines', () => {
  it('names the file lines that stand between lines that are all there, close together', () => {
    const file = MOD.split('\n');
    expect(skippedLines(file, [L1, L2], null)).toEqual([
      { line: 5, text: '            p.is_Pow and p.exp.is_Integer and p.base == q or' },
    ]);
    expect(skippedLines(file, [L1, file[4]!], null)).toEqual([]);
    expect(skippedLines(file, ['def mod(p, q):', '    return None'], null)).toEqual([]);
  });
});

describe('context that skips a line of the file', () => {
  it('never drops trailing context that stands one line lower: refused, naming the line between and the region', async () => {
    const r = await interpretAnswer(diff(`@@ -4,2 +4,2 @@\n-${L1}\n+${MERGED}\n ${L2}\n`), { maxDiffLines: 500 }, read);
    if (r.kind !== 'diff') throw new Error(r.kind);
    expect(r.candidates.filter((c) => c.rung === 'relocated' || c.rung === 'search_replace')).toEqual([]);
    expect(renderFailures(r.failures)).toBe(
      [
        'mod.py, hunk 1 (@@ -4,2 +4,2 @@): its lines (context and removed) were not found in the current file.',
        'Each line exists, but not next to each other: line 5 of mod.py stands between them, which your lines leave out:',
        '                p.is_Pow and p.exp.is_Integer and p.base == q or',
        'The closest region of mod.py (lines 2-7) is:',
        '2 |     if q.is_zero:',
        '3 |         raise ZeroDivisionError("modulo by zero")',
        '4 |     if (p == q or p == -q or',
        '5 |             p.is_Pow and p.exp.is_Integer and p.base == q or',
        '6 |             p.is_integer and q == 1):',
        '7 |         return 0',
      ].join('\n'),
    );
  });

  it('drops edge context the model invented, and uses the real line next to it to place the edit', () => {
    const search = ['        raise ZeroDivisionError("modulo by zero")', '    # zero is special', L1];
    const replace = ['        raise ZeroDivisionError("modulo by zero")', '    # zero is special', '    if (p is q or'];
    const r = applySearchEdits('mod.py', splitFileText(MOD), [{ what: 'hunk 1', search, replace }], 'context');
    expect(r.ok && r.text.lines[3]).toBe('    if (p is q or');
  });

  it('refuses an edit whose placement would leave beside it a line its added line already holds', async () => {
    // the trailing context is invented, so it may be dropped; the line below the match is the one
    // the added line merged in, and would stand twice
    const invented = '            p.is_integer and q == 2):';
    const r = await interpretAnswer(
      diff(`@@ -4,2 +4,2 @@\n-${L1}\n+${MERGED}\n ${invented}\n`),
      { maxDiffLines: 500 },
      read,
    );
    if (r.kind !== 'diff') throw new Error(r.kind);
    expect(r.candidates.filter((c) => c.rung === 'relocated' || c.rung === 'search_replace')).toEqual([]);
    // relocation could not place it; search/replace (which dropped the invented line) says why
    const sr = applySearchEdits(
      'mod.py',
      splitFileText(MOD),
      [{ what: 'hunk 1 (@@ -4,2 +4,2 @@)', search: [L1, invented], replace: [MERGED, invented] }],
      'context',
    );
    expect(sr.ok).toBe(false);
    if (sr.ok) return;
    expect(sr.failures).toEqual([
      expect.objectContaining({
        kind: 'repeats_beside',
        at: 4,
        count: 1,
        beside: { line: 5, text: '            p.is_Pow and p.exp.is_Integer and p.base == q or' },
      }),
    ]);
    expect(renderFailures(sr.failures)).toMatch(
      /^mod\.py, hunk 1 \(@@ -4,2 \+4,2 @@\): its lines are in mod\.py at line 4, but line 5 right beside them repeats what it changes .*\n {16}p\.is_Pow and p\.exp\.is_Integer and p\.base == q or\nThe file has changed around it since those lines were written\. The closest region of mod\.py/,
    );
  });

  it('refuses a hunk without context whose change merges the line beside it (relocation)', async () => {
    const r = await interpretAnswer(diff(`@@ -4,1 +4,1 @@\n-${L1}\n+${MERGED}\n`), { maxDiffLines: 500 }, read);
    if (r.kind !== 'diff') throw new Error(r.kind);
    expect(r.failures).toEqual([
      expect.objectContaining({ kind: 'repeats_beside', beside: expect.objectContaining({ line: 5 }) }),
    ]);
    expect(r.candidates.filter((c) => c.rung === 'relocated' || c.rung === 'search_replace')).toEqual([]);
  });

  it('judges only edges without context, and only lines with something to say', () => {
    const file = ['a = compute_total(items)', 'b = compute_total(items) + tax', 'pass', 'pass'];
    const edit = { removed: ['a = 1'], added: ['a = compute_total(items) + tax'], keepsFirst: false, keepsLast: false };
    expect(repeatedBeside(file, 0, 1, edit)).toBeNull();
    expect(repeatedBeside(['compute_total(items)', 'a = 1'], 1, 1, edit)).toEqual({
      line: 1,
      text: 'compute_total(items)',
    });
    expect(repeatedBeside(['compute_total(items)', 'a = 1'], 1, 1, { ...edit, keepsFirst: true })).toBeNull();
    // a pure insertion next to a line it mentions is fine
    expect(
      repeatedBeside(['foo(alpha, beta)'], 1, 0, {
        removed: [],
        added: ['log("calling foo(alpha, beta)")'],
        keepsFirst: false,
        keepsLast: false,
      }),
    ).toBeNull();
    // a replaced line left beside its replacement
    expect(
      repeatedBeside(['    return None', '    return None'], 1, 1, {
        removed: ['    return None'],
        added: ['    return 0'],
        keepsFirst: false,
        keepsLast: false,
      }),
    ).toEqual({ line: 1, text: '    return None' });
  });
});
