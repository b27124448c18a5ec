// JSON for stdout that a terminal cannot misread: untrusted strings inside stay intact but escaped.

// JSON.stringify escapes C0 controls (ESC included) but leaves DEL, the C1 controls (a UTF-8 terminal
// may act on U+009B as CSI) and the invisible bidi/zero-width marks as raw characters.
const UNSAFE = /[\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** Pretty JSON with every character a terminal could act on or hide written as a \uXXXX escape. */
export function terminalJson(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  // These characters can only occur inside JSON strings, where a \u escape means the same thing.
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Write `value` as terminal-safe JSON and a newline to stdout. */
export function printJson(value: unknown, out: NodeJS.WritableStream = process.stdout): void {
  out.write(`${terminalJson(value)}\n`);
}
