import { describe, expect, it } from 'vitest';
import { firstNewSyntaxError, renderFailures } from '../../../src/edits/index.js';

const SESSION = 'def request(\n    self,\n    timeout=None,\n    url=None,\n):\n    return url\n';

describe('firstNewSyntaxError', () => {
  it('finds a duplicated parameter the edit added, with the lines around it', async () => {
    const after = SESSION.replace('    url=None,\n', '    url=None,\n    timeout=None,\n');
    expect(await firstNewSyntaxError([{ path: 'session.py', before: SESSION, after }])).toEqual({
      path: 'session.py',
      line: 5,
      column: 5,
      message: 'duplicate parameter "timeout"',
      region: {
        start: 3,
        lines: ['    timeout=None,', '    url=None,', '    timeout=None,', '):', '    return url'],
        at: 'error',
      },
    });
  });

  it('does not count an error the file already had, even when the edit moved it', async () => {
    const broken = 'x = 1\ndef f(a):\n    return g(a\n';
    const after = `# a comment above\n${broken}`;
    expect(await firstNewSyntaxError([{ path: 'broken.py', before: broken, after }])).toBeNull();
  });

  it('judges a new file from nothing, and leaves deleted files and unknown languages alone', async () => {
    const bad = await firstNewSyntaxError([
      { path: 'src/app.js', before: null, after: 'function f(a) {\n  if (a) {\n  return 1;\n}\n' },
    ]);
    expect(bad).toMatchObject({ path: 'src/app.js', line: 4, message: 'missing "}"' });
    expect(await firstNewSyntaxError([{ path: 'gone.py', before: SESSION, after: null }])).toBeNull();
    expect(await firstNewSyntaxError([{ path: 'notes.rb', before: '', after: 'def (((' }])).toBeNull();
  });

  it('shows the changed lines when the parser puts the error far from them', async () => {
    const before = 'import os\n\n\ndef f(x):\n    return x\n';
    const after = `${before}    else:\n        return None\n`;
    const e = (await firstNewSyntaxError([{ path: 'f.py', before, after }]))!;
    expect(e.line).toBeLessThan(4);
    expect(e.region).toEqual({
      start: 4,
      lines: ['def f(x):', '    return x', '    else:', '        return None', ''],
      at: 'change',
    });
    expect(renderFailures([{ ...e, what: 'the edit', kind: 'syntax_error', every: true }])).toContain(
      'The changed lines would read:\n  4 | def f(x):',
    );
  });

  it('renders the feedback: the error, its line and column, and the lines around it with the line marked', async () => {
    const after = SESSION.replace('    return url\n', '    return url(\n');
    const e = (await firstNewSyntaxError([{ path: 'session.py', before: SESSION, after }]))!;
    const text = renderFailures([{ ...e, what: 'the edit', kind: 'syntax_error', every: true }]);
    expect(text).toBe(
      [
        `session.py, the edit: every way it could be applied leaves a syntax error session.py did not have, at line ${e.line}, column ${e.column}: ${e.message}. The lines around it would read:`,
        ...e.region.lines.map((l, k) => `${e.region.start + k === e.line ? '>' : ' '} ${e.region.start + k} | ${l}`),
      ].join('\n'),
    );
    expect(text).toContain('> 6 |     return url(');
  });
});
