// Outputs cut to a head and a tail, and shell results as the model reads them.
import { describe, expect, it } from 'vitest';
import { bashObservation, cutObservation } from '../../../src/agent/observation.js';
import { omittedLines } from '../../../src/text/omitted-lines.js';

const numbered = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('cutObservation', () => {
  it('leaves text within the limits as it is', () => {
    expect(cutObservation('a\nb\n', { maxLines: 2, maxChars: 10 })).toBe('a\nb\n');
    expect(cutObservation('', { maxLines: 2, maxChars: 10 })).toBe('');
  });

  it('keeps a head and a tail of whole lines and says how many lines are left out', () => {
    expect(cutObservation(`${numbered(100)}\n`, { maxLines: 10, maxChars: 10_000 })).toBe(
      `${numbered(5)}\n(90 lines of output omitted)\n${numbered(100).split('\n').slice(95).join('\n')}\n`,
    );
    expect(cutObservation(numbered(4), { maxLines: 3, maxChars: 10_000 })).toBe(
      'line 1\nline 2\n(1 line of output omitted)\nline 4',
    );
  });

  it('keeps within the characters, by whole lines when they fit', () => {
    const text = Array.from({ length: 10 }, (_, i) => `${i}`.repeat(30)).join('\n');
    expect(cutObservation(text, { maxLines: 100, maxChars: 100 })).toBe(
      `${'0'.repeat(30)}\n(8 lines of output omitted)\n${'9'.repeat(30)}`,
    );
    expect(cutObservation(text, { maxLines: 100, maxChars: 130 })).toBe(
      `${'0'.repeat(30)}\n${'1'.repeat(30)}\n(6 lines of output omitted)\n${'8'.repeat(30)}\n${'9'.repeat(30)}`,
    );
  });

  it('one long line: its start and its end, and how many characters are left out', () => {
    const cut = cutObservation('x'.repeat(1000), { maxLines: 10, maxChars: 100 });
    expect(cut).toBe(`${'x'.repeat(50)}\n(900 characters of output omitted)\n${'x'.repeat(50)}`);
  });

  it('a long first and last line around short ones: parts of both, the lines between counted', () => {
    const text = `${'a'.repeat(500)}\nb\nc\n${'d'.repeat(500)}`;
    const cut = cutObservation(text, { maxLines: 10, maxChars: 100 });
    expect(cut).toBe(`${'a'.repeat(50)}\n(4 lines of output omitted)\n${'d'.repeat(50)}`);
  });

  it('never cuts a surrogate pair in two, and stays within its limits', () => {
    const text = '😀'.repeat(300) + '\n' + 'é😀\n'.repeat(200) + '😀'.repeat(300);
    for (let chars = 2; chars < 120; chars++) {
      for (const lines of [2, 3, 7, 50]) {
        const cut = cutObservation(text, { maxLines: lines, maxChars: chars });
        expect(cut).not.toMatch(loneSurrogate);
        const [head, tail] = cut.split(/\n?\(\d+ (?:lines?|characters?) of output omitted\)\n/);
        expect(text.startsWith(head!)).toBe(true);
        expect(text.endsWith(tail!)).toBe(true);
        expect(head!.length + tail!.length).toBeLessThanOrEqual(chars);
        expect(cut.split('\n').length).toBeLessThanOrEqual(lines + 1);
      }
    }
  });

  it('omittedLines', () => {
    expect(omittedLines(1)).toBe('(1 line of output omitted)');
    expect(omittedLines(12)).toBe('(12 lines of output omitted)');
  });
});

describe('bashObservation', () => {
  const limits = { maxLines: 10, maxChars: 10_000 };
  const run = (o: Partial<Parameters<typeof bashObservation>[0]>): string =>
    bashObservation({ exitCode: 0, stdout: '', stderr: '', timedOut: false, timeoutMs: 30_000, ...o }, limits);

  it('stdout, then the exit code', () => {
    expect(run({ stdout: 'a.py\nb.py\n' })).toBe('a.py\nb.py\n[exit code 0]');
  });

  it('stderr under its own line', () => {
    expect(run({ exitCode: 2, stderr: 'ls: cannot access x: No such file\n' })).toBe(
      '[stderr]\nls: cannot access x: No such file\n[exit code 2]',
    );
    expect(run({ exitCode: 1, stdout: 'F.\n', stderr: 'warning\n' })).toBe('F.\n[stderr]\nwarning\n[exit code 1]');
  });

  it('no output at all', () => {
    expect(run({})).toBe('(no output)\n[exit code 0]');
  });

  it('a timeout says so instead of an exit code', () => {
    expect(run({ exitCode: 137, stdout: 'waiting\n', timedOut: true })).toBe(
      'waiting\n[the command timed out after 30s and was killed: narrow it down, or run it with a time limit of its own]',
    );
    expect(bashObservation({ exitCode: 137, stdout: '', stderr: '', timedOut: true, timeoutMs: 1500 }, limits)).toMatch(
      /after 1\.5s/,
    );
  });

  it('stdout and stderr share the limits when both have text', () => {
    const o = run({ exitCode: 1, stdout: numbered(50), stderr: numbered(50) });
    expect(o.split('\n')).toHaveLength(6 + 1 + 6 + 1);
    expect(o).toMatch(
      /^line 1\nline 2\nline 3\n\(45 lines of output omitted\)\nline 49\nline 50\n\[stderr\]\nline 1\n/,
    );
  });

  it('escape sequences and control characters are taken out', () => {
    expect(run({ stdout: '\u001b[32mPASSED\u001b[0m test_a\u0007\r\n' })).toBe('PASSED test_a\n[exit code 0]');
  });
});
