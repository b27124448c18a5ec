// Files as the editor shows them: `cat -n` numbered lines, a range, long files and lines cut with a
// note saying how to see the rest. Display only: a line's `\r` is not shown, nothing else changes.

/** How much one view shows. */
export interface ViewLimits {
  /** Lines shown at most (a longer range is cut, with a note naming the next range). */
  maxViewLines: number;
  /** Characters shown at most (lines stop being added past it). */
  maxViewChars: number;
  /** A longer line is cut, with the count of characters left out. */
  maxLineChars: number;
}

/** The limits a view has unless the caller says otherwise. */
export const DEFAULT_VIEW_LIMITS: ViewLimits = { maxViewLines: 400, maxViewChars: 24_000, maxLineChars: 1_000 };

/** The file's lines without their terminators (a final newline adds no empty line; '' has none). */
export function fileLines(content: string): string[] {
  if (content === '') return [];
  const lines = content.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The file's line terminator: CRLF when every line break is one, else LF. */
export function lineEnding(content: string): '\n' | '\r\n' {
  const lf = content.split('\n').length - 1;
  const crlf = content.split('\r\n').length - 1;
  return crlf > 0 && crlf === lf ? '\r\n' : '\n';
}

/**
 * Lines `first`..`last` (1-based, inclusive, within the file) numbered like `cat -n`, cut to the
 * limits; `shownLast` is the last line shown (less than `last` when the limits cut the range).
 */
export function numberedLines(
  lines: readonly string[],
  first: number,
  last: number,
  limits: ViewLimits,
): { text: string; shownLast: number } {
  const out: string[] = [];
  let chars = 0;
  let n = first;
  for (; n <= last; n++) {
    if (out.length >= limits.maxViewLines || (out.length > 0 && chars >= limits.maxViewChars)) break;
    const raw = lines[n - 1]!.replace(/\r$/, '');
    const line =
      raw.length > limits.maxLineChars
        ? `${cutAt(raw, limits.maxLineChars)}... (${raw.length - cutAt(raw, limits.maxLineChars).length} more characters on this line)`
        : raw;
    out.push(`${String(n).padStart(6)}\t${line}`);
    chars += line.length + 8;
  }
  return { text: out.join('\n'), shownLast: n - 1 };
}

/** The view a model asked for: the whole file or a range, numbered, with a note when it is cut. */
export function viewText(
  path: string,
  content: string,
  range: [number, number] | undefined,
  limits: ViewLimits,
): { ok: true; text: string } | { ok: false; text: string } {
  const lines = fileLines(content);
  const n = lines.length;
  if (n === 0) return { ok: true, text: `The file ${path} is empty.` };
  const [first, want] = range ?? [1, -1];
  const shown = range === undefined ? '' : ` [${first}, ${want}]`;
  if (first < 1 || first > n) {
    return {
      ok: false,
      text: `Invalid view_range${shown}: the first line must be between 1 and ${n} (the file has ${n} ${plural(n, 'line')}).`,
    };
  }
  if (want !== -1 && want < first) {
    return {
      ok: false,
      text: `Invalid view_range${shown}: the last line must be at least the first, or -1 for the end of the file.`,
    };
  }
  const last = want === -1 || want > n ? n : want;
  const body = numberedLines(lines, first, last, limits);
  const crlf = lineEnding(content) === '\r\n' ? ', CRLF line ends' : '';
  const head =
    first === 1 && last === n
      ? `Here's the result of running \`cat -n\` on ${path} (${n} ${plural(n, 'line')}${crlf}):`
      : `Here's the result of running \`cat -n\` on ${path}, lines ${first}-${last} of ${n}${crlf}:`;
  const notes: string[] = [];
  if (want > n) notes.push(`(the file ends at line ${n})`);
  if (body.shownLast < last) {
    const next = body.shownLast + 1;
    const size = body.shownLast - first + 1;
    notes.push(
      `(lines ${next}-${last} not shown: view them with "view_range": [${next}, ${Math.min(last, next + size - 1)}])`,
    );
  }
  return { ok: true, text: [head, body.text, ...notes].join('\n') };
}

/** The lines around a change (`first`..`last` of the new content), numbered, as the edit's observation shows them. */
export function snippet(content: string, first: number, last: number, limits: ViewLimits, context = 4): string {
  const lines = fileLines(content);
  if (lines.length === 0) return '(the file is now empty)';
  const from = Math.max(1, Math.min(first, lines.length) - context);
  const to = Math.min(lines.length, Math.max(last, first) + context);
  const body = numberedLines(lines, from, to, limits);
  const cut = body.shownLast < to ? `\n(lines ${body.shownLast + 1}-${to} not shown)` : '';
  return `${body.text}${cut}`;
}

/** `n thing` or `n things`. */
export function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}

// The first `max` characters of `s`, never splitting a surrogate pair.
function cutAt(s: string, max: number): string {
  const code = s.charCodeAt(max - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}
