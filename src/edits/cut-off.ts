// Answers cut off at the model's token limit. The server may say so (Ollama's done_reason, OpenAI's
// finish_reason: "length"), but some servers and proxies send no reason at all and a cut can come
// from the client, so the answer's own evidence decides too (answer-tail.ts reads it):
//   - always: its last edit is unfinished: a hunk that runs to the end short of added or removed
//     lines its header announces, a hunk header or file header with nothing after it, or a
//     SEARCH/REPLACE block never closed;
//   - unless the server said the model ended the answer itself ("stop"): the answer ends inside a
//     block never closed (a fence, a <patch> block) that holds an edit, in a last line that stops
//     mid-token (a bracket or string still open, no line end), in a last line (no line end) that
//     is only the start of the file's line there, in a hunk with more lines than its header
//     announces, or in a hunk short only of context lines (as many old as new). A last line
//     without a line end is how many complete answers end: only a server that did not say the
//     model ended it makes that evidence.
// Nothing of a cut-off answer is applied: the rest of it may have held edits the applied part needs.
import { stripThinking } from '../patch/extract-diff.js';
import { fileSides } from '../patch/file-paths.js';
import type { FilePatch } from '../patch/parse-patch.js';
import {
  answerTail,
  danglingFileHeader,
  hasSearchMarker,
  lastHunk,
  openSearchReplace,
  quoteTail,
  stopsMidToken,
} from './answer-tail.js';
import { looseLine } from './file-text.js';

/** Why an answer is taken as cut off. */
export interface CutOff {
  /** 'server': the server stopped it at the token limit; 'text': the answer shows it stops inside an edit. */
  by: 'server' | 'text';
  /** Where the text stops, as a phrase ("in hunk @@ -5,8 +5,9 @@ of calc.py (it has 5 of its 8 old lines)"), or '' when it does not show. */
  where: string;
}

/** The server's reason for stopping that means the token limit. */
export const LENGTH_REASON = 'length';

/** Reasons that say the model ended its answer itself: the weaker evidence of a cut does not count then. */
const ENDED_BY_MODEL = new Set(['stop', 'eos', 'end_turn', 'stop_sequence', 'tool_calls', 'function_call']);

/**
 * Whether `answer` was cut off: the server's `finishReason` is "length", or the text shows it
 * stops inside an edit. `finishReason` undefined means the server did not say; it gets every
 * outcome "length" would wherever the text shows the cut.
 */
export function detectCutOff(answer: string, finishReason?: string): CutOff | null {
  const raw = answer.replace(/\r\n?/g, '\n');
  const where = unfinishedEdit(raw, !endedByModel(finishReason));
  if (finishReason === LENGTH_REASON) return { by: 'server', where: where ?? '' };
  return where === null ? null : { by: 'text', where };
}

/**
 * The cut that only the file shows: the answer ends, with no line end, in a context or removed
 * line of its last hunk that is not a line of the file but the start of one ("from .compat import
 * default" where the file has "... default_sort_key"), and the server did not say the model ended
 * it ("stop"). `read` gives a repo path's current text.
 */
export function cutInFile(
  answer: string,
  finishReason: string | undefined,
  files: readonly FilePatch[],
  read: (path: string) => string | null,
): CutOff | null {
  if (endedByModel(finishReason)) return null;
  const text = stripThinking(answer.replace(/\r\n?/g, '\n'));
  if (text.endsWith('\n')) return null;
  const tail = text.slice(text.lastIndexOf('\n') + 1);
  const file = files.at(-1);
  const hunk = file?.hunks.at(-1);
  const line = hunk?.lines.at(-1);
  if (file === undefined || hunk === undefined || line === undefined) return null;
  if (!(line === tail || line === ` ${tail}`) || !/^[ -]/.test(line)) return null;
  const path = fileSides(file).oldPath;
  const content = path === null ? null : read(path);
  const want = looseLine(line.slice(1));
  if (path === null || content === null || want === '') return null;
  const lines = content.split('\n').map(looseLine);
  if (lines.includes(want)) return null;
  const near = hunk.numbered ? hunk.oldStart + hunk.oldCount - 2 : 0;
  let at = -1;
  lines.forEach((l, k) => {
    if (l.length > want.length && l.startsWith(want) && (at < 0 || Math.abs(k - near) < Math.abs(at - near))) at = k;
  });
  if (at < 0) return null;
  return {
    by: finishReason === LENGTH_REASON ? 'server' : 'text',
    where: `in the middle of a line: ${quoteTail(line)} is only the start of line ${at + 1} of ${path.slice(0, 120)}`,
  };
}

