import { describe, expect, it } from 'vitest';
import { sanitizeLine, sanitizeText, truncateText } from '../../../src/text/sanitize.js';

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('sanitizeText', () => {
  it.each([
    ['SGR colours', '\u001b[1;31mred\u001b[0m', 'red'],
    ['cursor movement and clear screen', 'a\u001b[2J\u001b[H\u001b[10;5Hb', 'ab'],
    ['private CSI', 'a\u001b[?1049hb\u001b[?25l', 'ab'],
    ['OSC title with BEL', '\u001b]0;owned\u0007text', 'text'],
    ['OSC 8 hyperlink with ST', '\u001b]8;;http://evil\u001b\\link\u001b]8;;\u001b\\', 'link'],
    ['OSC 52 clipboard write', 'x\u001b]52;c;ZXZpbA==\u0007y', 'xy'],
    ['DCS string', 'a\u001bPq#0;2;0;0;0\u001b\\b', 'ab'],
    ['two-character escapes', 'a\u001bcb\u001b7c\u001b(Bd', 'abcd'],
    ['8-bit CSI', 'a\u009b31mb', 'ab'],
    ['8-bit OSC', 'a\u009d0;t\u009cb', 'ab'],
    ['NUL, BEL, backspace, DEL', 'a\u0000b\u0007c\u0008d\u007fe', 'abcde'],
    ['CRLF and lone CR', 'a\r\nb\rc', 'a\nb\nc'],
    ['tabs and newlines kept', 'a\tb\nc', 'a\tb\nc'],
    ['a lone ESC at the end', 'abc\u001b', 'abc'],
    ['an unterminated OSC swallows to the end', 'ok\u001b]0;never ends', 'ok'],
    ['bidi override shown, not applied', 'evil\u202egnp.exe', 'evil<U+202E>gnp.exe'],
    ['zero-width space shown', 'a\u200bb', 'a<U+200B>b'],
    ['unicode text kept', 'héllo ✓ 日本', 'héllo ✓ 日本'],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeText(input)).toBe(expected);
  });

  it('leaves no control characters whatever the input', () => {
    let all = '';
    for (let c = 0; c < 0x100; c++) all += `${String.fromCharCode(c)}x`;
    const out = sanitizeText(all.repeat(3));
    expect(out).not.toMatch(CONTROL);
    expect(out).not.toContain('\u001b');
  });
});

describe('sanitizeLine and truncateText', () => {
  it('makes one line', () => {
    expect(sanitizeLine('  a\n\tb\u001b[31m c \n')).toBe('a b c');
  });
  it('truncates with an ellipsis', () => {
    expect(truncateText('abcdef', 4)).toBe('abc…');
    expect(truncateText('abc', 4)).toBe('abc');
  });
});
