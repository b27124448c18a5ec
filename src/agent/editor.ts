// The editor tool, pure: one command applied to a file's content, the way the widely used
// `str_replace_editor` does it (SWE-agent, Anthropic's editor schema), with error texts that say
// exactly what went wrong. The loop reads and writes the file and runs the gates; directories,
// links and files too large to read are its to answer (`current` is a regular file's text or null).
//
// Tabs and line ends are kept as they are. In a file whose every line ends in CRLF, old_str and
// new_str written with LF (as the model sees the file in a view) are matched and written with CRLF.
import type { EditAction } from './types.js';
import { DEFAULT_VIEW_LIMITS, fileLines, lineEnding, plural, snippet, viewText, type ViewLimits } from './view.js';

/** What one editor command did. */
export type EditOutcome =
  | { kind: 'viewed'; observation: string }
  /** observation: a snippet around the change, numbered */
  | { kind: 'changed'; content: string; observation: string }
  | { kind: 'error'; observation: string };

/** How much a view (and a change's snippet) shows; DEFAULT_VIEW_LIMITS for what is left out. */
export type EditOptions = Partial<ViewLimits>;

/** Lines of context a change's snippet shows on each side. */
const SNIPPET_CONTEXT = 4;
/** Match lines listed when old_str matches more than once. */
const MAX_LISTED = 20;

/**
 * Apply one editor command to a file's current content (`null`: the file does not exist; undo_edit
 * is handled by the caller's UndoStack). str_replace: old text must match exactly once, else the
 * error says how many matched and on which lines; insert: after line N (0 = top); create: refuses
 * an existing file (tell the model to use str_replace); view: numbered lines (cat -n style), a range,
 * long files cut with a note. Tabs and CRLF preserved; whitespace-only differences are differences.
 */
export function applyEdit(
  action: Exclude<EditAction, { command: 'undo_edit' }>,
  current: string | null,
  opts: EditOptions = {},
): EditOutcome {
  const limits: ViewLimits = { ...DEFAULT_VIEW_LIMITS, ...definedOnly(opts) };
  const { path } = action;
  if (action.command === 'create') {
    if (current !== null) {
      return error(
        `File already exists at: ${path}. create does not overwrite a file: change it with str_replace or insert (view it first).`,
      );
    }
    const n = fileLines(action.fileText).length;
    return {
      kind: 'changed',
      content: action.fileText,
      observation: `File created successfully at: ${path} (${n} ${plural(n, 'line')}).`,
    };
  }
  if (current === null) {
    const hint = action.command === 'view' ? '' : ' To make a new file, use the create command.';
    return error(`The file ${path} does not exist.${hint}`);
  }
  if (current.includes('\0')) {
    return error(
      `${path} is a binary file: the editor cannot ${action.command === 'view' ? 'show' : 'change'} it. Inspect it with bash (e.g. \`xxd ${path} | head\`).`,
    );
  }
  switch (action.command) {
    case 'view': {
      const v = viewText(path, current, action.viewRange, limits);
      return v.ok ? { kind: 'viewed', observation: v.text } : error(v.text);
    }
    case 'str_replace':
      return strReplace(path, current, action.oldStr, action.newStr, limits);
    case 'insert':
      return insert(path, current, action.insertLine, action.newStr, limits);
  }
}

function strReplace(path: string, current: string, oldText: string, newText: string, limits: ViewLimits): EditOutcome {
  if (oldText === '') {
    return error(
      'old_str is empty: give the exact text to replace, copied from the file (to add lines without replacing any, use insert).',
    );
  }
  if (oldText === newText) return error('No replacement was performed: old_str and new_str are the same.');
  const eol = lineEnding(current);
  const oldStr = withEol(oldText, eol);
  const newStr = withEol(newText, eol);
  const at = occurrences(current, oldStr);
  if (at.length === 0) return error(`No replacement was performed: old_str did not appear verbatim in ${path}.`);
  if (at.length > 1) {
    const lines = at.map((i) => lineOf(current, i));
    const listed =
      lines.slice(0, MAX_LISTED).join(', ') +
      (lines.length > MAX_LISTED ? `, ... (${lines.length - MAX_LISTED} more)` : '');
    return error(
      `No replacement was performed: old_str appears ${at.length} times in ${path}, at lines ${listed}. Include more lines around it so that it matches exactly once.`,
    );
  }
  const index = at[0]!;
  const content = current.slice(0, index) + newStr + current.slice(index + oldStr.length);
  const first = lineOf(current, index);
  const last = first + count(newStr, '\n') - (newStr.endsWith('\n') ? 1 : 0);
  return changed(path, content, first, last, limits);
}

