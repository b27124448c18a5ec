// Quoting for commands hammer-box suggests, so they can be pasted into a POSIX shell as shown.

/** `text` as one shell word: as is when it holds only plain path characters, else in single quotes. */
export function shellWord(text: string): string {
  return /^[\w./@%+,:=-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
