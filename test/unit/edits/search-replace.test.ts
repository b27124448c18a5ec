import { describe, expect, it } from 'vitest';
import { applySearchEdits, joinFileText, parseSearchReplace, splitFileText } from '../../../src/edits/index.js';

const FILE = 'def f():\n    a = 1\n    return a\n\n\ndef g():\n    a = 1\n    return a * 2\n';

describe('parseSearchReplace', () => {
  it('reads the path from the line above (fences, headings, backticks and "File:" allowed) and reuses it', () => {
    const text = [
      'Change f:',
      '',
      '### File: `src/m.py`',
      '```python',
      '<<<<<<< SEARCH',
      '    a = 1',
      '=======',
      '    a = 2',
      '>>>>>>> REPLACE',
      '```',
      'and then',
      '<<<<<<< SEARCH',
      'x',
      '=======',
      'y',
      '>>>>>>> REPLACE',
      '',
      'new.txt',
      '<<<<<<< SEARCH',
      '=======',
      'hello',
      '>>>>>>> REPLACE',
    ].join('\n');
    const r = parseSearchReplace(text);
    expect(r.problem).toBeNull();
    expect(r.blocks.map((b) => [b.path, b.search, b.replace])).toEqual([
      ['src/m.py', ['    a = 1'], ['    a = 2']],
      ['src/m.py', ['x'], ['y']],
      ['new.txt', [], ['hello']],
    ]);
    expect(r.rest).not.toContain('SEARCH');
    expect(r.rest).toContain('Change f:');
  });

  it('says what is wrong with a block that names no file or is not closed', () => {
    expect(parseSearchReplace('<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE').problem).toMatch(/names no file/);
    expect(parseSearchReplace('m.py\n<<<<<<< SEARCH\na\n>>>>>>> REPLACE').problem).toMatch(/no "=======" line/);
    expect(parseSearchReplace('m.py\n<<<<<<< SEARCH\na\n=======\nb\n').problem).toMatch(/not closed/);
  });
});

describe('applySearchEdits', () => {
  const text = splitFileText(FILE);
  const apply = (search: string[], replace: string[], t = text) =>
    applySearchEdits('m.py', t, [{ what: 'block 1', search, replace }], 'blank');

  it('replaces a unique exact match', () => {
    const r = apply(['    return a * 2'], ['    return a * 3']);
    expect(r.ok && joinFileText(r.text)).toBe(FILE.replace('a * 2', 'a * 3'));
  });

  it('refuses a SEARCH that matches several places, naming the lines', () => {
    expect(apply(['    a = 1'], ['    a = 2'])).toMatchObject({
      ok: false,
      failures: [{ kind: 'ambiguous', at: [2, 7] }],
    });
  });

  it('matches ignoring whitespace and re-indents the replacement the same way', () => {
    const r = apply(['def g():', '  a = 1'], ['def g():', '  a = 10']);
    expect(r.ok && joinFileText(r.text)).toBe(
      FILE.replace('    a = 1\n    return a * 2', '    a = 10\n    return a * 2'),
    );
  });

  it('reports a SEARCH that is nowhere, with the closest region and the missing lines', () => {
    const r = apply(['def g():', '    b = 1'], ['x']);
    expect(r).toMatchObject({
      ok: false,
      failures: [{ kind: 'not_found', missing: ['    b = 1'], region: { start: 4 } }],
    });
  });

  it('creates a file from an empty SEARCH, and refuses one for a file that exists', () => {
    const r = applySearchEdits('n.py', null, [{ what: 'b', search: [], replace: ['x = 1'] }], 'blank');
    expect(r).toMatchObject({ ok: true, created: true });
    expect(r.ok && joinFileText(r.text)).toBe('x = 1\n');
    expect(apply([], ['x'])).toMatchObject({ ok: false, failures: [{ kind: 'exists' }] });
    expect(applySearchEdits('n.py', null, [{ what: 'b', search: ['a'], replace: ['b'] }], 'blank')).toMatchObject({
      ok: false,
      failures: [{ kind: 'no_file' }],
    });
  });

  it('keeps CRLF line ends and a missing final newline', () => {
    const crlf = splitFileText('a = 1\r\nb = 2\r\n');
    const r1 = apply(['b = 2'], ['b = 3', 'c = 4'], crlf);
    expect(r1.ok && joinFileText(r1.text)).toBe('a = 1\r\nb = 3\r\nc = 4\r\n');
    const open = splitFileText('a\nb');
    const r2 = apply(['b'], ['b', 'c'], open);
    expect(r2.ok && joinFileText(r2.text)).toBe('a\nb\nc');
  });

  it('drops unmatched context from the edges of a diff-made edit only while what is left still holds the change and matches once', () => {
    const edit = {
      what: 'hunk 1',
      search: ['# invented', 'def g():', '    a = 1', '    return a * 2'],
      replace: ['# invented', 'def g():', '    a = 1', '    return a * 4'],
    };
    const r = applySearchEdits('m.py', text, [edit], 'context');
    expect(r.ok && joinFileText(r.text)).toBe(FILE.replace('a * 2', 'a * 4'));
    // blank mode (SEARCH/REPLACE answers) never drops a non-blank line
    expect(applySearchEdits('m.py', text, [edit], 'blank').ok).toBe(false);
    // after trimming, "    a = 1" alone is ambiguous and is not a change: refused
    const weak = {
      what: 'hunk 2',
      search: ['# invented', '    a = 1', '+'],
      replace: ['# invented', '    a = 1', '    b = 2', '+'],
    };
    expect(applySearchEdits('m.py', text, [weak], 'context').ok).toBe(false);
  });
});
