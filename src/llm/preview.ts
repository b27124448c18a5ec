// Showing untrusted server text in an error message safely.

/** The first `max` characters of `text` with control characters escaped, for error messages. */
export function preview(text: string, max = 80): string {
  const chars = Array.from(text);
  const head = chars.slice(0, max).join('');
  const escaped = head.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return chars.length > max ? `${escaped}…` : escaped;
}
