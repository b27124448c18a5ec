// Fenced code blocks in a model's markdown answer. A fence is recognised only as a fence: a line
// inside a hunk's body (a raw diff's context line ` ~~~~~~`, a reST underline, or ` ```` from a
// markdown file) is diff content, never the opening of a block.

/** One fenced block: its info string's first word (lower-case) and its content. */
export interface FencedBlock {
  lang: string;
  content: string;
  /** The block ran to the end of the answer without a closing fence. */
  unclosed: boolean;
  /** 0-based line of the opening fence in the text. */
  start: number;
  /** 0-based line just after the block (after its closing fence, or the end of the text). */
  end: number;
  /** The fence's character: '`' or '~'. */
  fence: '`' | '~';
}

const OPEN = /^( {0,3})(`{3,}|~{3,})[ \t]*([^\s`]*)[^`]*$/;
const NUMBERED_HUNK = /^@@+\s*-\d+(?:,(\d+))?\s+\+\d+(?:,(\d+))?/;

/** Where a hunk's body stands as lines go by: its header's counts, and the lines it still has. */
class HunkBody {
  private open = false;
  private counted = false;
  private old = 0;
  private neu = 0;

  /** True when `line` is a body line of the hunk being read (a header starts one). */
  feed(line: string): boolean {
    if (line.startsWith('@@')) {
      const h = NUMBERED_HUNK.exec(line);
      this.open = true;
      this.counted = h !== null;
      this.old = h?.[1] === undefined ? 1 : Number(h[1]);
      this.neu = h?.[2] === undefined ? 1 : Number(h[2]);
      return false;
    }
    if (!this.open) return false;
    if (!this.counted) {
      if (/^[ +\-\\]/.test(line)) return true;
      this.open = false;
      return false;
    }
    if (this.old <= 0 && this.neu <= 0 && line[0] !== '\\') {
      this.open = false;
      return false;
    }
    const c = line[0];
    if (c === ' ' || line === '') {
      this.old--;
      this.neu--;
    } else if (c === '-') this.old--;
    else if (c === '+') this.neu--;
    else if (c !== '\\') {
      this.open = false;
      return false;
    }
    return true;
  }
}

/**
 * The fenced blocks of `text` (LF line ends). A closing fence must start at the opening fence's
 * indent, so a diff context line holding ``` (which starts with a space) cannot close a block; and
 * outside every block, a line in a hunk's body (by its header's counts) cannot open one.
 */
export function findFencedBlocks(text: string): FencedBlock[] {
  const lines = text.split('\n');
  const blocks: FencedBlock[] = [];
  const hunk = new HunkBody();
  let i = 0;
  while (i < lines.length) {
    if (hunk.feed(lines[i]!)) {
      i++;
      continue;
    }
    const open = OPEN.exec(lines[i]!);
    if (!open) {
      i++;
      continue;
    }
    const start = i;
    const indent = open[1]!.length;
    const fence = open[2]!;
    const closing = new RegExp(`^ {${indent}}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
    const body: string[] = [];
    i++;
    let closed = false;
    while (i < lines.length) {
      const line = lines[i]!;
      if (closing.test(line)) {
        closed = true;
        i++;
        break;
      }
      body.push(line.startsWith(' '.repeat(indent)) ? line.slice(indent) : line.replace(/^ +/, ''));
      i++;
    }
    blocks.push({
      lang: open[3]!.toLowerCase(),
      content: body.length === 0 ? '' : `${body.join('\n')}\n`,
      unclosed: !closed,
      start,
      end: i,
      fence: fence[0] === '~' ? '~' : '`',
    });
  }
  return blocks;
}
