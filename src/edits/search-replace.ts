// SEARCH/REPLACE blocks (aider's format) in a model's answer:
//
//   src/calc.py
//   <<<<<<< SEARCH
//       result -= item
//   =======
//       result += item
//   >>>>>>> REPLACE
//
// The path is the line before the SEARCH marker (fence lines and blank lines skipped; markdown
// decoration removed); a block without one reuses the previous block's. An empty SEARCH creates
// the file.
import { pathHintBefore, pathLine } from '../patch/path-hint.js';

/** One SEARCH/REPLACE block: the file, the lines to find and the lines to put in their place. */
export interface SearchReplaceBlock {
  path: string;
  search: string[];
  replace: string[];
  /** 1-based line of the SEARCH marker in the answer. */
  line: number;
}

/** The blocks found, the answer with them blanked out (for looking at the rest), or what is wrong with them. */
export interface SearchReplaceParse {
  blocks: SearchReplaceBlock[];
  rest: string;
  problem: string | null;
}

const SEARCH = /^\s*<{5,9}\s*SEARCH\b.*$/;
const DIVIDER = /^\s*={5,9}\s*$/;
const REPLACE = /^\s*>{5,9}\s*REPLACE\b.*$/;

/** True when the text holds a SEARCH marker line. */
export function hasSearchReplace(text: string): boolean {
  return text.split('\n').some((l) => SEARCH.test(l));
}

/** Parse every SEARCH/REPLACE block of `text` (LF line ends). */
export function parseSearchReplace(text: string): SearchReplaceParse {
  const lines = text.split('\n');
  const rest = [...lines];
  const blocks: SearchReplaceBlock[] = [];
  let lastPath: string | null = null;
  let floor = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!SEARCH.test(lines[i]!)) continue;
    const path: string | null = pathAbove(lines, i, floor) ?? proseHint(lines, i, floor) ?? lastPath;
    if (path === null) {
      return {
        blocks,
        rest: rest.join('\n'),
        problem: `the SEARCH/REPLACE block at line ${i + 1} names no file: put the file's path alone on the line before "<<<<<<< SEARCH"`,
      };
    }
    let j = i + 1;
    const search: string[] = [];
    while (j < lines.length && !DIVIDER.test(lines[j]!) && !SEARCH.test(lines[j]!) && !REPLACE.test(lines[j]!))
      search.push(lines[j++]!);
    if (j >= lines.length || !DIVIDER.test(lines[j]!)) {
      return {
        blocks,
        rest: rest.join('\n'),
        problem: `the SEARCH/REPLACE block at line ${i + 1} (${path}) has no "=======" line after its SEARCH part`,
      };
    }
    j++;
    const replace: string[] = [];
    while (j < lines.length && !REPLACE.test(lines[j]!) && !SEARCH.test(lines[j]!)) replace.push(lines[j++]!);
    if (j >= lines.length || !REPLACE.test(lines[j]!)) {
      return {
        blocks,
        rest: rest.join('\n'),
        problem: `the SEARCH/REPLACE block at line ${i + 1} (${path}) is not closed with ">>>>>>> REPLACE"`,
      };
    }
    blocks.push({ path, search, replace, line: i + 1 });
    for (let k = i; k <= j; k++) rest[k] = '';
    lastPath = path;
    floor = j + 1;
    i = j;
  }
  return { blocks, rest: rest.join('\n'), problem: null };
}

// The path line above a SEARCH marker, looking back over fence and blank lines (at most 3 lines of text).
function pathAbove(lines: readonly string[], at: number, floor: number): string | null {
  let looked = 0;
  for (let k = at - 1; k >= floor && looked < 3; k--) {
    const l = lines[k]!;
    if (l.trim() === '') continue;
    const p = pathLine(l);
    if (p !== null) return p;
    if (/^\s*(`{3,}|~{3,})/.test(l)) continue;
    looked++;
  }
  return null;
}

// "Now in `utils.py`:" right above the block (fences skipped).
function proseHint(lines: readonly string[], at: number, floor: number): string | null {
  for (let k = at - 1; k >= floor; k--) {
    const l = lines[k]!;
    if (l.trim() === '' || /^\s*(`{3,}|~{3,})/.test(l)) continue;
    return pathHintBefore([l]);
  }
  return null;
}
