// Make untrusted text (test output, model answers, git messages) safe to show: no terminal
// escape sequences, no control characters, no invisible bidi reordering.

// ESC-introduced sequences: CSI (ESC [ params final), OSC / DCS / SOS / PM / APC strings (ended by
// BEL or ST, or at the end of the line), and two-character escapes. The 8-bit C1 forms (0x9B CSI, 0x9D OSC, ...) likewise.
const ESCAPES = new RegExp(
  [
    '(?:\\u001b\\[|\\u009b)[\\u0030-\\u003f]*[\\u0020-\\u002f]*[\\u0040-\\u007e]?',
    '(?:\\u001b[\\]PX^_]|[\\u0090\\u0098\\u009d\\u009e\\u009f])[^\\u0007\\u001b\\u009c\\n]*(?:\\u0007|\\u001b\\\\|\\u009c)?',
    '\\u001b[\\u0020-\\u002f]*[\\u0030-\\u007e]?',
  ].join('|'),
  'g',
);
// C0 except \t and \n, DEL, C1.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * The body of a regular-expression character class (use it with the `u` flag) of the characters that
 * hide or reorder text, by Unicode property: every Bidi_Control (embeddings, overrides, isolates,
 * marks such as U+061C) and every Default_Ignorable_Code_Point (zero-width characters, fillers,
 * variation selectors, tags), and the line and paragraph separators. Every place untrusted text
 * leaves hammer-box escapes these.
 */
export const HIDDEN_CLASS = '\\p{Bidi_Control}\\p{Default_Ignorable_Code_Point}\\u2028\\u2029';
/** HIDDEN_CLASS and every C0 and C1 control and DEL: what a terminal could act on or that hides text. */
export const UNSAFE_CLASS = `\\p{Cc}${HIDDEN_CLASS}`;
const HIDDEN = new RegExp(`[${HIDDEN_CLASS}]`, 'gu');

/** A hidden character as text: `<U+202E>`. */
export function shownCodePoint(c: string): string {
  return `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** Strip escape sequences and control characters (keeping \n and \t); show the hidden characters (HIDDEN_CLASS) as <U+XXXX>. */
export function sanitizeText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(ESCAPES, '').replace(CONTROLS, '').replace(HIDDEN, shownCodePoint);
}

/** sanitizeText for a one-line context (a table cell, a list item): newlines and tabs become spaces. */
export function sanitizeLine(text: string): string {
  return sanitizeText(text)
    .replace(/[\n\t]+/g, ' ')
    .trim();
}

/** Shorten `text` to at most `max` characters, marking the cut with an ellipsis. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * A file name as inert plain text (a commit message, a summary line): a name of letters, digits
 * and `_ . / -` stays as it is; any other character is percent-encoded (UTF-8), and so is the dot
 * of a `www.` name, so no mention (`@`), issue reference or closing keyword (`#`), HTML, link or
 * escape sequence survives wherever the text is shown.
 */
export function inertName(name: string): string {
  const encoded = [...name]
    .map((c) =>
      /^[A-Za-z0-9_./-]$/.test(c)
        ? c
        : [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
    )
    .join('');
  return encoded.replace(/(^|\/)(www)\./gi, '$1$2%2E');
}
