// The end of a model's answer, read for signs that it stops inside an edit: the container the
// text ends in (a fenced block or an XML-ish <patch> block never closed), the last hunk running to
// the end with its counts, a dangling hunk or file header, and a last line that stops mid-token.
// cut-off.ts decides from these what counts as cut off.
import { findFencedBlocks } from '../patch/fences.js';
import { isHunkHeader } from '../patch/parse-patch.js';
import { headerPath } from '../patch/patch-paths.js';

/** The lines the answer ends with: the content of the block left open at its end, or the whole text. */
export interface AnswerTail {
  lines: string[];
  /** The block never closed ("```diff block", "<patch> block"), or null when the text ends outside any. */
  open: string | null;
  /** The text ends with a line end (a cut mid-line leaves none). */
  newline: boolean;
}

/** The hunk that runs to the end of the answer (nothing but body lines after its header). */
export interface LastHunk {
  /** "@@ -5,8 +5,9 @@ of calc.py" */
  label: string;
  /** The header line (its first 40 characters). */
  header: string;
  /** " of calc.py": the file named above it, or ''. */
  of: string;
  /** Its body is empty: the answer stops in or right after the header. */
  dangling: boolean;
  /** Its old and new line counts, when its header has numbers. */
  counts: { old: number; new: number } | null;
  /** The old and new lines its body has. */
  has: { old: number; new: number };
  /** Empty lines at the end of its body (counted in `has` as blank context; they may be no part of it). */
  blankEnd: number;
  /** Its last non-empty body line, or null. */
  last: string | null;
}

const SEARCH = /^\s*<{5,9}\s*SEARCH\b/;
const REPLACE = /^\s*>{5,9}\s*REPLACE\b/;
const HUNK_COUNTS = /^@@+\s*-\d+(?:,(\d+))?\s+\+\d+(?:,(\d+))?/;
const BODY = /^([ +\-\\]|$)/;
/** Blocks models wrap an edit in, written as a tag alone on its line (SWE-bench's <patch>, and the like). */
const TAG_NAMES = new Set(['patch', 'diff', 'edit', 'edits', 'answer', 'solution', 'fix', 'changes']);
const OPEN_TAG = /^<([A-Za-z][\w-]*)(?:\s[^<>]*)?>\s*$/;

/** Where `text` (LF line ends, thinking removed) ends: in a block left open, or outside any. */
export function answerTail(text: string): AnswerTail {
  const newline = text.endsWith('\n');
  const blocks = findFencedBlocks(text);
  const last = blocks.at(-1);
  if (last?.unclosed === true) return { lines: contentLines(last.content), open: `\`\`\`${last.lang} block`, newline };
  const all = text.split('\n');
  const tag = openTag(all, blocks);
  if (tag !== null)
    return { lines: contentLines(all.slice(tag.at + 1).join('\n')), open: `<${tag.name}> block`, newline };
  return { lines: contentLines(text), open: null, newline };
}

// The last container tag ("<patch>") with no closing tag after it, outside every fenced block.
function openTag(
  lines: readonly string[],
  blocks: ReturnType<typeof findFencedBlocks>,
): { at: number; name: string } | null {
  for (let k = lines.length - 1; k >= 0; k--) {
    const m = OPEN_TAG.exec(lines[k]!);
    if (m === null || !TAG_NAMES.has(m[1]!.toLowerCase())) continue;
    if (blocks.some((b) => b.start < k && k < b.end)) continue;
    const name = m[1]!;
    const closing = `</${name.toLowerCase()}>`;
    if (lines.slice(k + 1).some((l) => l.toLowerCase().includes(closing))) return null;
    return { at: k, name };
  }
  return null;
}

