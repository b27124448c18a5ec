// A call's tool name and arguments (from any shape) checked and normalised into an AgentAction, or
// the problem with it in words the model can act on.
import type { ExampleKey } from './examples.js';
import type { AgentAction, AgentToolName, EditCommand } from './types.js';

/** The editor's commands. */
export const EDIT_COMMANDS: readonly EditCommand[] = ['view', 'create', 'str_replace', 'insert', 'undo_edit'];

// Names models use for the three tools (lower-case, after `functions.` and the like are taken off).
const ALIASES: Readonly<Record<string, AgentToolName>> = {
  bash: 'bash',
  execute_bash: 'bash',
  shell: 'bash',
  run: 'bash',
  sh: 'bash',
  terminal: 'bash',
  run_command: 'bash',
  edit: 'edit',
  str_replace_editor: 'edit',
  str_replace_based_edit_tool: 'edit',
  editor: 'edit',
  file_editor: 'edit',
  text_editor: 'edit',
  submit: 'submit',
  finish: 'submit',
  done: 'submit',
};

/** A call checked: the action, or what is wrong and which example shows the right shape. */
export type ActionResult = { ok: true; action: AgentAction } | { ok: false; problem: string; example: ExampleKey };

/** The tool a name means: aliases, any case, a `functions.`/`tools.` prefix and a leaked `<|...|>` tail allowed. */
export function toolNamed(name: string): AgentToolName | EditCommand | null {
  const n = name
    .replace(/<\|[\s\S]*$/, '')
    .trim()
    .replace(/^["'`]|["'`]$/g, '')
    .replace(/^(functions|function|tools|tool)[.:]/i, '')
    .toLowerCase();
  // an editor command called as a tool of its own (`str_replace` with path, old_str, new_str)
  if ((EDIT_COMMANDS as readonly string[]).includes(n)) return n as EditCommand;
  return ALIASES[n] ?? null;
}

/** The action a call names, from its arguments (strings where the text protocol sent text). */
export function toAction(name: string, args: Readonly<Record<string, unknown>>): ActionResult {
  const tool = toolNamed(name);
  if (tool === null) {
    const shown = name.trim() === '' ? 'a call without a tool name' : `there is no tool named ${quote(name)}`;
    return { ok: false, problem: `${shown}: the tools are bash, edit and submit`, example: 'bash' };
  }
  if (tool === 'submit') return { ok: true, action: { tool: 'submit' } };
  if (tool === 'bash') return bashAction(args);
  if (tool === 'edit') return editAction(args['command'], args);
  return editAction(args['command'] ?? tool, args);
}

function bashAction(args: Readonly<Record<string, unknown>>): ActionResult {
  const raw = args['command'] ?? args['cmd'];
  const command = Array.isArray(raw) ? fromArgv(raw) : typeof raw === 'string' ? raw.trim() : null;
  if (command === null || command === '') {
    const got = raw === undefined ? '' : ` (got ${describe(raw)})`;
    return { ok: false, problem: `bash needs "command": one shell command as a string${got}`, example: 'bash' };
  }
  return { ok: true, action: { tool: 'bash', command } };
}

// A command given as an argv array (the shape some models learned): `["bash", "-lc", "ls"]` is its script.
function fromArgv(argv: unknown[]): string | null {
  if (argv.length === 0 || !argv.every((a): a is string => typeof a === 'string')) return null;
  if (argv.length === 3 && /^(ba|z)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!)) return argv[2]!.trim();
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function editAction(command: unknown, args: Readonly<Record<string, unknown>>): ActionResult {
  const fail = (problem: string, example: ExampleKey): ActionResult => ({ ok: false, problem, example });
  const cmd = typeof command === 'string' ? command.trim().toLowerCase() : null;
  if (cmd === null || !(EDIT_COMMANDS as readonly string[]).includes(cmd)) {
    const got = command === undefined ? '' : ` (got ${describe(command)})`;
    return fail(`edit needs "command", one of ${EDIT_COMMANDS.join(', ')}${got}`, 'str_replace');
  }
  const c = cmd as EditCommand;
  const rawPath = args['path'] ?? args['file_path'];
  if (typeof rawPath !== 'string' || rawPath.trim() === '') {
    return fail(`edit ${c} needs "path": the file, relative to the repository root`, c);
  }
  const path = rawPath.trim();
  const text = (key: string): string | null | undefined => {
    const v = args[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string') return v;
    return typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;
  };
  switch (c) {
    case 'view': {
      const range = args['view_range'];
      if (range === undefined || range === null || range === '')
        return { ok: true, action: { tool: 'edit', command: c, path } };
      const viewRange = lineRange(range);
      if (viewRange === null) {
        return fail(
          `"view_range" must be two line numbers [start, end] (end -1 for the end of the file), got ${describe(range)}`,
          'view',
        );
      }
      return { ok: true, action: { tool: 'edit', command: c, path, viewRange } };
    }
    case 'create': {
      const fileText = text('file_text') ?? text('content');
      if (typeof fileText !== 'string') {
        return fail(`edit create needs "file_text": the whole content of the new file, as text`, 'create');
      }
      return { ok: true, action: { tool: 'edit', command: c, path, fileText } };
    }
    case 'str_replace': {
      const oldStr = text('old_str');
      const newStr = text('new_str');
      if (typeof oldStr !== 'string') {
        return fail(`edit str_replace needs "old_str": the exact text to replace, as it is in the file`, 'str_replace');
      }
      if (newStr === null) return fail(`"new_str" must be text (the replacement)`, 'str_replace');
      return { ok: true, action: { tool: 'edit', command: c, path, oldStr, newStr: newStr ?? '' } };
    }
    case 'insert': {
      const insertLine = lineNumber(args['insert_line']);
      if (insertLine === null) {
        const got = args['insert_line'] === undefined ? '' : `, got ${describe(args['insert_line'])}`;
        return fail(`edit insert needs "insert_line": the line to insert after (0 for the top)${got}`, 'insert');
      }
      const newStr = text('new_str');
      if (typeof newStr !== 'string') return fail(`edit insert needs "new_str": the text to insert`, 'insert');
      return { ok: true, action: { tool: 'edit', command: c, path, insertLine, newStr } };
    }
    case 'undo_edit':
      return { ok: true, action: { tool: 'edit', command: c, path } };
  }
}

// A whole number >= 0 given as a number or as text ("12").
function lineNumber(v: unknown): number | null {
  const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

// [start, end] given as an array of numbers or strings, or as text: "[1, 40]", "1,40", "1-40", "1 40".
function lineRange(v: unknown): [number, number] | null {
  let pair: unknown[] | null = Array.isArray(v) ? v : null;
  if (typeof v === 'string') {
    const m = /^\s*\[?\s*(-?\d+)\s*(?:,|-|\s)\s*(-?\d+)\s*\]?\s*$/.exec(v);
    pair = m === null ? null : [m[1], m[2]];
  }
  if (pair?.length !== 2) return null;
  const nums = pair.map((x) => (typeof x === 'string' && /^\s*-?\d+\s*$/.test(x) ? Number(x) : x));
  const [a, b] = nums;
  return Number.isSafeInteger(a) && Number.isSafeInteger(b) ? [a as number, b as number] : null;
}

// A value the model sent, shown short in a reason.
function describe(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function quote(name: string): string {
  return describe(name.trim());
}

/** A tool name as a reason shows it: at most 40 characters, one line. */
export function shortName(name: string): string {
  const one = name.replace(/\s+/g, ' ').trim();
  if (one === '') return 'the call';
  return one.length > 40 ? `${one.slice(0, 37)}...` : one;
}
