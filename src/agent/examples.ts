// One example call per tool and editor command, rendered in the shape the model used: the system
// prompt's text protocol and the reasons a malformed call gets are written from these.
import type { AgentToolName, CallFormat, EditCommand } from './types.js';

/** What an example illustrates: a tool, or the editor with one of its commands. */
export type ExampleKey = Exclude<AgentToolName, 'edit'> | EditCommand;

/** The example calls: a tool name and its arguments in the schema's order. */
export const EXAMPLES: Readonly<Record<ExampleKey, { tool: AgentToolName; args: Record<string, string | number[]> }>> =
  {
    bash: { tool: 'bash', args: { command: 'grep -rn "def parse" src/' } },
    view: { tool: 'edit', args: { command: 'view', path: 'src/app.py', view_range: [1, 40] } },
    create: { tool: 'edit', args: { command: 'create', path: 'src/util.py', file_text: 'VERSION = "1.0"\n' } },
    str_replace: {
      tool: 'edit',
      args: { command: 'str_replace', path: 'src/app.py', old_str: '    return a - b', new_str: '    return a + b' },
    },
    insert: { tool: 'edit', args: { command: 'insert', path: 'src/app.py', insert_line: '12', new_str: 'import os' } },
    undo_edit: { tool: 'edit', args: { command: 'undo_edit', path: 'src/app.py' } },
    submit: { tool: 'submit', args: {} },
  };

// Parameters that hold file text: shown on lines of their own, as qwen3-coder writes them.
const BLOCK_KEYS = new Set(['file_text', 'old_str', 'new_str']);

/**
 * The example call in the text protocol (qwen3-coder's XML): multi-line, one parameter a line, or
 * on one line for a reason sent back to the model.
 */
export function xmlExample(key: ExampleKey, opts: { oneLine?: boolean; wrap?: boolean } = {}): string {
  const { tool, args } = EXAMPLES[key];
  const nl = opts.oneLine === true ? '' : '\n';
  const params = Object.entries(args).map(([k, v]) => {
    const value = Array.isArray(v) ? `[${v.join(', ')}]` : v.replace(/\n$/, '');
    const multi = opts.oneLine !== true && (value.includes('\n') || BLOCK_KEYS.has(k));
    return multi ? `<parameter=${k}>\n${value}\n</parameter>` : `<parameter=${k}>${value}</parameter>`;
  });
  const call = [`<function=${tool}>`, ...params, '</function>'].join(nl);
  return opts.wrap === true ? ['<tool_call>', call, '</tool_call>'].join(nl) : call;
}

/** The example call's arguments as JSON (insert_line a number), for native and JSON-shaped calls. */
export function jsonArgsExample(key: ExampleKey): string {
  const { args } = EXAMPLES[key];
  const typed = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, k === 'insert_line' ? Number(v) : v]));
  return JSON.stringify(typed);
}

/** The example call written in a text format, on one line (Functionary's line break is said in words). */
export function callExample(key: ExampleKey, format: Exclude<CallFormat, 'native'>): string {
  const { tool } = EXAMPLES[key];
  const args = jsonArgsExample(key);
  switch (format) {
    case 'qwen-xml':
    case 'fenced':
      return xmlExample(key, { oneLine: true });
    case 'json':
      return `{"name": "${tool}", "arguments": ${args}}`;
    case 'hermes':
      return `<tool_call>{"name": "${tool}", "arguments": ${args}}</tool_call>`;
    case 'llama':
      return `<|python_tag|>{"name": "${tool}", "parameters": ${args}}`;
    case 'mistral':
      return `[TOOL_CALLS]${tool}[ARGS]${args}`;
    case 'harmony':
      return `<|channel|>commentary to=functions.${tool} <|constrain|>json<|message|>${args}<|call|>`;
    case 'deepseek':
      return `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>${tool}<｜tool▁sep｜>${args}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`;
    case 'functionary':
      return `>>>${tool}, a line break, then ${args}`;
    case 'granite':
      return `<|tool_call|>[{"name": "${tool}", "arguments": ${args}}]`;
    case 'firefunction':
      return ` functools[{"name": "${tool}", "arguments": ${args}}]`;
    case 'command-r':
      return `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "${tool}", "parameters": ${args}}]<|END_ACTION|>`;
  }
}

/** One line showing the right shape for a call made in `format` (the end of every malformed call's reason). */
export function shapeHint(key: ExampleKey, format: CallFormat): string {
  if (format === 'native') return `Call ${EXAMPLES[key].tool} with arguments like ${jsonArgsExample(key)}`;
  return `Write the call as ${callExample(key, format)}`;
}