function contentLines(content: string): string[] {
  const lines = content.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** "in a SEARCH/REPLACE block for calc.py, which was never closed" when the last SEARCH marker has no REPLACE marker after it. */
export function openSearchReplace(lines: readonly string[]): string | null {
  const at = lines.findLastIndex((l) => SEARCH.test(l));
  if (at < 0 || lines.slice(at + 1).some((l) => REPLACE.test(l))) return null;
  const path = lines
    .slice(Math.max(0, at - 3), at)
    .reverse()
    .find((l) => l.trim() !== '' && !/^\s*(`{3,}|~{3,})/.test(l));
  return `in a SEARCH/REPLACE block${path ? ` for ${path.trim().replace(/^[`*#\s]+|[`*:\s]+$/g, '')}` : ''}, which was never closed`;
}

/** True when the lines hold a SEARCH marker. */
export function hasSearchMarker(lines: readonly string[]): boolean {
  return lines.some((l) => SEARCH.test(l));
}

/**
 * The file whose headers end the lines with nothing after them ("--- a/x.py" and "+++ b/x.py", or
 * a lone "diff --git" line): git needs hunks after such headers. Null when the lines end otherwise.
 */
export function danglingFileHeader(lines: readonly string[]): string | null {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end--;
  const last = lines[end - 1];
  if (last === undefined) return null;
  const git = /^diff --git (\S+) (\S+)$/.exec(last);
  if (git) return stripSide(git[2]!);
  const before = lines[end - 2] ?? '';
  const above = (n: number): LastHunk | null => lastHunk(lines.slice(0, end - n));
  // a "+++"/"---" line that the hunk above could still hold is one of its body lines
  const outsideHunk = (n: number, value: string): boolean => {
    const h = above(n);
    if (h === null) return true;
    if (h.counts === null) return /^(a\/|b\/|\/dev\/null$)/.test(value);
    return h.has.old >= h.counts.old && h.has.new >= h.counts.new;
  };
  if (last.startsWith('+++ ') && before.startsWith('--- ') && outsideHunk(2, last.slice(4))) {
    const neu = headerPath(last.slice(4));
    return stripSide(neu === '/dev/null' ? headerPath(before.slice(4)) : neu);
  }
  if (last.startsWith('--- ') && /^\S/.test(last.slice(4)) && outsideHunk(1, last.slice(4)))
    return stripSide(headerPath(last.slice(4)));
  return null;
}

/** The hunk that runs to the end of `lines`, or null when the last hunk ends before the lines do (or there is none). */
export function lastHunk(lines: readonly string[]): LastHunk | null {
  const at = lines.findLastIndex((l) => isHunkHeader(l));
  if (at < 0) return null;
  const body = lines.slice(at + 1);
  if (body.some((l) => !BODY.test(l))) return null;
  const header = lines[at]!;
  const of = fileOf(lines, at);
  const label = `${header.replace(/^(@@[^@]*@@).*$/, '$1').slice(0, 40)}${of}`;
  const has = { old: 0, new: 0 };
  for (const l of body) {
    if (l === '' || l[0] === ' ') {
      has.old++;
      has.new++;
    } else if (l[0] === '-') has.old++;
    else if (l[0] === '+') has.new++;
  }
  const m = HUNK_COUNTS.exec(header);
  const counts =
    m === null ? null : { old: m[1] === undefined ? 1 : Number(m[1]), new: m[2] === undefined ? 1 : Number(m[2]) };
  return {
    label,
    header: header.slice(0, 40),
    of,
    dangling: body.every((l) => l === ''),
    blankEnd: body.length - 1 - body.findLastIndex((l) => l !== ''),
    counts,
    has,
    last: body.findLast((l) => l !== '') ?? null,
  };
}

/**
 * True when a body line stops mid-token: a bracket or a string it opens is still open at its end
 * (comments and apostrophes inside words are not counted).
 */
export function stopsMidToken(line: string): boolean {
  const code = /^[ +-]/.test(line) ? line.slice(1) : line;
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (quote !== null) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if ((c === '#' && (i === 0 || /\s/.test(code[i - 1]!))) || (c === '/' && code[i + 1] === '/')) break;
    if (c === '"' || c === '`') quote = c;
    else if (c === "'" && !(/\w/.test(code[i - 1] ?? '') && /\w/.test(code[i + 1] ?? ''))) quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth = Math.max(0, depth - 1);
  }
  return quote !== null || depth > 0;
}

/** A line quoted for the model: without its diff prefix, its last 48 characters, in backticks. */
export function quoteTail(line: string): string {
  const code = (/^[ +-]/.test(line) ? line.slice(1) : line).trim().replace(/`/g, "'");
  return `\`${code.length > 48 ? `...${code.slice(-48)}` : code}\``;
}

// " of calc.py": the file of the header nearest above line `at`.
function fileOf(lines: readonly string[], at: number): string {
  for (let k = at - 1; k >= 0; k--) {
    const l = lines[k]!;
    if (l.startsWith('+++ ') && l.slice(4).trim() !== '/dev/null') return ` of ${stripSide(headerPath(l.slice(4)))}`;
    if (l.startsWith('--- ') && l.slice(4).trim() !== '/dev/null') return ` of ${stripSide(headerPath(l.slice(4)))}`;
    const git = /^diff --git a\/(\S+) b\//.exec(l);
    if (git) return ` of ${stripSide(git[1]!)}`;
  }
  return '';
}

// A header's path as the model is shown it: without its a/ or b/ side, at most 120 characters.
function stripSide(path: string): string {
  return path.replace(/^[ab]\//, '').slice(0, 120);
}
