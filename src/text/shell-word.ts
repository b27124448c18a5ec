// Quoting for commands hammer-box suggests, so they can be pasted into a shell as shown and
// never put a control sequence or an invisible character on the terminal that shows them.

import { UNSAFE_CLASS } from './sanitize.js';

// What a terminal could act on or hide: C0 and C1 controls, DEL, every bidi control and default-ignorable
// character, line separators (see sanitize.ts).
const UNSAFE = new RegExp(`[${UNSAFE_CLASS}]`, 'u');

/**
 * `text` as one shell word: as is when it holds only plain path characters, in single quotes when
 * it holds other printable text, and as a `$'...'` word (bash, zsh, ksh and POSIX.1-2024 sh) with
 * every character a terminal could act on or hide written as an escape otherwise.
 */
export function shellWord(text: string): string {
  if (/^[\w./@%+,:=-]+$/.test(text)) return text;
  if (!UNSAFE.test(text)) return `'${text.replace(/'/g, `'\\''`)}'`;
  let out = '';
  for (const c of text) {
    const code = c.codePointAt(0)!;
    if (c === '\\' || c === "'") out += `\\${c}`;
    else if (!UNSAFE.test(c)) out += c;
    else if (code < 0x80) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `$'${out}'`;
}
