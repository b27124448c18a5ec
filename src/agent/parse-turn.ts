// One model answer read as tool calls, whatever shape they came in: the server's native calls when
// it sent any, else the text protocols, tried in this order and never mixed:
//   1. qwen3-coder's XML (`<function=...>`, src/agent/parse-xml.ts), with or without `<tool_call>`;
//   2. JSON calls in the text (`<tool_call>{...}`, `[TOOL_CALLS]`, ```json, a bare call object);
//   3. exactly one fenced ```bash / ```sh / ```shell block (mini-swe-agent's shape), counted only
//      when no other shape is present; two or more such blocks are malformed (one command a turn).
// Thinking (`<think>...</think>`, or everything before a lone `</think>`) is never read for calls.
import { MAX_TOOL_ARGUMENT_CHARS } from '../llm/tool-calls.js';
import { findFencedBlocks } from '../patch/fences.js';
import { shapeHint, type ExampleKey } from './examples.js';
import { parseLenientJson } from './lenient-json.js';
import { parseJsonCalls } from './parse-json-calls.js';
import { hasXmlCall, parseXmlCalls } from './parse-xml.js';
import { shortName, toAction, toolNamed, type ActionResult } from './to-action.js';
import type { CallShape, ParsedTurn, ToolCall, TurnAction } from './types.js';

/** The most calls one answer may make. */
export const MAX_CALLS_PER_TURN = 16;

/** Fence languages read as one shell command. */
const SHELL_FENCES = new Set(['bash', 'sh', 'shell']);

/** mini-swe-agent's way to finish: this command in the bash block is a submit. */
const SUBMIT_COMMAND = /^echo\s+['"]?COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT['"]?\s*$/;

/** How an answer is read. */
export interface ParseOptions {
  /**
   * Take one fenced shell block as a command (default true). A conversation with a person turns it
   * off: an answer there shows commands to the reader, it does not ask to run them.
   */
  fenced?: boolean;
}

/** Parse one answer: native calls first (when the server sent them), else the text protocols. */
export function parseTurn(
  answer: { text: string; toolCalls?: readonly ToolCall[] },
  opts: ParseOptions = {},
): ParsedTurn {
  const visible = stripThinking(answer.text.replace(/\r\n?/g, '\n'));
  const native = answer.toolCalls ?? [];
  if (native.length > 0) return nativeTurn(native, visible.trim());
  return textTurn(visible, opts.fenced ?? true);
}

/** The answer without its thinking: `<think>`/`<thinking>` blocks, and all before a `</think>` that no tag opened. */
export function stripThinking(text: string): string {
  const close = /<\/think(?:ing)?>/i.exec(text);
  const open = /<think(?:ing)?>/i.exec(text);
  const rest =
    close !== null && (open === null || open.index > close.index) ? text.slice(close.index + close[0].length) : text;
  return rest.replace(/<(think|thinking)>[\s\S]*?(?:<\/\1>|$)/gi, '');
}

function nativeTurn(calls: readonly ToolCall[], thought: string): ParsedTurn {
  if (calls.length > MAX_CALLS_PER_TURN) return tooMany(calls.length, thought, calls[0]!.id);
  const actions: TurnAction[] = [];
  for (const [i, call] of calls.entries()) {
    const r = nativeAction(call);
    if (!r.ok) return malformed(r, 'native', thought, { index: i, count: calls.length }, call.id);
    actions.push({ action: r.action, shape: 'native', callId: call.id });
  }
  return { kind: 'actions', thought, actions };
}

function nativeAction(call: ToolCall): ActionResult {
  const name = shortName(call.name);
  if (call.arguments.length >= MAX_TOOL_ARGUMENT_CHARS) {
    return {
      ok: false,
      problem: `the arguments of ${name} were longer than ${MAX_TOOL_ARGUMENT_CHARS / 1024} KiB and were cut: write a large file in parts (create it with the first part, then insert the rest)`,
      example: 'insert',
    };
  }
  const args = call.arguments.trim() === '' ? {} : parseLenientJson(call.arguments);
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    const what = args === undefined ? 'not valid JSON' : 'not a JSON object';
    return { ok: false, problem: `the arguments of ${name} are ${what}`, example: exampleFor(call.name) };
  }
  return toAction(call.name, args as Record<string, unknown>);
}

