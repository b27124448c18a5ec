// The editor's commands over file contents: the str_replace_editor semantics and its error texts.
import { describe, expect, it } from 'vitest';
import { applyEdit, UndoStack, undoEdit, type EditOutcome } from '../../../src/agent/editor.js';

const FILE = 'def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n';

function content(o: EditOutcome): string {
  if (o.kind !== 'changed') throw new Error(`expected a change, got ${o.kind}: ${o.observation}`);
  return o.content;
}

describe('view', () => {
  it('shows the whole file numbered like cat -n', () => {
    const o = applyEdit({ tool: 'edit', command: 'view', path: 'calc.py' }, 'a\n\tb\nc\n');
    expect(o).toEqual({
      kind: 'viewed',
      observation: "Here's the result of running `cat -n` on calc.py (3 lines):\n     1\ta\n     2\t\tb\n     3\tc",
    });
  });

  it('shows a range, and -1 for the end', () => {
    const text = 'l1\nl2\nl3\nl4\n';
    expect(applyEdit({ tool: 'edit', command: 'view', path: 'f', viewRange: [2, 3] }, text)).toEqual({
      kind: 'viewed',
      observation: "Here's the result of running `cat -n` on f, lines 2-3 of 4:\n     2\tl2\n     3\tl3",
    });
    expect(applyEdit({ tool: 'edit', command: 'view', path: 'f', viewRange: [3, -1] }, text)).toMatchObject({
      observation: expect.stringMatching(/lines 3-4 of 4:\n {5}3\tl3\n {5}4\tl4$/),
    });
  });

  it('a range past the end shows to the end and says where the file ends', () => {
    const o = applyEdit({ tool: 'edit', command: 'view', path: 'f', viewRange: [2, 99] }, 'a\nb\nc');
    expect(o).toEqual({
      kind: 'viewed',
      observation:
        "Here's the result of running `cat -n` on f, lines 2-3 of 3:\n     2\tb\n     3\tc\n(the file ends at line 3)",
    });
  });

  it('refuses a range that starts outside the file or ends before it starts', () => {
    const v = (r: [number, number]): EditOutcome =>
      applyEdit({ tool: 'edit', command: 'view', path: 'f', viewRange: r }, 'a\nb\n');
    expect(v([0, 1])).toEqual({
      kind: 'error',
      observation: 'Invalid view_range [0, 1]: the first line must be between 1 and 2 (the file has 2 lines).',
    });
    expect(v([3, 4]).observation).toMatch(/first line must be between 1 and 2/);
    expect(v([2, 1])).toEqual({
      kind: 'error',
      observation:
        'Invalid view_range [2, 1]: the last line must be at least the first, or -1 for the end of the file.',
    });
  });

  it('cuts a long file with a note naming the next range', () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');
    const o = applyEdit({ tool: 'edit', command: 'view', path: 'big.txt' }, text, { maxViewLines: 10 });
    const lines = o.observation.split('\n');
    expect(lines).toHaveLength(12);
    expect(lines[10]).toBe('    10\tline 10');
    expect(lines[11]).toBe('(lines 11-50 not shown: view them with "view_range": [11, 20])');
  });

  it('stops adding lines past the character budget', () => {
    const text = Array.from({ length: 100 }, () => 'x'.repeat(100)).join('\n');
    const o = applyEdit({ tool: 'edit', command: 'view', path: 'f' }, text, { maxViewChars: 1000 });
    expect(o.observation.length).toBeLessThan(1400);
    expect(o.observation).toMatch(/\(lines 11-100 not shown: view them with "view_range": \[11, 20\]\)$/);
  });

  it('cuts a very long line, never inside a UTF-16 surrogate pair', () => {
    const line = `${'a'.repeat(9)}😀${'b'.repeat(50)}`;
    const o = applyEdit({ tool: 'edit', command: 'view', path: 'min.js' }, line, { maxLineChars: 10 });
    expect(o.observation).toContain(`     1\t${'a'.repeat(9)}... (52 more characters on this line)`);
    expect(o.observation).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('an empty file, a missing file, a binary file', () => {
    expect(applyEdit({ tool: 'edit', command: 'view', path: 'e' }, '')).toEqual({
      kind: 'viewed',
      observation: 'The file e is empty.',
    });
    expect(applyEdit({ tool: 'edit', command: 'view', path: 'nope.py' }, null)).toEqual({
      kind: 'error',
      observation: 'The file nope.py does not exist.',
    });
    expect(applyEdit({ tool: 'edit', command: 'view', path: 'a.bin' }, 'PK\0\x03')).toEqual({
      kind: 'error',
      observation: 'a.bin is a binary file: the editor cannot show it. Inspect it with bash (e.g. `xxd a.bin | head`).',
    });
  });

  it('a CRLF file is shown without the CRs and says it has CRLF line ends', () => {
    const o = applyEdit({ tool: 'edit', command: 'view', path: 'w.bat' }, 'echo 1\r\necho 2\r\n');
    expect(o.observation).toBe(
      "Here's the result of running `cat -n` on w.bat (2 lines, CRLF line ends):\n     1\techo 1\n     2\techo 2",
    );
  });
});

describe('create', () => {
  it('writes a new file verbatim', () => {
    const o = applyEdit({ tool: 'edit', command: 'create', path: 'src/new.py', fileText: 'x = 1\r\n\ty = 2' }, null);
    expect(o).toEqual({
      kind: 'changed',
      content: 'x = 1\r\n\ty = 2',
      observation: 'File created successfully at: src/new.py (2 lines).',
    });
  });

  it('refuses an existing file, even an empty one, and says to use str_replace', () => {
    for (const current of ['x = 1\n', '']) {
      expect(applyEdit({ tool: 'edit', command: 'create', path: 'a.py', fileText: 'y' }, current)).toEqual({
        kind: 'error',
        observation:
          'File already exists at: a.py. create does not overwrite a file: change it with str_replace or insert (view it first).',
      });
    }
  });
});

describe('str_replace', () => {
  const replace = (oldStr: string, newStr: string, current: string | null = FILE): EditOutcome =>
    applyEdit({ tool: 'edit', command: 'str_replace', path: 'calc.py', oldStr, newStr }, current);

  it('replaces the one match and shows a numbered snippet around it', () => {
    const o = replace('def add(a, b):\n    return a - b', 'def add(a, b):\n    return a + b');
    expect(content(o)).toBe(FILE.replace('return a - b', 'return a + b'));
    expect(o.observation).toBe(
      [
        "The file calc.py has been edited. Here's the result of running `cat -n` on a snippet of calc.py:",
        '     1\tdef add(a, b):',
        '     2\t    return a + b',
        '     3\t',
        '     4\t',
        '     5\tdef sub(a, b):',
        '     6\t    return a - b',
        'Review the changes and make sure they are as expected. Edit the file again if necessary.',
      ].join('\n'),
    );
  });

  it('no match: says so and shows nothing else', () => {
    expect(replace('return a * b', 'return a + b')).toEqual({
      kind: 'error',
      observation: 'No replacement was performed: old_str did not appear verbatim in calc.py.',
    });
  });

  it('whitespace-only differences are differences (indent, tabs, a trailing space)', () => {
    expect(replace('  return a - b\n\n\ndef sub', 'x').kind).toBe('changed'); // a substring is fine
    expect(replace('def add(a, b):\n  return a - b', 'x').kind).toBe('error');
    expect(replace('def add(a, b):\n\treturn a - b', 'x').kind).toBe('error');
    expect(replace('def add(a, b): \n', 'x').kind).toBe('error');
  });

  it('several matches: how many and on which lines', () => {
    expect(replace('    return a - b', '    return 0')).toEqual({
      kind: 'error',
      observation:
        'No replacement was performed: old_str appears 2 times in calc.py, at lines 2, 6. Include more lines around it so that it matches exactly once.',
    });
  });

  it('overlapping matches count as several', () => {
    expect(replace('aa', 'b', 'aaa\n').observation).toMatch(/appears 2 times in calc.py, at lines 1, 1\./);
  });

  it('lists at most 20 match lines', () => {
    const o = replace('x', 'y', 'x\n'.repeat(25));
    expect(o.observation).toContain(
      'at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, ... (5 more).',
    );
  });

  it('refuses an empty old_str, old_str equal to new_str, a missing file', () => {
    expect(replace('', 'x').observation).toBe(
      'old_str is empty: give the exact text to replace, copied from the file (to add lines without replacing any, use insert).',
    );
    expect(replace('return a', 'return a').observation).toBe(
      'No replacement was performed: old_str and new_str are the same.',
    );
    expect(replace('a', 'b', null)).toEqual({
      kind: 'error',
      observation: 'The file calc.py does not exist. To make a new file, use the create command.',
    });
  });

  it('an empty new_str deletes', () => {
    expect(content(replace('\n\ndef sub(a, b):\n    return a - b\n', ''))).toBe('def add(a, b):\n    return a - b\n');
  });

  it('a CRLF file: LF-written old_str matches, and the replacement is written with CRLF', () => {
    const crlf = 'a = 1\r\nb = 2\r\nc = 3\r\n';
    expect(content(replace('a = 1\nb = 2', 'a = 1\nb = 20\nb2 = 21', crlf))).toBe(
      'a = 1\r\nb = 20\r\nb2 = 21\r\nc = 3\r\n',
    );
    // text with a CR is taken as written
    expect(content(replace('b = 2\r\n', 'b = 3\r\n', crlf))).toBe('a = 1\r\nb = 3\r\nc = 3\r\n');
  });

  it('a file with mixed line ends is matched as written', () => {
    expect(replace('a\nb', 'x', 'a\r\nb\nc\n').kind).toBe('error');
    expect(content(replace('a\r\nb', 'x', 'a\r\nb\nc\n'))).toBe('x\nc\n');
  });

  it('the snippet covers the new text, cut when it is long', () => {
    const big = Array.from({ length: 30 }, (_, i) => `n${i}`).join('\n');
    const o = applyEdit({ tool: 'edit', command: 'str_replace', path: 'f', oldStr: 'x', newStr: big }, 'a\nx\nb\n', {
      maxViewLines: 8,
    });
    expect(o.observation).toMatch(/ {5}1\ta\n {5}2\tn0\n[\s\S]* {5}8\tn6\n\(lines 9-32 not shown\)\nReview/);
  });
});

describe('insert', () => {
  const ins = (line: number, newStr: string, current: string | null = 'a\nb\nc\n'): EditOutcome =>
    applyEdit({ tool: 'edit', command: 'insert', path: 'f.txt', insertLine: line, newStr }, current);

  it('inserts after line N: 0 is the top, N the end', () => {
    expect(content(ins(0, 'top'))).toBe('top\na\nb\nc\n');
    expect(content(ins(2, 'mid'))).toBe('a\nb\nmid\nc\n');
    expect(content(ins(3, 'end'))).toBe('a\nb\nc\nend\n');
  });

  it('multi-line text, with or without its own final newline', () => {
    expect(content(ins(1, 'x\ny'))).toBe('a\nx\ny\nb\nc\n');
    expect(content(ins(1, 'x\ny\n'))).toBe('a\nx\ny\nb\nc\n');
    expect(content(ins(1, ''))).toBe('a\n\nb\nc\n');
  });

  it('a file without a final newline stays without one', () => {
    expect(content(ins(2, 'z', 'a\nb'))).toBe('a\nb\nz');
    expect(content(ins(1, 'z', 'a\nb'))).toBe('a\nz\nb');
  });

  it('an empty file, a CRLF file', () => {
    expect(content(ins(0, 'first', ''))).toBe('first\n');
    expect(content(ins(1, 'x\ny', 'a\r\nb\r\n'))).toBe('a\r\nx\r\ny\r\nb\r\n');
  });

  it('refuses a line past the end and a missing file', () => {
    expect(ins(4, 'x')).toEqual({
      kind: 'error',
      observation: 'Invalid insert_line 4: it must be between 0 and 3 (the file has 3 lines; 0 inserts at the top).',
    });
    expect(ins(0, 'x', null).observation).toBe(
      'The file f.txt does not exist. To make a new file, use the create command.',
    );
  });

  it('shows the inserted lines numbered in their place', () => {
    expect(ins(1, 'x').observation).toContain('     1\ta\n     2\tx\n     3\tb\n     4\tc\nReview');
  });

  it('refuses a binary file', () => {
    expect(ins(0, 'x', 'a\0b').observation).toMatch(/binary file: the editor cannot change it/);
  });
});

describe('UndoStack and undoEdit', () => {
  it('gives back the contents before each change, newest first, per path', () => {
    const s = new UndoStack();
    s.push('a.py', 'v1');
    s.push('b.py', null);
    s.push('a.py', 'v2');
    expect(s.pop('a.py')).toBe('v2');
    expect(s.pop('b.py')).toBeNull();
    expect(s.pop('a.py')).toBe('v1');
    expect(s.pop('a.py')).toBeUndefined();
    expect(s.pop('never.py')).toBeUndefined();
  });

  it('keeps at most maxPerPath changes per path', () => {
    const s = new UndoStack(2);
    for (const v of ['v1', 'v2', 'v3']) s.push('a', v);
    expect([s.pop('a'), s.pop('a'), s.pop('a')]).toEqual(['v3', 'v2', undefined]);
  });

  it('keeps at most maxChars characters, dropping the oldest change of any path first', () => {
    const s = new UndoStack(10, 10);
    s.push('a', '12345');
    s.push('b', '12345');
    s.push('a', '123');
    expect(s.pop('b')).toBe('12345');
    expect(s.pop('a')).toBe('123');
    expect(s.pop('a')).toBeUndefined();
  });

  it('undoEdit: the content to restore, removal of a created file, nothing to undo', () => {
    const s = new UndoStack();
    s.push('n.py', null);
    s.push('n.py', 'x = 1\n');
    expect(undoEdit(s, 'n.py')).toEqual({
      kind: 'restored',
      content: 'x = 1\n',
      observation: 'Last edit to n.py undone successfully.',
    });
    expect(undoEdit(s, 'n.py')).toEqual({
      kind: 'restored',
      content: null,
      observation: 'Last edit to n.py undone successfully: the file did not exist before it and has been removed.',
    });
    expect(undoEdit(s, 'n.py')).toEqual({
      kind: 'error',
      observation: 'No edit history found for n.py: there is nothing to undo.',
    });
  });
});
