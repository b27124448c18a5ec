import { describe, expect, it } from 'vitest';
import { cutInFile, cutOffReason, detectCutOff } from '../../../src/edits/index.js';
import { parsePatch } from '../../../src/patch/parse-patch.js';
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
    for (const reason of ['length', undefined]) {
      const cut = detectCutOff(text, reason);
      expect(cut?.by).toBe(reason === 'length' ? 'server' : 'text');
      expect(cut?.where).toBe(
        'in hunk @@ -1,4 +1,5 @@ of app.py (it has 1 of its 4 old lines) inside its ```diff block, which was never closed',
      );
    }
  });

  it('takes a raw diff whose last hunk runs short at the end of the answer as cut off', () => {
    // short of an added line: whatever the server said, the change itself is unfinished
    const text = ['--- a/app.py', '+++ b/app.py', '@@ -1,4 +1,6 @@', ' import os', '+import sys', ' '].join('\n');
    for (const reason of [undefined, 'stop']) {
      expect(detectCutOff(text, reason)).toEqual({
        by: 'text',
        where: 'in hunk @@ -1,4 +1,6 @@ of app.py (it has 2 of its 4 old lines)',
      });
    }
  });

  it('believes a server that says the model ended when only context lines are missing from the last hunk', () => {
    // the header counts a blank last context line the answer does not have (trimmed, or miscounted)
    const text = [
      '--- a/app.py',
      '+++ b/app.py',
      '@@ -1,4 +1,5 @@',
      ' import os',
      '+import sys',
      ' def main():',
      '     pass',
    ];
    expect(detectCutOff(text.join('\n'), 'stop')).toBeNull();
    expect(detectCutOff(text.join('\n'))?.where).toBe(
      'in hunk @@ -1,4 +1,5 @@ of app.py (it has 3 of its 4 old lines)',
    );
    expect(detectCutOff(text.join('\n'), 'length')?.by).toBe('server');
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

const SKIP = [
  'def report(rep, item, call):',
  '    if call.when == "call":',
  '        rep.outcome = "failed"',
  '    elif item.config.option.runxfail:',
  "        pass  # don't interfere",
  '    elif call.excinfo and isinstance(call.excinfo.value, XFailed):',
  '        rep.outcome = "skipped"',
  '    return rep',
  '',
].join('\n');
const HEAD = ['--- a/skip.py', '+++ b/skip.py', '@@ -2,5 +2,5 @@'];
const BODY = [
  '     if call.when == "call":',
  '-        rep.outcome = "failed"',
  '+        rep.outcome = "passed"',
  '     elif item.config.option.runxfail:',
  "         pass  # don't interfere",
  '     elif call.excinfo and isinstance(call.excinfo.value, XFailed):',
];
/** The hunk above with its last line cut to `last` (no newline after it). */
const cutAt = (last: string): string => [...HEAD, ...BODY.slice(0, -1), last].join('\n');

describe('detectCutOff: the answer shows the cut, whatever the server said', () => {
  it('takes a <patch> block that never closes, around a complete hunk, as cut off unless the model said it ended', () => {
    const text = ['Fix:', '', '<patch>', ...HEAD, ...BODY, ''].join('\n');
    for (const reason of [undefined, 'content_filter']) {
      expect(detectCutOff(text, reason)).toEqual({
        by: 'text',
        where: 'in hunk @@ -2,5 +2,5 @@ of skip.py inside its <patch> block, which was never closed',
      });
    }
    expect(detectCutOff(text, 'length')?.by).toBe('server');
    expect(detectCutOff(text, 'stop')).toBeNull();
    expect(detectCutOff(`${text}</patch>\n`)).toBeNull();
    // a tag inside a closed fence is an example, not the answer's container
    expect(detectCutOff(['```xml', '<patch>', '```', ...HEAD, ...BODY, ''].join('\n'))).toBeNull();
  });

  it('takes a last line that stops mid-token (a bracket or string still open, no line end) as cut off', () => {
    expect(detectCutOff(cutAt('     elif call.excinfo and isinstance(call.excinfo.'))).toEqual({
      by: 'text',
      where:
        'in the middle of the line `elif call.excinfo and isinstance(call.excinfo.` in hunk @@ -2,5 +2,5 @@ of skip.py',
    });
    const added = [
      '--- a/skip.py',
      '+++ b/skip.py',
      '@@ -2,4 +2,5 @@',
      ...BODY.slice(0, -1),
      '+        msg = "expected a str',
    ];
    expect(detectCutOff(added.join('\n'))?.where).toBe(
      'in the middle of the line `msg = "expected a str` in hunk @@ -2,4 +2,5 @@ of skip.py',
    );
    // a line end after it: the cut fell between lines, and the line is whole
    expect(detectCutOff(`${cutAt('     elif call.excinfo and isinstance(')}\n`)).toBeNull();
    expect(detectCutOff(cutAt('     elif call.excinfo and isinstance(call.excinfo.'), 'stop')).toBeNull();
    // an apostrophe in a word and a comment open nothing
    expect(detectCutOff(cutAt("     return rep  # don't (yet"))).toBeNull();
    expect(detectCutOff(cutAt('     elif call.excinfo and isinstance(call.excinfo.value, XFailed):'))).toBeNull();
  });

  it('takes a hunk header with nothing after it as cut off, whatever the server said', () => {
    const text = [...HEAD, ...BODY, '@@ -'].join('\n');
    for (const reason of [undefined, 'stop']) {
      expect(detectCutOff(text, reason)).toEqual({
        by: 'text',
        where: 'in the hunk header "@@ -" of skip.py, before any of its lines',
      });
    }
    expect(detectCutOff([...HEAD, ...BODY, '@@ -40,6 +40,7 @@ def main():', ''].join('\n'))?.where).toBe(
      'in the hunk header "@@ -40,6 +40,7 @@ def main():" of skip.py, before any of its lines',
    );
  });

  it('takes file headers with no hunk after them as cut off, but not a section git writes without hunks', () => {
    const next = [...HEAD, ...BODY, '--- a/util.py', '+++ b/util.py'].join('\n');
    for (const reason of [undefined, 'stop'])
      expect(detectCutOff(next, reason)?.where).toBe('right after the file header of util.py, before any of its hunks');
    expect(detectCutOff([...HEAD, ...BODY, 'diff --git a/util.py b/util.py', ''].join('\n'))?.where).toBe(
      'right after the file header of util.py, before any of its hunks',
    );
    const rename = [
      ...HEAD,
      ...BODY,
      'diff --git a/a.py b/b.py',
      'similarity index 100%',
      'rename from a.py',
      'rename to b.py',
    ];
    expect(detectCutOff(rename.join('\n'))).toBeNull();
    // the hunk above still expects a removed and an added line: "--- x" / "+++ y" are its body
    const short = ['--- a/x.sql', '+++ b/x.sql', '@@ -1,1 +1,1 @@', '--- a/comment', '+++ b/comment'].join('\n');
    expect(detectCutOff(short, 'stop')).toBeNull();
  });

  it('takes a hunk that runs on to the end with more lines than its header says as cut off unless the model said it ended', () => {
    const text = ['--- a/skip.py', '+++ b/skip.py', '@@ -2,3 +2,3 @@', ...BODY].join('\n');
    expect(detectCutOff(text)?.where).toBe(
      'in hunk @@ -2,3 +2,3 @@ of skip.py (it runs on to the end of the answer with 5 old lines where its header announces 3)',
    );
    expect(detectCutOff(text, 'stop')).toBeNull();
    // closed, the same miscounted hunk is whole (the ladder recounts it)
    expect(detectCutOff(['```diff', text, '```', ''].join('\n'))).toBeNull();
    // blank lines after the hunk at the end of the answer are not counted as its lines
    expect(detectCutOff([...HEAD, ...BODY, '', ''].join('\n'))).toBeNull();
  });

  it('gives an answer with no finish reason the outcome "length" gives, wherever the text shows the cut', () => {
    const shapes = [
      ['<patch>', ...HEAD, ...BODY, ''].join('\n'),
      cutAt('     elif call.excinfo and isinstance(call.excinfo.'),
      [...HEAD, ...BODY, '@@ -'].join('\n'),
      [...HEAD, ...BODY, '--- a/util.py', '+++ b/util.py'].join('\n'),
      ['--- a/skip.py', '+++ b/skip.py', '@@ -2,3 +2,3 @@', ...BODY].join('\n'),
      ['```diff', ...HEAD, ...BODY.slice(0, 3)].join('\n'),
    ];
    for (const text of shapes) {
      expect(detectCutOff(text, 'length'), text).toMatchObject({ by: 'server' });
      expect(detectCutOff(text), text).toMatchObject({ by: 'text' });
      expect(detectCutOff(text)!.where, text).toBe(detectCutOff(text, 'length')!.where);
    }
  });
});

describe("cutInFile: a last line that is only the start of the file's line", () => {
  const files = (text: string) => parsePatch(text, { overflow: 'prose' }).files;
  const read = (path: string): string | null => (path === 'skip.py' ? SKIP : null);

  it('takes a context line that is the start of a line of the file, with no line end, as cut off, unless the server said the model ended', () => {
    const text = cutAt('     elif call.exc');
    expect(cutInFile(text, undefined, files(text), read)).toEqual({
      by: 'text',
      where: 'in the middle of a line: `elif call.exc` is only the start of line 6 of skip.py',
    });
    expect(cutInFile(text, 'length', files(text), read)?.by).toBe('server');
    // a complete answer may end without a line end: "stop" is the server's word that it ended
    expect(cutInFile(text, 'stop', files(text), read)).toBeNull();
  });

  it('does not take a whole line, a line end after it, an added line or an unknown file as cut off', () => {
    const whole = cutAt('     elif call.excinfo and isinstance(call.excinfo.value, XFailed):');
    expect(cutInFile(whole, undefined, files(whole), read)).toBeNull();
    const ended = `${cutAt('     elif call.exc')}\n`;
    expect(cutInFile(ended, undefined, files(ended), read)).toBeNull();
    const added = cutAt('+    elif call.exc');
    expect(cutInFile(added, undefined, files(added), read)).toBeNull();
    const text = cutAt('     elif call.exc');
    expect(cutInFile(text, undefined, files(text), () => null)).toBeNull();
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

  it("refuses an answer whose last line is only the start of the file's line, and names the line; a stop from the server is believed", async () => {
    const read = async () => new Map([['skip.py', { kind: 'text' as const, content: SKIP }]]);
    const r = await interpretAnswer(cutAt('     elif call.exc'), { maxDiffLines: 500 }, read);
    expect(r).toMatchObject({ kind: 'unusable', cutOff: { by: 'text' } });
    expect(r.kind === 'unusable' && r.reason).toBe(
      'your answer stops in the middle of a line: `elif call.exc` is only the start of line 6 of skip.py, as if it was cut off at the token limit; nothing of it was applied. Send a smaller change that fits: fewer files and hunks, only the edit, no explanation before it',
    );
    const stopped = await interpretAnswer(
      cutAt('     elif call.exc'),
      { maxDiffLines: 500, finishReason: 'stop' },
      read,
    );
    expect(stopped.kind === 'unusable' && stopped.cutOff !== undefined).toBe(false);
  });
});
