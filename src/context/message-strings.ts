// The texts worth looking for in the code (pure): the messages a failing test asserts (its string
// literals) and those the failure prints (quoted parts, and the words of an error message, which a
// format string in the code holds in pieces: "unknown name %v" for "unknown name Bar").
import type { LineRange } from './types.js';

/** A text to look for, and where it comes from. */
export interface MessageString {
  text: string;
  why: string;
}

/** A row of testify's failure table: a label (blank on a continued field) and its text, tab-aligned. */
const TESTIFY_CELL = /^\s*\t(?:([A-Z][A-Za-z ]{0,20}):|\s*)\s*\t(.*)$/;

/** Texts looked for at most (each is one `-e` of one search). */
export const MAX_STRINGS = 16;
/** The shortest and longest text looked for. */
const MIN_CHARS = 6;
const MAX_CHARS = 120;
/** A message line longer than this is not read for fragments. */
const MAX_LINE = 1000;

const QUOTED = /"((?:[^"\\\n]|\\.){1,200})"|'((?:[^'\\\n]|\\.){1,200})'|`([^`\n]{1,200})`/g;
const MESSAGE = /(?:Error|Exception|panic|error|failed|Failed)\b\s*(?:\[[^\]\n]{0,40}\])?\s*[:=]\s*(.{6,400})$/;

/**
 * Whether a text is specific enough to find the code that holds it: letters, more than one word or words
 * joined with `-` (a message, `unused-argument`), not a path, not a format string, not an identifier
 * (names are followed as names).
 */
export function searchable(text: string): boolean {
  const t = text.trim();
  if (t.length < MIN_CHARS || t.length > MAX_CHARS || /\p{Cc}/u.test(t)) return false;
  if (/[\\/][\w.-]+\.[a-z]{1,4}$/i.test(t) || /^[\w.-]+\.(py|js|ts|go|rs|json|txt|test)$/i.test(t)) return false;
  if ((t.match(/[A-Za-z]/g) ?? []).length < 4) return false;
  if (/%[sdvqrf]|\{\}|\$\{/.test(t)) return false;
  return /[A-Za-z]\s+[A-Za-z]/.test(t) || /[A-Za-z]-[A-Za-z]/.test(t);
}

/** The string literals of a failing test's failing regions (its whole text when there are none). */
export function assertedStrings(text: string, regions: readonly LineRange[]): MessageString[] {
  const all = text.split('\n');
  const picked =
    regions.length === 0 ? all : all.filter((_, i) => regions.some((r) => r.start <= i + 1 && i + 1 <= r.end));
  const out: MessageString[] = [];
  for (const line of picked) {
    if (line.length > MAX_LINE) continue;
    for (const m of line.matchAll(QUOTED)) {
      const s = unescape(m[1] ?? m[2] ?? m[3]!);
      if (searchable(s)) push(out, { text: s.trim(), why: 'asserted in the failing test' });
    }
  }
  return out;
}

/** The quoted parts of failure messages, and the word runs of their error lines. */
export function printedStrings(messages: readonly string[]): MessageString[] {
  const out: MessageString[] = [];
  for (const message of messages) {
    let field = '';
    for (const raw of message.split('\n')) {
      // testify's table: `Error:  \tReceived unexpected error:` then the error itself on the lines
      // below it, its label blank (`        \t            \tunknown name x (1:5)`)
      const cell = TESTIFY_CELL.exec(raw);
      if (cell !== null) {
        const label = cell[1] ?? '';
        if (label !== '') field = label;
        else if (field === 'Error' && cell[2]!.length <= MAX_LINE && !/^\s*[|+-]/.test(cell[2]!)) {
          for (const f of fragments(cell[2]!)) push(out, { text: f, why: 'printed by the failure' });
        }
      } else field = '';
      const line = raw.replace(/^\s*(?:E\s+|>\s+|[-+]\s+)?/, '');
      if (line.length > MAX_LINE) continue;
      for (const m of line.matchAll(QUOTED)) {
        const s = unescape(m[1] ?? m[2] ?? m[3]!);
        if (!searchable(s)) continue;
        push(out, { text: s.trim(), why: 'printed by the failure' });
        for (const f of fragments(s)) push(out, { text: f, why: 'printed by the failure' });
      }
      const msg = MESSAGE.exec(line);
      if (msg !== null) for (const f of fragments(msg[1]!)) push(out, { text: f, why: 'printed by the failure' });
    }
  }
  return out;
}

/**
 * Runs of two or more words of a message between its punctuation (quoted parts left out), and the first
 * two and three words of a longer run: a format string holds those pieces literally.
 */
function fragments(message: string): string[] {
  const out: string[] = [];
  const unquoted = message.replace(QUOTED, '|');
  for (const run of unquoted.split(/[,;:=()[\]{}<>|!?]|\s-\s/)) {
    const words = run.trim().split(/\s+/).filter(Boolean);
    if (words.length < 2 || !words.every((w) => /^[A-Za-z][\w'-]*$/.test(w))) continue;
    for (const n of [words.length, 3, 2]) {
      if (n > words.length) continue;
      const f = words.slice(0, n).join(' ');
      if (searchable(f) && !out.includes(f)) out.push(f);
    }
  }
  return out;
}

function push(out: MessageString[], s: MessageString): void {
  if (out.length < MAX_STRINGS * 2 && !out.some((o) => o.text === s.text)) out.push(s);
}

/** The value of a literal's common escapes (what the code's own literal holds is compared as written, too). */
function unescape(s: string): string {
  return s.replace(/\\(["'\\`])/g, '$1');
}

/** The texts to look for, each once, at most MAX_STRINGS (those asserted first). */
export function uniqueTexts<T extends { text: string }>(xs: readonly T[]): T[] {
  const out: T[] = [];
  for (const x of xs) if (!out.some((o) => o.text === x.text)) out.push(x);
  return out.slice(0, MAX_STRINGS);
}