/** What the next prompt says about a cut-off answer (why it was not used and what to send instead). */
export function cutOffReason(cut: CutOff): string {
  const what =
    cut.by === 'server'
      ? `your answer was cut off at the token limit${cut.where === '' ? '' : ` ${cut.where}`}`
      : `your answer stops ${cut.where}, as if it was cut off at the token limit`;
  return `${what}; nothing of it was applied. Send a smaller change that fits: fewer files and hunks, only the edit, no explanation before it`;
}

function endedByModel(finishReason: string | undefined): boolean {
  return finishReason !== undefined && ENDED_BY_MODEL.has(finishReason);
}

// Where the answer's last edit stops without ending, or null when it ends (or there is none).
// `weak`: the evidence that counts only when the model did not say it ended the answer itself.
function unfinishedEdit(raw: string, weak: boolean): string | null {
  if (/<think>(?![\s\S]*<\/think>)/.test(raw) && stripThinking(raw).trim() === '')
    return 'while still thinking, before any edit';
  const tail = answerTail(stripThinking(raw));
  const { lines } = tail;
  const inOpen = tail.open === null ? '' : ` inside its ${tail.open}, which was never closed`;

  const sr = openSearchReplace(lines);
  if (sr !== null) return `${sr}${inOpen}`;
  const header = danglingFileHeader(lines);
  if (header !== null) return `right after the file header of ${header}, before any of its hunks${inOpen}`;
  const hunk = lastHunk(lines);
  if (hunk !== null) {
    if (hunk.dangling) return `in the hunk header "${hunk.header}"${hunk.of}, before any of its lines${inOpen}`;
    const c = hunk.counts;
    // short on both sides by the same lines: only context is missing (a miscount, or a blank last
    // context line trimmed away), which is evidence only when the model did not say it ended
    const contextOnly = c !== null && c.old - hunk.has.old === c.new - hunk.has.new;
    if (c !== null && (hunk.has.old < c.old || hunk.has.new < c.new) && (weak || !contextOnly)) {
      const has =
        hunk.has.old < c.old
          ? `${hunk.has.old} of its ${c.old} old lines`
          : `${hunk.has.new} of its ${c.new} new lines`;
      return `in hunk ${hunk.label} (it has ${has})${inOpen}`;
    }
  }
  if (!weak) return null;
  if (hunk !== null && !tail.newline && hunk.last !== null && stopsMidToken(hunk.last))
    return `in the middle of the line ${quoteTail(hunk.last)} in hunk ${hunk.label}${inOpen}`;
  const c = hunk?.counts ?? null;
  if (hunk !== null && c !== null) {
    // blank lines at the very end may be the answer's, not the hunk's
    const old = hunk.has.old - hunk.blankEnd;
    const neu = hunk.has.new - hunk.blankEnd;
    if (old > c.old || neu > c.new) {
      const over =
        old > c.old
          ? `${old} old lines where its header announces ${c.old}`
          : `${neu} new lines where its header announces ${c.new}`;
      return `in hunk ${hunk.label} (it runs on to the end of the answer with ${over})${inOpen}`;
    }
  }
  if (tail.open !== null && (hunk !== null || hasSearchMarker(lines)))
    return `${hunk ? `in hunk ${hunk.label}` : 'in a SEARCH/REPLACE block'}${inOpen}`;
  return null;
}
