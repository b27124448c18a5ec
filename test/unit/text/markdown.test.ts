import { describe, expect, it } from 'vitest';
import {
  blockquote,
  fenceFor,
  fencedBlock,
  formatDuration,
  inertLine,
  inertText,
  inlineCode,
  table,
  tableCell,
} from '../../../src/text/markdown.js';

describe('markdown builders', () => {
  it('chooses a fence the content cannot close', () => {
    expect(fenceFor('plain')).toBe('```');
    expect(fenceFor('```\nx\n```')).toBe('````');
    expect(fenceFor('a ````` b')).toBe('``````');
    const content = 'before\n````\nafter\n';
    const block = fencedBlock(content, 'text');
    expect(block).toBe('`````text\nbefore\n````\nafter\n`````');
  });
  it('sanitises block content', () => {
    expect(fencedBlock('\u001b[31mred\u001b[0m')).toBe('```\nred\n```');
  });
  it('makes inline code that survives backticks', () => {
    expect(inlineCode('a.py')).toBe('`a.py`');
    expect(inlineCode('a`b')).toBe('``a`b``');
    expect(inlineCode('`x`')).toBe('`` `x` ``');
    expect(inlineCode('a\nb')).toBe('`a b`');
  });
  it('keeps table cells in their cell, and inert', () => {
    expect(tableCell('a | b\nc')).toBe('a \\| b c');
    expect(tableCell('<b>x</b> @bob closes #4 https://evil.example/a|b')).toBe(
      '\\<b\\>x\\</b\\> `@bob` closes `#4` `https://evil.example/a`\\|b',
    );
    expect(table(['a', 'b'], [['1', '2']])).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |');
  });
  it('makes prose inert: links, e-mail addresses, mentions and issue references in code spans, markup escaped', () => {
    expect(inertLine('see www.evil.example and mail a.b@evil.example, ping @team/x, fixes org/repo#9 GH-2')).toBe(
      'see `www.evil.example` and mail `a.b@evil.example`, ping `@team/x`, fixes `org/repo#9` `GH-2`',
    );
    expect(inertLine('[x](javascript:alert(1)) &amp; ![i](y)')).toBe(
      '\\[x\\](javascript:alert(1)) \\&amp; \\!\\[i\\](y)',
    );
    expect(inertText('# h\n1. x\n- y')).toBe('\\# h\n1\\. x\n\\- y');
  });
  it('quotes every line', () => {
    expect(blockquote('a\n\nb')).toBe('> a\n>\n> b');
  });
  it('formats durations', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(1234)).toBe('1.2 s');
    expect(formatDuration(125_000)).toBe('2 min 05 s');
    expect(formatDuration(-1)).toBe('?');
  });
});
