// JSON for stdout that a terminal cannot misread: untrusted strings inside stay intact but escaped.

import { HIDDEN_CLASS } from '../text/sanitize.js';

// JSON.stringify escapes C0 controls (ESC included) but leaves DEL, the C1 controls (a UTF-8 terminal
// may act on U+009B as CSI) and the characters that hide or reorder text (bidi controls, default
// ignorables) as raw characters.
const UNSAFE = new RegExp(`[\\u007f-\\u009f${HIDDEN_CLASS}]`, 'gu');

/** Pretty JSON with every character a terminal could act on or hide written as a \uXXXX escape. */
export function terminalJson(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  // These characters can only occur inside JSON strings, where a \u escape means the same thing.
  return text.replace(UNSAFE, (c) =>
    [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
}

/** Write `value` as terminal-safe JSON and a newline to stdout. */
export function printJson(value: unknown, out: NodeJS.WritableStream = process.stdout): void {
  out.write(`${terminalJson(value)}\n`);
}
