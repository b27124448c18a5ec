// Answers cut off at the model's token limit. The server says so (Ollama's done_reason, OpenAI's
// finish_reason: "length"); the text shows it when its last edit never ends: a hunk that runs to
// the end of the answer with fewer lines than its header announces, a SEARCH/REPLACE block never
// closed, or (when the server did not say why it stopped) a fenced edit block never closed.
// Nothing of a cut-off answer is applied: the rest of it may have held edits the applied part needs.
import { stripThinking } from '../patch/extract-diff.js';
import { findFencedBlocks } from '../patch/fences.js';
import { isHunkHeader } from '../patch/parse-patch.js';
import { headerPath } from '../patch/patch-paths.js';

/** Why an answer is taken as cut off. */
export interface CutOff {
  /** 'server': the server stopped it at the token limit; 'text': its last edit never ends. */
  by: 'server' | 'text';
  /** Where the text stops, as a phrase ("in hunk @@ -5,8 +5,9 @@ of calc.py (it has 5 of its 8 old lines)"), or '' when it does not show. */
  where: string;
}

const HUNK_COUNTS = /^@@+\s*-\d+(?:,(\d+))?\s+\+\d+(?:,(\d+))?/;
const SEARCH = /^\s*<{5,9}\s*SEARCH\b/;
const REPLACE = /^\s*>{5,9}\s*REPLACE\b/;

/** The server's reason for stopping that means the token limit. */
export const LENGTH_REASON = 'length';

/**
 * Whether `answer` was cut off: the server's `finishReason` is "length", or its last edit never
 * ends. `finishReason` undefined means the server did not say (an unclosed edit fence counts then).
 */
export function detectCutOff(answer: string, finishReason?: string): CutOff | null {
  const raw = answer.replace(/\r\n?/g, '\n');
  const where = unfinishedEdit(raw, finishReason === undefined);
  if (finishReason === LENGTH_REASON) return { by: 'server', where: where ?? '' };
  return where === null ? null : { by: 'text', where };
}

/** What the next prompt says about a cut-off answer (why it was not used and what to send instead). */
export function cutOffReason(cut: CutOff): string {
  const what =
    cut.by === 'server'
      ? `your answer was cut off at the token limit${cut.where === '' ? '' : ` ${cut.where}`}`
      : `your answer stops ${cut.where}, as if it was cut off at the token limit`;
  return `${what}; nothing of it was applied. Send a smaller change that fits: fewer files and hunks, only the edit, no explanation before it`;
}

// Where the answer's last edit stops without ending, or null when it ends (or there is none).
function unfinishedEdit(raw: string, serverSilent: boolean): string | null {
  if (/<think>(?![\s\S]*<\/think>)/.test(raw) && stripThinking(raw).trim() === '')
    return 'while still thinking, before any edit';
  const text = stripThinking(raw);
  const blocks = findFencedBlocks(text);
  const last = blocks.at(-1);
  const open = last?.unclosed === true ? last : null;
  const lines = open ? open.content.split('\n') : text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const fenceNote = open ? ` inside its \`\`\`${open.lang} block, which was never closed` : '';

  const sr = lastSearchReplace(lines);
  if (sr !== null) return `${sr}${fenceNote}`;
  const hunk = lastHunk(lines);
  if (hunk !== null && hunk.short !== null) return `${hunk.short}${fenceNote}`;
  if (open && serverSilent && (hunk !== null || lines.some((l) => SEARCH.test(l))))
    return `${hunk ? `in hunk ${hunk.label}` : 'in a SEARCH/REPLACE block'}${fenceNote}`;
  return null;
}

// "in a SEARCH/REPLACE block for calc.py, which was never closed" when the last SEARCH marker has no REPLACE marker after it.
function lastSearchReplace(lines: readonly string[]): string | null {
  const at = lines.findLastIndex((l) => SEARCH.test(l));
  if (at < 0 || lines.slice(at + 1).some((l) => REPLACE.test(l))) return null;
  const path = lines
    .slice(Math.max(0, at - 3), at)
    .reverse()
    .find((l) => l.trim() !== '' && !/^\s*(`{3,}|~{3,})/.test(l));
  return `in a SEARCH/REPLACE block${path ? ` for ${path.trim().replace(/^[`*#\s]+|[`*:\s]+$/g, '')}` : ''}, which was never closed`;
}

// The hunk that runs to the end of `lines` (nothing but body lines after its header), with the
// counts it is short of, or null when the last hunk ends before the text does.
function lastHunk(lines: readonly string[]): { label: string; short: string | null } | null {
  const at = lines.findLastIndex((l) => isHunkHeader(l));
  if (at < 0) return null;
  const body = lines.slice(at + 1);
  if (body.some((l) => !/^([ +\-\\]|$)/.test(l))) return null;
  const header = lines[at]!;
  const label = `${header.replace(/^(@@[^@]*@@).*$/, '$1').slice(0, 40)}${fileOf(lines, at)}`;
  const m = HUNK_COUNTS.exec(header);
  if (m === null) return { label, short: null };
  const oldCount = m[1] === undefined ? 1 : Number(m[1]);
  const newCount = m[2] === undefined ? 1 : Number(m[2]);
  let old = 0;
  let neu = 0;
  for (const l of body) {
    if (l === '' || l[0] === ' ') {
      old++;
      neu++;
    } else if (l[0] === '-') old++;
    else if (l[0] === '+') neu++;
  }
  if (old >= oldCount && neu >= newCount) return { label, short: null };
  const has = old < oldCount ? `${old} of its ${oldCount} old lines` : `${neu} of its ${newCount} new lines`;
  return { label, short: `in hunk ${label} (it has ${has})` };
}

// " of calc.py": the file of the header nearest above line `at`.
function fileOf(lines: readonly string[], at: number): string {
  for (let k = at - 1; k >= 0; k--) {
    const l = lines[k]!;
    if (l.startsWith('+++ ') && l.slice(4).trim() !== '/dev/null') return ` of ${stripSide(headerPath(l.slice(4)))}`;
    if (l.startsWith('--- ') && l.slice(4).trim() !== '/dev/null') return ` of ${stripSide(headerPath(l.slice(4)))}`;
    const git = /^diff --git a\/(\S+) b\//.exec(l);
    if (git) return ` of ${git[1]}`;
  }
  return '';
}

function stripSide(path: string): string {
  return path.replace(/^[ab]\//, '');
}
