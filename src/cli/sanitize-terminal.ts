// Keep text from untrusted sources from driving the user's terminal.

// CSI/OSC/DCS escape sequences and lone ESC, plus C0/C1 controls other than \n and \t.
// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[PX^_][^\u001b]*(?:\u001b\\)?|[@-Z\\-_])?|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Remove escape sequences and control characters (keeps newlines and tabs). */
export function sanitizeTerminal(text: string): string {
  return text.replace(ESCAPES, '');
}
