// Small markdown builders that stay correct whatever text they are given.
import { sanitizeLine, sanitizeText } from './sanitize.js';

/** A backtick fence longer than any backtick run in `content`, so the content cannot close it. */
export function fenceFor(content: string): string {
  let longest = 0;
  for (const m of content.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** A fenced code block holding `content` verbatim (sanitised), with an optional info string. */
export function fencedBlock(content: string, info = ''): string {
  const body = sanitizeText(content);
  const fence = fenceFor(body);
  return `${fence}${info}\n${body}${body.endsWith('\n') || body === '' ? '' : '\n'}${fence}`;
}

/** An inline code span for one line of text (sanitised), delimited so backticks inside survive. */
export function inlineCode(text: string): string {
  const body = sanitizeLine(text);
  if (body === '') return '` `';
  let longest = 0;
  for (const m of body.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const delim = '`'.repeat(longest + 1);
  const pad = body.startsWith('`') || body.endsWith('`') ? ' ' : '';
  return `${delim}${pad}${body}${pad}${delim}`;
}

/** Text for a table cell: one line, inert (see inertLine), pipes escaped. */
export function tableCell(text: string): string {
  return inertLine(text);
}

/** A markdown table from a header row and body rows (cells already formatted). */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Text as a blockquote, sanitised, one `> ` per line. */
export function blockquote(text: string): string {
  return sanitizeText(text)
    .split('\n')
    .map((l) => (l === '' ? '>' : `> ${l}`))
    .join('\n');
}

/** Human duration: 850 ms, 1.2 s, 3 min 05 s. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const total = Math.round(ms / 1000);
  return `${Math.floor(total / 60)} min ${String(total % 60).padStart(2, '0')} s`;
}

// Text GitHub would turn into a link or a notification: a URL (or a www. name), an e-mail
// address, an issue reference (#12, GH-12, owner/repo#12) and an @mention.
const LIVE_TOKENS =
  /(?:[a-z][a-z0-9+.-]*:\/\/|www\.)[^\s<>`|]*|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:[\w.-]+\/[\w.-]+)?#\d+|GH-\d+|@[\w-]+(?:\/[\w-]+)?/gi;

/**
 * Untrusted prose (the model's words, file names, git's messages) as inert markdown: sanitised,
 * markdown and HTML syntax escaped, and links, e-mail addresses, @mentions and issue references in
 * code spans, so the text can neither format nor link, notify anyone, reference an issue, nor
 * close one when the PR is merged.
 */
export function inertText(text: string): string {
  return sanitizeText(text).split('\n').map(inertOneLine).join('\n');
}

/** inertText for a one-line context (a list item, a table cell): newlines and tabs become spaces. */
export function inertLine(text: string): string {
  return inertOneLine(sanitizeLine(text));
}

function inertOneLine(line: string): string {
  const escape = (t: string): string => t.replace(/[\\`*_[\]<>|~!&]/g, '\\$&');
  let out = '';
  let last = 0;
  for (const m of line.matchAll(LIVE_TOKENS)) {
    out += `${escape(line.slice(last, m.index))}\`${m[0]}\``;
    last = m.index + m[0].length;
  }
  out += escape(line.slice(last));
  return out.replace(/^(\s*)(\d+)([.)])/, '$1$2\\$3').replace(/^(\s*)([#>+=-])/, '$1\\$2');
}