function textTurn(text: string, fenced: boolean): ParsedTurn {
  if (hasXmlCall(text)) {
    const calls = parseXmlCalls(text);
    const thought = outside(text, calls);
    return calledTurn(
      calls.map((c) =>
        c.problem === null ? toAction(c.name, c.args) : bad(`${shortName(c.name)}: ${c.problem}`, c.name),
      ),
      'qwen-xml',
      thought,
    );
  }
  const json = parseJsonCalls(text);
  if (json.length > 0) {
    const thought = outside(text, json);
    return calledTurn(
      json.map((c) => (c.problem === null ? toAction(c.name, c.args) : bad(c.problem, c.name))),
      'json',
      thought,
    );
  }
  if (/<tool_call>|\[TOOL_CALLS\]|<function\b|<invoke\b/.test(text)) {
    const r = bad('a tool call was started but its name and parameters could not be read', 'bash');
    return malformed(r, 'qwen-xml', outside(text, []), null, null);
  }
  return fenced ? fencedTurn(text) : { kind: 'none', thought: text.trim() };
}

function fencedTurn(text: string): ParsedTurn {
  const blocks = findFencedBlocks(text).filter((b) => SHELL_FENCES.has(b.lang));
  const lines = text.split('\n');
  const thought =
    blocks.length === 1
      ? [...lines.slice(0, blocks[0]!.start), ...lines.slice(blocks[0]!.end)].join('\n').trim()
      : text.trim();
  if (blocks.length === 0) return { kind: 'none', thought };
  const xml = shapeHint('bash', 'fenced');
  if (blocks.length > 1) {
    return {
      kind: 'malformed',
      thought,
      reason: `The answer holds ${blocks.length} \`\`\`bash blocks; nothing was run. Send exactly one command a turn: one \`\`\`bash block, or a tool call. ${xml}`,
    };
  }
  const block = blocks[0]!;
  const command = block.content.trim();
  if (block.unclosed || command === '') {
    const what = block.unclosed ? 'has no closing ``` (the answer may have been cut off)' : 'is empty';
    return { kind: 'malformed', thought, reason: `The \`\`\`bash block ${what}; nothing was run. ${xml}` };
  }
  const action = SUBMIT_COMMAND.test(command) ? ({ tool: 'submit' } as const) : ({ tool: 'bash', command } as const);
  return { kind: 'actions', thought, actions: [{ action, shape: 'fenced' }] };
}

function calledTurn(results: ActionResult[], shape: CallShape, thought: string): ParsedTurn {
  if (results.length > MAX_CALLS_PER_TURN) return tooMany(results.length, thought, undefined);
  const actions: TurnAction[] = [];
  for (const [i, r] of results.entries()) {
    if (!r.ok) return malformed(r, shape, thought, { index: i, count: results.length }, null);
    actions.push({ action: r.action, shape });
  }
  return { kind: 'actions', thought, actions };
}

function malformed(
  r: Extract<ActionResult, { ok: false }>,
  shape: CallShape,
  thought: string,
  where: { index: number; count: number } | null,
  callId: string | null,
): ParsedTurn {
  const which = where === null || where.count === 1 ? '' : `Call ${where.index + 1} of ${where.count}: `;
  const ran = where !== null && where.count > 1 ? 'none of the calls in this answer were run' : 'nothing was run';
  const reason = `${which}${r.problem}; ${ran}. ${shapeHint(r.example, shape)}`;
  return callId === null ? { kind: 'malformed', thought, reason } : { kind: 'malformed', thought, reason, callId };
}

function tooMany(n: number, thought: string, callId: string | undefined): ParsedTurn {
  const reason = `The answer makes ${n} tool calls; at most ${MAX_CALLS_PER_TURN} are taken from one answer, and nothing was run. Make fewer calls at a time.`;
  return callId === undefined ? { kind: 'malformed', thought, reason } : { kind: 'malformed', thought, reason, callId };
}

function bad(problem: string, name: string): Extract<ActionResult, { ok: false }> {
  return { ok: false, problem, example: exampleFor(name) };
}

// The example to show for a tool the model named (the editor's str_replace when unknown).
function exampleFor(name: string): ExampleKey {
  const tool = toolNamed(name);
  if (tool === null) return 'bash';
  return tool === 'edit' ? 'str_replace' : tool;
}

// The text outside the calls' spans, without the `<tool_call>` wrappers: what the model said.
function outside(text: string, spans: readonly { start: number; end: number }[]): string {
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, Math.max(at, s.start));
    at = Math.max(at, s.end);
  }
  out += text.slice(at);
  return out
    .replace(/<\/?(tool_call|function_calls)>/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
