// The message of each commit hammer-box makes: a subject a maintainer would keep (the directive's
// or the plan's title), a body saying what the change does, and trailers naming the run and model.
import { UNSAFE_CLASS } from '../text/sanitize.js';

// controls and every character that hides or reorders text (see sanitize.ts) become spaces
const UNSAFE = new RegExp(`[${UNSAFE_CLASS}]+`, 'gu');

/** Longest subject line, in characters. */
export const SUBJECT_MAX = 72;
/** Body lines are wrapped at this width (words longer than it stay whole). */
const BODY_WIDTH = 72;

/** What a commit says, before it is made one message. */
export interface CommitText {
  /** The subject: one line, cut here to SUBJECT_MAX at a word. */
  subject: string;
  /** The body: paragraphs (blank-line separated), '' for none. */
  body: string;
  /** Trailers, in order ("Hammer-Box-Run", run id). */
  trailers: readonly (readonly [key: string, value: string])[];
}

/** Subject, body and trailers as one commit message (control characters out, the subject one line of at most 72). */
export function commitMessage(text: CommitText): string {
  const subject = cutAtWord(oneLine(text.subject), SUBJECT_MAX) || 'Apply a patch';
  const body = text.body
    .split(/\r\n?|\n/)
    .map((line) => line.replace(UNSAFE, ' '))
    .join('\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map(wrapParagraph)
    .join('\n\n');
  const trailers = text.trailers.map(([k, v]) => `${oneLine(k).replace(/[\s:]+/g, '-')}: ${oneLine(v)}`).join('\n');
  return `${[subject, body, trailers].filter((p) => p !== '').join('\n\n')}\n`;
}

/** `text` on one printable line, spaces collapsed. */
function oneLine(text: string): string {
  return text.replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim();
}

/** `text` cut to at most `max` characters at a word (no ellipsis: a subject reads whole). */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const at = text.lastIndexOf(' ', max);
  return (at > max / 2 ? text.slice(0, at) : text.slice(0, max)).replace(/[\s,;:-]+$/, '');
}

/** A paragraph's lines wrapped at BODY_WIDTH; list items keep their marker and indent what follows. */
function wrapParagraph(paragraph: string): string {
  return paragraph
    .split('\n')
    .map((line) => {
      const marker = /^(\s*(?:[-*+]|\d+[.)])\s+)/.exec(line)?.[1] ?? '';
      const words = line.slice(marker.length).trim().split(/\s+/);
      const out: string[] = [];
      let current = marker;
      const indent = ' '.repeat(marker.length);
      for (const word of words) {
        const start = current === marker || current === indent;
        if (!start && current.length + 1 + word.length > BODY_WIDTH) {
          out.push(current);
          current = indent + word;
        } else current = start ? current + word : `${current} ${word}`;
      }
      out.push(current);
      return out.map((l) => l.trimEnd()).join('\n');
    })
    .join('\n');
}
