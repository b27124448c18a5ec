// /run's directive and /branch's directive and answer: within the directive's size, the person's
// words first, and a change the diff-mode extraction takes back out exactly as it went in.
import { describe, expect, it } from 'vitest';
import { branchHandoff, conversationTitle, proseOnly, runDirective } from '../../../src/chat/handoff.js';
import { interpretAnswer } from '../../../src/loop/interpret-answer.js';
import { conversation, exchange } from './fixtures.js';

const PATCH = `diff --git a/calc.py b/calc.py
index 63ddb7b..148b1dc 100644
--- a/calc.py
+++ b/calc.py
@@ -1,5 +1,5 @@
 def total(items):
     result = 0
     for item in items:
-        result -= item
+        result += item
     return result
`;

describe('conversationTitle', () => {
  it("is the first line of the person's first message, sanitised", () => {
    const c = conversation({ exchanges: [exchange(1, '\n  fix \u001b[31mtotal()\nplease', 'ok')] });
    expect(conversationTitle(c)).toBe('fix total()');
    expect(conversationTitle(conversation())).toMatch(/^Work from hammer-box chat /);
    expect(conversationTitle(conversation({ goal: 'make the parser strict' }))).toBe('make the parser strict');
  });
});

describe('runDirective', () => {
  it('holds the title, the exchanges and the change, and fits the directive size', () => {
    const c = conversation({
      exchanges: [exchange(1, 'why does test_total fail?', 'it subtracts'), exchange(2, 'fix it', 'Fixed.')],
    });
    const d = runDirective(c, PATCH, 64 * 1024);
    expect(d.split('\n')[0]).toBe('why does test_total fail?');
    expect(d).toContain('## The person\n\nfix it');
    expect(d).toContain('## The model\n\nFixed.');
    expect(d).toContain('+        result += item');
    expect(d).toContain('the run starts from the base commit');
  });

  it('leaves the oldest exchanges out when they do not fit, and never passes the limit', () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      exchange(i + 1, `question ${i + 1} ${'x'.repeat(900)}`, 'y'.repeat(1400)),
    );
    const d = runDirective(conversation({ exchanges: many }), PATCH.repeat(40), 16 * 1024);
    expect(Buffer.byteLength(d)).toBeLessThanOrEqual(16 * 1024);
    expect(d.split('\n')[0]).toMatch(/^question 1 /);
    expect(d).toMatch(/the first \d+ exchanges are left out/);
    expect(d).toContain('question 60');
  });
});

describe('branchHandoff', () => {
  it('carries the change so that the diff extraction takes it back out unchanged', async () => {
    const c = conversation({
      exchanges: [
        exchange(
          1,
          'fix total()',
          'Fixed it:\n```diff\n-        result -= item\n+        result += item\n```\nand ran the tests.',
        ),
      ],
    });
    const { directive, answer } = branchHandoff(c, PATCH, 64 * 1024, 'Make total() add');
    expect(directive.split('\n')[0]).toBe('Make total() add');
    // the model's own diff excerpt is not carried: only the change
    expect(answer).not.toContain('```diff\n-        result -= item\n+        result += item\n```\nand');
    const r = await interpretAnswer(answer, { maxDiffLines: 500 });
    expect(r).toMatchObject({ kind: 'diff', files: [{ newPath: 'calc.py' }] });
    if (r.kind === 'diff') expect(r.patch).toContain('+        result += item');
  });

  it('survives a change holding fence-like lines', async () => {
    const patch = `diff --git a/README.md b/README.md
--- a/README.md
+++ b/README.md
@@ -1,3 +1,3 @@
 \`\`\`sh
-make
+make test
 \`\`\`
`;
    const { answer } = branchHandoff(conversation({ exchanges: [exchange(1, 'docs', 'done')] }), patch, 64 * 1024);
    const r = await interpretAnswer(answer, { maxDiffLines: 500 });
    expect(r).toMatchObject({ kind: 'diff', files: [{ newPath: 'README.md' }] });
  });
});

describe('proseOnly', () => {
  it('drops fenced blocks and edit-like lines', () => {
    expect(proseOnly('Done.\n```diff\n+x\n```\n<<<<<<< SEARCH\nmore\n--- a/x\nNO_CHANGES')).toBe('Done.\nmore');
  });
});
