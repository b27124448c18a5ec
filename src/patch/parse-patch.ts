// A tolerant parser for unified diffs as models write them: it finds file sections and hunks in
// text that may hold prose around them, keeps every line it recognised verbatim, and reports the
// lines it did not. Extraction repairs and re-serialises from this model; validation vets it.
import { headerPath } from './patch-paths.js';

/** One `@@` hunk: its header numbers and its body lines as written. */
export interface PatchHunk {
  header: string;
  /**
   * The header had line numbers. A bare "@@ ... @@" (or "@@") header has none: its counts are
   * then the body's and its starts 0, and only relocation by context can place it.
   */
  numbered: boolean;
  /** The header is exactly git's "@@ -a[,b] +c[,d] @@" form (false for a loose or bare header). */
  canonical: boolean;
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  /** Body lines (' ', '+', '-', '\' and empty lines taken as blank context). */
  lines: string[];
  /** 1-based line of the header in the parsed text. */
  line: number;
}

/** One file's section of a patch. */
export interface FilePatch {
  /** The `diff --git ...` line, when present. */
  gitHeader: string | null;
  /** Extended header lines (index, modes, rename/copy, similarity), verbatim. */
  extended: string[];
  /** The `--- ` and `+++ ` lines, when present. */
  oldHeader: string | null;
  newHeader: string | null;
  /** Paths from the headers as written (prefix kept, unquoted), or null when there is no such header. */
  oldPath: string | null;
  newPath: string | null;
  hunks: PatchHunk[];
  /** A binary patch or a "Binary files ... differ" line was seen in this section. */
  binary: boolean;
  /** 1-based line where the section starts. */
  line: number;
}

/** The parse: file sections, and the lines that belong to none. */
export interface ParsedPatch {
  files: FilePatch[];
  junk: { line: number; text: string }[];
}

export interface ParseOptions {
  /**
   * What lines that look like hunk body past the header's counts are: 'hunk' (inside a fenced
   * diff block: the counts are wrong, keep them in the hunk so validation can say so) or 'prose'
   * (a raw diff in running text: only the lines right after the counts, up to a blank line).
   */
  overflow: 'hunk' | 'prose';
  /**
   * Inside a hunk, take a line without a diff prefix as a context line that lost its leading
   * space (models and markdown renderers drop it), when hunk lines follow it. Extraction only;
   * validation never repairs.
   */
  repairContext?: boolean;
  /**
   * The fence the text was inside (a fenced block's content): only lines opening a fence of that
   * character are never taken as context (a docstring's ~~~~ underline inside a ``` block is).
   */
  fence?: '`' | '~';
}

const EXTENDED =
  /^(old mode |new mode |deleted file mode |new file mode |copy from |copy to |rename from |rename to |similarity index |dissimilarity index |index )/;
const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
// What models write instead: extra or missing spaces and @, no closing @@ ...
const LOOSE_HEADER = /^@@+\s*-(\d+)(?:,(\d+))?\s+\+(\d+)(?:,(\d+))?\s*(?:@@.*)?$/;
// ... or no numbers at all: "@@", "@@ @@", "@@ ... @@", "@@ def total(items): @@".
const BARE_HEADER = /^@@(?:[ \t].*)?$/;

/** True when a line is a hunk header of any form parsePatch accepts (numbered, loose or bare). */
export function isHunkHeader(line: string): boolean {
  return HUNK_HEADER.test(line) || LOOSE_HEADER.test(line) || BARE_HEADER.test(line);
}