function insert(path: string, current: string, after: number, newText: string, limits: ViewLimits): EditOutcome {
  const lines = fileLines(current);
  const n = lines.length;
  if (after > n) {
    return error(
      `Invalid insert_line ${after}: it must be between 0 and ${n} (the file has ${n} ${plural(n, 'line')}; 0 inserts at the top).`,
    );
  }
  const eol = lineEnding(current);
  let text = withEol(newText, eol);
  if (text.endsWith(eol)) text = text.slice(0, -eol.length);
  const added = text.split(eol);
  // the lines with their terminators; the last one may have none
  const parts = current === '' ? [] : current.split(/(?<=\n)/);
  const finalEol = current === '' || current.endsWith('\n');
  const block = added.map((l) => l + eol).join('');
  let content: string;
  if (after === n && !finalEol) content = `${parts.join('')}${eol}${block.slice(0, -eol.length)}`;
  else content = parts.slice(0, after).join('') + block + parts.slice(after).join('');
  return changed(path, content, after + 1, after + added.length, limits);
}

function changed(path: string, content: string, first: number, last: number, limits: ViewLimits): EditOutcome {
  const observation = [
    `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of ${path}:`,
    snippet(content, first, last, limits, SNIPPET_CONTEXT),
    'Review the changes and make sure they are as expected. Edit the file again if necessary.',
  ].join('\n');
  return { kind: 'changed', content, observation };
}

/** Per-path history of contents before each change, bounded (for undo_edit). */
export class UndoStack {
  private readonly stacks = new Map<string, { seq: number; before: string | null }[]>();
  private seq = 0;
  private chars = 0;

  /** At most `maxPerPath` changes are kept per path, and `maxChars` characters of content over all paths (the oldest go first). */
  constructor(
    private readonly maxPerPath = 10,
    private readonly maxChars = 32 * 1024 * 1024,
  ) {}

  /** Remember a path's content (null: it did not exist) before a change is written. */
  push(path: string, before: string | null): void {
    const stack = this.stacks.get(path) ?? [];
    stack.push({ seq: this.seq++, before });
    this.stacks.set(path, stack);
    this.chars += before?.length ?? 0;
    if (stack.length > this.maxPerPath) this.drop(stack);
    while (this.chars > this.maxChars) {
      const oldest = [...this.stacks.values()].filter((s) => s.length > 0).sort((a, b) => a[0]!.seq - b[0]!.seq)[0];
      if (oldest === undefined) break;
      this.drop(oldest);
    }
  }

  /** The content before the path's last change (null: the change made the file), or undefined when there is none to undo. */
  pop(path: string): string | null | undefined {
    const entry = this.stacks.get(path)?.pop();
    if (entry === undefined) return undefined;
    this.chars -= entry.before?.length ?? 0;
    return entry.before;
  }

  private drop(stack: { seq: number; before: string | null }[]): void {
    const gone = stack.shift();
    this.chars -= gone?.before?.length ?? 0;
  }
}

/** What undo_edit does: the content to restore (null: remove the file the undone change made), or the error. */
export type UndoOutcome =
  { kind: 'restored'; content: string | null; observation: string } | { kind: 'error'; observation: string };

/** undo_edit for a path: pops its history; the caller writes (or removes) the file. */
export function undoEdit(stack: UndoStack, path: string): UndoOutcome {
  const before = stack.pop(path);
  if (before === undefined)
    return { kind: 'error', observation: `No edit history found for ${path}: there is nothing to undo.` };
  const observation =
    before === null
      ? `Last edit to ${path} undone successfully: the file did not exist before it and has been removed.`
      : `Last edit to ${path} undone successfully.`;
  return { kind: 'restored', content: before, observation };
}

function error(observation: string): EditOutcome {
  return { kind: 'error', observation };
}

// LF written text for a CRLF file gets CRLF (text that holds a CR is taken as written).
function withEol(text: string, eol: '\n' | '\r\n'): string {
  return eol === '\r\n' && !text.includes('\r') ? text.replace(/\n/g, '\r\n') : text;
}

// Every index where `needle` starts, overlapping matches included (both make old_str ambiguous).
function occurrences(hay: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) at.push(i);
  return at;
}

function lineOf(text: string, index: number): number {
  return count(text.slice(0, index), '\n') + 1;
}

function count(s: string, ch: string): number {
  return s.split(ch).length - 1;
}

function definedOnly(o: EditOptions): Partial<ViewLimits> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
