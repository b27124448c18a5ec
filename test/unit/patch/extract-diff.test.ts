import { describe, expect, it } from 'vitest';
import { extractDiff } from '../../../src/patch/extract-diff.js';

const DIFF = `diff --git a/calc.py b/calc.py
--- a/calc.py
+++ b/calc.py
@@ -1,2 +1,2 @@
 def add(a, b):
-    return a - b
+    return a + b
`;

const OTHER = `--- a/util.py
+++ b/util.py
@@ -1 +1,2 @@
 x = 1
+y = 2
`;

function diffOf(answer: string): string {
  const r = extractDiff(answer);
  if (r.kind !== 'diff') throw new Error(`expected a diff, got ${JSON.stringify(r)}`);
  return r.patch;
}

describe('extractDiff', () => {
  it('takes a fenced ```diff block, dropping the prose around it', () => {
    const r = extractDiff(`Here is the fix:\n\n\`\`\`diff\n${DIFF}\`\`\`\n\nThis makes add() add.`);
    expect(r).toMatchObject({ kind: 'diff', patch: DIFF, blocks: 1, fixes: [] });
  });

  it('concatenates several ```diff and ```patch blocks', () => {
    const r = extractDiff(`First:\n\`\`\`diff\n${DIFF}\`\`\`\nand then:\n\`\`\`patch\n${OTHER}\`\`\`\n`);
    expect(r).toMatchObject({ kind: 'diff', patch: DIFF + OTHER, blocks: 2, fixes: [] });
  });

  it('takes a diff inside another fence (or none) when no diff block exists', () => {
    expect(diffOf(`\`\`\`python\n${DIFF}\`\`\``)).toBe(DIFF);
    expect(diffOf(`\`\`\`\n${OTHER}\`\`\``)).toBe(OTHER);
  });

  it('prefers diff blocks over other fences that are not diffs', () => {
    const r = extractDiff(`\`\`\`python\nprint(1)\n\`\`\`\n\`\`\`diff\n${DIFF}\`\`\``);
    expect(r.kind === 'diff' && r.patch).toBe(DIFF);
  });

  it('finds a raw unified diff in the text, with prose before, between and after', () => {
    const answer = `I will fix it.\n\n${DIFF}\nAlso the util:\n\n${OTHER}\n- fixed add\n- added y\n`;
    expect(diffOf(answer)).toBe(DIFF + OTHER);
  });

  it('normalises CRLF and adds a missing final newline', () => {
    const crlf = `\`\`\`diff\r\n${DIFF.trimEnd().replace(/\n/g, '\r\n')}\r\n\`\`\``;
    expect(diffOf(crlf)).toBe(DIFF);
    expect(diffOf(DIFF.trimEnd())).toBe(DIFF);
  });

  it('does not let a ``` inside the diff (a context line) close the block', () => {
    const md = `--- a/README.md\n+++ b/README.md\n@@ -1,3 +1,3 @@\n \`\`\`\n-old\n+new\n`;
    expect(diffOf(`\`\`\`diff\n${md}\`\`\`\n`)).toBe(md);
  });

  it('takes a longer fence and an unclosed block (an answer cut short)', () => {
    expect(diffOf(`\`\`\`\`diff\n${DIFF}\`\`\`\`\n`)).toBe(DIFF);
    expect(diffOf(`\`\`\`diff\n${DIFF}`)).toBe(DIFF);
  });

  it('keeps "\\ No newline at end of file" markers and empty context lines', () => {
    const d = `--- a/x.txt\n+++ b/x.txt\n@@ -1,3 +1,3 @@\n a\n\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n`;
    expect(diffOf(`\`\`\`diff\n${d}\`\`\``)).toBe(d);
  });

  it('keeps new-file and deleted-file sections', () => {
    const d = `diff --git a/new.py b/new.py\nnew file mode 100644\n--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+print(1)\ndiff --git a/old.py b/old.py\ndeleted file mode 100644\n--- a/old.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n`;
    expect(diffOf(`\`\`\`diff\n${d}\`\`\``)).toBe(d);
  });

  it('adds a/ and b/ prefixes when the model left both out', () => {
    const r = extractDiff('```diff\n--- src/calc.py\n+++ src/calc.py\n@@ -1 +1 @@\n-a\n+b\n```');
    expect(r).toMatchObject({
      kind: 'diff',
      patch: '--- a/src/calc.py\n+++ b/src/calc.py\n@@ -1 +1 @@\n-a\n+b\n',
      blocks: 1,
      fixes: ['added the a/ and b/ prefixes to the headers of src/calc.py'],
    });
    expect(diffOf('```diff\n--- /dev/null\n+++ new.py\n@@ -0,0 +1 @@\n+x\n```')).toBe(
      '--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+x\n',
    );
  });

  it('keeps the body of a hunk whose counts are wrong inside a fenced block, so validation can say so', () => {
    const d = '--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-a\n+b\n+c\n';
    expect(diffOf(`\`\`\`diff\n${d}\`\`\``)).toBe(d);
  });

  it('stops a raw diff at the hunk counts, leaving a bulleted list after it out', () => {
    const d = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n';
    expect(diffOf(`${d}\n- changed a to b\n+ nothing else\n`)).toBe(d);
  });

  it('keeps miscounted hunk lines right after a raw hunk, so the mismatch is reported rather than a shortened hunk applied', () => {
    const d = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n+c\n';
    expect(diffOf(`Here:\n${d}\nDone.`)).toBe(d);
  });

  it('ignores <think> blocks', () => {
    expect(extractDiff('<think>maybe NO_CHANGES? no.</think>\n```diff\n' + OTHER + '```').kind).toBe('diff');
    expect(extractDiff('<think>\n```diff\n' + OTHER + '```\nhmm</think>\nNO_CHANGES')).toEqual({ kind: 'no_changes' });
  });

  it.each([
    'NO_CHANGES',
    '  NO_CHANGES\n',
    '`NO_CHANGES`',
    '**NO_CHANGES**',
    '```\nNO_CHANGES\n```',
    'The directive is done and the tests pass.\n\nNO_CHANGES',
    'NO_CHANGES.',
  ])('recognises NO_CHANGES in %j', (answer) => {
    expect(extractDiff(answer)).toEqual({ kind: 'no_changes' });
  });

  it('does not take a mention of NO_CHANGES in a sentence as the answer', () => {
    expect(extractDiff('I should not answer NO_CHANGES yet, but I am unsure what to change.').kind).toBe('unusable');
  });

  it('prefers a diff over a NO_CHANGES line in the same answer', () => {
    expect(extractDiff(`\`\`\`diff\n${DIFF}\`\`\`\nOtherwise NO_CHANGES\nNO_CHANGES`).kind).toBe('diff');
  });

  it.each([
    ['', /empty/],
    ['   \n\t\n', /empty/],
    ['I think you should change calc.py to add instead of subtract.', /no unified diff found/],
    ['```diff\n@@ -1 +1 @@\n-a\n+b\n```', /no file headers/],
    ['Replace line 2 with:\n```python\nreturn a + b\n```', /no unified diff found/],
  ])('calls %j unusable, saying why', (answer, reason) => {
    const r = extractDiff(answer);
    expect(r.kind).toBe('unusable');
    expect(r.kind === 'unusable' && r.reason).toMatch(reason);
  });

  it('handles a large answer in linear time without choking', () => {
    const big = `--- a/big.txt\n+++ b/big.txt\n@@ -1,100000 +1,100000 @@\n${' same\n'.repeat(100_000)}`;
    expect(diffOf(`\`\`\`diff\n${big}\`\`\``).length).toBe(big.length);
  });
});