/** Split text into lines: CRLF normalised, no phantom empty line after a final newline. */
export function splitLines(text: string): string[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Parse unified-diff file sections and hunks out of `text`. */
export function parsePatch(text: string, options: ParseOptions): ParsedPatch {
  const lines = splitLines(text);
  const files: FilePatch[] = [];
  const junk: ParsedPatch['junk'] = [];
  let i = 0;
  const isFileStart = (k: number): boolean => {
    const l = lines[k] ?? '';
    return (
      l.startsWith('diff --git ') ||
      (l.startsWith('--- ') && (lines[k + 1] ?? '').startsWith('+++ ')) ||
      isBinaryLine(l)
    );
  };

  while (i < lines.length) {
    if (!isFileStart(i)) {
      junk.push({ line: i + 1, text: lines[i]! });
      i++;
      continue;
    }
    const file: FilePatch = {
      gitHeader: null,
      extended: [],
      oldHeader: null,
      newHeader: null,
      oldPath: null,
      newPath: null,
      hunks: [],
      binary: false,
      line: i + 1,
    };
    files.push(file);
    if (lines[i]!.startsWith('diff --git ')) {
      file.gitHeader = lines[i]!;
      i++;
      while (i < lines.length && EXTENDED.test(lines[i]!)) file.extended.push(lines[i++]!);
    }
    if (isBinaryLine(lines[i] ?? '')) {
      file.binary = true;
      file.extended.push(lines[i]!);
      i = skipBinary(lines, i);
      continue;
    }
    if ((lines[i] ?? '').startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ')) {
      file.oldHeader = lines[i]!;
      file.newHeader = lines[i + 1]!;
      file.oldPath = headerPath(file.oldHeader.slice(4));
      file.newPath = headerPath(file.newHeader.slice(4));
      i += 2;
    }
    while (i < lines.length && isHunkHeader(lines[i]!)) {
      const hunk = readHunk(lines, i, options, isFileStart);
      file.hunks.push(hunk.hunk);
      i = hunk.next;
    }
  }
  return { files, junk };
}

function isBinaryLine(line: string): boolean {
  return line.startsWith('GIT binary patch') || /^Binary files .* differ$/.test(line);
}

// Skip a binary section: up to the next file start or a blank line after the data.
function skipBinary(lines: string[], start: number): number {
  let i = start + 1;
  while (i < lines.length && !lines[i]!.startsWith('diff --git ') && !lines[i]!.startsWith('--- ')) i++;
  return i;
}

function readHunk(
  lines: string[],
  start: number,
  options: ParseOptions,
  isFileStart: (k: number) => boolean,
): { hunk: PatchHunk; next: number } {
  const header = lines[start]!;
  const m = HUNK_HEADER.exec(header) ?? LOOSE_HEADER.exec(header);
  const hunk: PatchHunk = {
    header,
    numbered: m !== null,
    canonical: HUNK_HEADER.test(header),
    oldStart: m ? Number(m[1]) : 0,
    oldCount: m ? (m[2] === undefined ? 1 : Number(m[2])) : 0,
    newStart: m ? Number(m[3]) : 0,
    newCount: m ? (m[4] === undefined ? 1 : Number(m[4])) : 0,
    lines: [],
    line: start + 1,
  };
  const stops = (k: number): boolean => isFileStart(k) || isHunkHeader(lines[k]!);
  const bodyFollows = (k: number): boolean => k < lines.length && !stops(k) && /^[ +-]/.test(lines[k]!);
  const fenceLine = options.fence === '`' ? /^```/ : options.fence === '~' ? /^~~~/ : /^```|^~~~/;
  const repairable = (k: number): boolean =>
    options.repairContext === true &&
    options.overflow === 'hunk' &&
    lines[k]!.trim() !== '' &&
    !fenceLine.test(lines[k]!) &&
    bodyFollows(k + 1);
  let i = start + 1;
  if (m !== null) {
    let oldLeft = hunk.oldCount;
    let newLeft = hunk.newCount;
    while (i < lines.length && (oldLeft > 0 || newLeft > 0) && !stops(i)) {
      let l = lines[i]!;
      const c = l[0];
      if (l === '' || c === ' ') {
        oldLeft--;
        newLeft--;
      } else if (c === '-') oldLeft--;
      else if (c === '+') newLeft--;
      else if (c !== '\\') {
        // the header still expects context lines: one without its space is one of them
        if (
          oldLeft <= 0 ||
          newLeft <= 0 ||
          !(
            repairable(i) ||
            (options.repairContext === true && options.overflow === 'hunk' && !fenceLine.test(l) && l.trim() !== '')
          )
        )
          break;
        l = ` ${l}`;
        oldLeft--;
        newLeft--;
      }
      hunk.lines.push(l);
      i++;
    }
    if (i < lines.length && lines[i]!.startsWith('\\')) hunk.lines.push(lines[i++]!);
  }
  if (options.overflow === 'hunk') {
    // Lines that still look like hunk body up to the next header or the end belong to this hunk.
    let end = i;
    const rest: string[] = [];
    while (end < lines.length && !stops(end)) {
      const l = lines[end]!;
      if (/^([ +\-\\]|$)/.test(l)) rest.push(l);
      else if (repairable(end)) rest.push(` ${l}`);
      else break;
      end++;
    }
    const reachesBoundary = end === lines.length || stops(end);
    if (
      (reachesBoundary || m === null) &&
      rest.some((l) => l.startsWith('+') || l.startsWith('-') || l.startsWith(' '))
    ) {
      while (rest.length > 0 && rest.at(-1) === '') rest.pop();
      hunk.lines.push(...rest);
      i += rest.length;
    }
  } else {
    // In running text, hunk-like lines right after the counts (no blank line between) are the
    // model's miscounted hunk, not prose: keep them so validation reports the mismatch instead of
    // a shortened hunk being applied silently.
    let end = i;
    while (end < lines.length && !stops(end) && /^[ +\-\\]/.test(lines[end]!)) end++;
    hunk.lines.push(...lines.slice(i, end));
    i = end;
  }
  if (m === null) {
    const body = countHunkBody(hunk);
    hunk.oldCount = body.old;
    hunk.newCount = body.new;
  }
  return { hunk, next: i };
}

/** How many old-side and new-side lines a hunk's body holds. */
export function countHunkBody(hunk: PatchHunk): { old: number; new: number; added: number; removed: number } {
  let old = 0;
  let neu = 0;
  let added = 0;
  let removed = 0;
  for (const l of hunk.lines) {
    if (l === '' || l.startsWith(' ')) {
      old++;
      neu++;
    } else if (l.startsWith('-')) {
      old++;
      removed++;
    } else if (l.startsWith('+')) {
      neu++;
      added++;
    }
  }
  return { old, new: neu, added, removed };
}

/** The patch text of parsed file sections, one line each as recognised, ending in a newline. */
export function serializePatch(files: readonly FilePatch[]): string {
  const out: string[] = [];
  for (const f of files) {
    if (f.gitHeader !== null) out.push(f.gitHeader);
    out.push(...f.extended);
    if (f.oldHeader !== null && f.newHeader !== null) out.push(f.oldHeader, f.newHeader);
    for (const h of f.hunks) out.push(h.header, ...h.lines);
  }
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}
