// Fenced code blocks in a model's markdown answer.

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

/**
 * The fenced blocks of `text` (LF line ends). A closing fence must start at the opening fence's
 * indent, so a diff context line holding ``` (which starts with a space) cannot close a block.
 */
export function findFencedBlocks(text: string): FencedBlock[] {
  const lines = text.split('\n');
  const blocks: FencedBlock[] = [];
  let i = 0;
  while (i < lines.length) {
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
