// The model's own words about its change: its answer without the edit itself (fenced blocks,
// search/replace blocks, raw diff lines), without its thinking, and without what it says about the
// edit's mechanics (the diff's format, hunks, line numbers, that it applies), kept short.
import { findFencedBlocks } from '../patch/fences.js';
import { stripThinking } from '../patch/extract-diff.js';
import { sanitizeText, truncateText } from '../text/sanitize.js';

/** Limits of the explanation shown in PR_SUMMARY.md. */
export const EXPLANATION_MAX_LINES = 8;
export const EXPLANATION_MAX_CHARS = 800;

/** The prose of a model's answer (sanitised, at most a few lines), or null when it said nothing but the edit. */
export function modelExplanation(answer: string): string | null {
  const text = stripThinking(answer.replace(/\r\n?/g, '\n'));
  const lines = text.split('\n');
  const drop = new Set<number>();
  for (const b of findFencedBlocks(text)) {
    // content is the body's lines, each ending in \n; the fences take one line each
    const body = b.content === '' ? 0 : b.content.split('\n').length - 1;
    const end = b.unclosed ? lines.length : b.start + body + 2;
    for (let i = b.start; i < end; i++) drop.add(i);
  }
  let inSearchReplace = false;
  let inHunk = false;
  const kept: string[] = [];
  for (const [i, line] of lines.entries()) {
    if (drop.has(i)) continue;
    if (/^<{5,9} SEARCH\s*$/.test(line)) {
      inSearchReplace = true;
      // the file's path on the line before the block is part of the edit
      if (/^\S+$/.test(kept.at(-1) ?? '')) kept.pop();
    }
    if (inSearchReplace) {
      if (/^>{5,9} REPLACE\s*$/.test(line)) inSearchReplace = false;
      continue;
    }
    if (/^(diff --git |index [0-9a-f]+\.\.|--- |\+\+\+ )/.test(line)) continue;
    if (/^@@ -\d/.test(line)) {
      inHunk = true;
      continue;
    }
    if (inHunk && /^[ +\-\\]/.test(line)) continue;
    inHunk = false;
    if (/^\W*NO_CHANGES\W*$/.test(line)) continue;
    kept.push(line.trimEnd());
  }
  const paragraphs = sanitizeText(kept.join('\n'))
    .split(/\n\s*\n/)
    .map((p) => aboutTheChange(p.trim()))
    .filter((p) => p !== '' && !/^[\s#*_:>-]*$/.test(p));
  if (paragraphs.length === 0) return null;
  const out = paragraphs.join('\n\n').split('\n').slice(0, EXPLANATION_MAX_LINES).join('\n');
  return truncateText(out, EXPLANATION_MAX_CHARS);
}

/**
 * Sentences that speak of the edit's form rather than the change: the diff or patch itself, its
 * format, hunks, line numbers and context, whether it applies, an earlier attempt that did not,
 * and announcements of what follows ("Here is the fix:").
 */
const MECHANICS: readonly RegExp[] = [
  /\b(unified|git)[- ]diff\b/i,
  /\b(diff|patch|edit|search[/ -]replace) (format|block|syntax|headers?)\b/i,
  /\bhunks?\b/i,
  /\bline numbers?\b/i,
  /\bcontext lines?\b/i,
  /\b(apply|applies|applied|applying) (cleanly|correctly|properly)\b/i,
  /\b(did ?n[o']t|does ?n[o']t|could ?n[o']t|failed to|will|should|now) apply\b/i,
  /\bgit apply\b/i,
  /\b(previous|last|earlier|corrected|updated|fixed|new) (diff|patch|attempt|edit)\b/i,
  /\b(SEARCH|REPLACE) (block|section)s?\b/,
  /\b(whitespace|indentation) (in|of) the (diff|patch)\b/i,
  /^(here is|here's|here are|below is|the following is|i('ll| will) (now )?(provide|give|output|write|show))\b/i,
];

/** A paragraph without its sentences about the edit's mechanics ('' when nothing else is left). */
export function aboutTheChange(paragraph: string): string {
  // a list or a heading is kept or dropped line by line; prose sentence by sentence
  const lines = paragraph.split('\n');
  if (lines.length > 1 && lines.every((l) => /^\s*([-*+]|\d+[.)]|#)/.test(l) || l.trim() === '')) {
    return lines.filter((l) => !MECHANICS.some((re) => re.test(l.replace(/^\s*([-*+]|\d+[.)])\s*/, '')))).join('\n');
  }
  const sentences = paragraph.match(/[^.!?]+(?:[.!?]+(?=\s|$)|$)\s*/g) ?? [paragraph];
  return sentences
    .filter((sentence) => !MECHANICS.some((re) => re.test(sentence.trim())))
    .join('')
    .trim();
}
