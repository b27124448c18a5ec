// The parameter names each tool takes, as the text protocols need them: a value written in the
// text ends only where the protocol can end it, and that is at the next parameter of the same tool
// or at the call's close. The names come from the tools' schemas (tool-specs.ts) and the aliases
// to-action.ts accepts (`cmd`, `file_path`, `content`).
import { AGENT_TOOLS } from './tool-specs.js';
import { toolNamed } from './to-action.js';

const ALIASES: Readonly<Record<string, readonly string[]>> = {
  bash: ['cmd'],
  edit: ['file_path', 'content'],
};

const BY_TOOL: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  AGENT_TOOLS.map((t) => {
    const props = Object.keys(t.parameters['properties'] ?? {});
    return [t.name, new Set([...props, ...(ALIASES[t.name] ?? [])])] as const;
  }),
);

/**
 * The parameters the tool a call names takes (an editor command called as a tool takes the
 * editor's), or null when the name is no tool of ours (any parameter name is then read).
 */
export function toolParams(name: string): ReadonlySet<string> | null {
  const tool = toolNamed(name);
  if (tool === null) return null;
  return BY_TOOL.get(tool) ?? BY_TOOL.get('edit') ?? null;
}

const EDIT_COMMAND = /^\s*(?:view|create|str_replace|insert|undo_edit)\s*$/i;
const ONE_LINE = /^\n?[^\n]*\n?$/;
const LINE_NUMBER = /^\s*\d+\s*$/;
const LINE_RANGE = /^\s*\[?\s*-?\d+\s*(?:,|-|\s)\s*-?\d+\s*\]?\s*$/;

/**
 * Whether `value` (as written between the tags) can be the value of parameter `key` of the tool
 * `name` by its type: the editor's command is one of its commands, a path is one line, a line
 * number a number, a range two; text (a command, a file, old and new text) can be anything.
 */
export function valueFits(name: string, key: string, value: string): boolean {
  const tool = toolNamed(name);
  if (tool === null || tool === 'bash' || tool === 'submit') return true;
  switch (key) {
    case 'command':
      return tool === 'edit' ? EDIT_COMMAND.test(value) : true;
    case 'path':
    case 'file_path':
      return ONE_LINE.test(value) && value.trim() !== '';
    case 'insert_line':
      return LINE_NUMBER.test(value);
    case 'view_range':
      return LINE_RANGE.test(value) || value.trim() === '';
    default:
      return true;
  }
}
