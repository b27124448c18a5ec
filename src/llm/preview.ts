// Showing untrusted server text in an error message safely.
import { UNSAFE_CLASS } from '../text/sanitize.js';

const UNSAFE = new RegExp(`[${UNSAFE_CLASS}]`, 'gu');

/** The first `max` characters of `text` with control characters escaped, for error messages. */
export function preview(text: string, max = 80): string {
  const chars = Array.from(text);
  const head = chars.slice(0, max).join('');
  const escaped = head.replace(UNSAFE, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    const code = c.codePointAt(0)!;
    if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
    return code <= 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\u{${code.toString(16)}}`;
  });
  return chars.length > max ? `${escaped}…` : escaped;
}
