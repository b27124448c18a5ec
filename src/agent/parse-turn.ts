// One model answer read as tool calls, whatever shape they came in: the server's native calls when
// it sent any, else the calls written in the text (scan-calls.ts: qwen3-coder's XML, JSON in
// `<tool_call>` tags, fences or bare, Mistral's [TOOL_CALLS], GPT-OSS harmony, DeepSeek's tokens,
// Llama's <|python_tag|>, Functionary, Granite, Firefunction, Command-R7B), and only when there is
// none of those, exactly one fenced ```bash / ```sh / ```shell block (mini-swe-agent's shape); two
// or more such blocks are malformed (one command a turn). Thinking is never read for calls.
//
// A cut-off answer never runs: when the server says it stopped at the token limit (finish reason
// "length"), or the answer ends inside a call that never closed, none of its calls run, not even
// those that closed before the cut (the cut part may be what they were for), and the model is told
// to send it again, shorter.
import { MAX_TOOL_ARGUMENT_CHARS } from '../llm/tool-calls.js';
import { findFencedBlocks } from '../patch/fences.js';
import { shapeHint, type ExampleKey } from './examples.js';
import { parseLenientJson } from './lenient-json.js';
import { nearestFormat, telltaleFormat } from './near-format.js';
import { scanCalls } from './scan-calls.js';
import { shortName, toAction, toolNamed, type ActionResult } from './to-action.js';
import { shapeOf, type CallFormat, type ParsedTurn, type ToolCall, type TurnAction } from './types.js';

/** The most calls one answer may make. */
export const MAX_CALLS_PER_TURN = 16;

/** The server's reason for stopping that means the token limit. */
const LENGTH = 'length';

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
  answer: { text: string; toolCalls?: readonly ToolCall[]; finishReason?: string },
  opts: ParseOptions = {},
): ParsedTurn {
  const text = answer.text.replace(/\r\n?/g, '\n');
  const native = answer.toolCalls ?? [];
  const byServer = answer.finishReason === LENGTH;
  if (native.length > 0) {
    const thought = scanCalls(text).thought;
    return byServer ? cutTurn('server', 'native', thought, native[0]!.id) : nativeTurn(native, thought);
  }
  return textTurn(text, opts.fenced ?? true, byServer);
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

function textTurn(text: string, fenced: boolean, byServer: boolean): ParsedTurn {
  const scan = scanCalls(text);
  const format = scan.format ?? telltaleFormat(text) ?? 'qwen-xml';
  if (byServer || scan.unclosed) return cutTurn(byServer ? 'server' : 'text', format, scan.thought, null);
  if (scan.calls.length > 0) {
    const results = scan.calls.map((c) =>
      c.problem === null
        ? toAction(c.name, c.args)
        : bad(c.name === '' ? c.problem : `${shortName(c.name)}: ${c.problem}`, c.name),
    );
    return calledTurn(results, format, scan.thought);
  }
  const telltale = telltaleFormat(stripThinking(text));
  if (telltale !== null) {
    const r = bad('a tool call was started but its name and parameters could not be read', 'bash');
    return malformed(r, telltale, scan.thought, null, null);
  }
  if (fenced) return fencedTurn(scan.thought);
  const near = nearestFormat(scan.thought);
  return near === null ? { kind: 'none', thought: scan.thought } : { kind: 'none', thought: scan.thought, near };
}

function fencedTurn(text: string): ParsedTurn {
  const blocks = findFencedBlocks(text).filter((b) => SHELL_FENCES.has(b.lang));
  const lines = text.split('\n');
  const thought =
    blocks.length === 1
      ? [...lines.slice(0, blocks[0]!.start), ...lines.slice(blocks[0]!.end)].join('\n').trim()
      : text.trim();
  if (blocks.length === 0) {
    const near = nearestFormat(text);
    return near === null ? { kind: 'none', thought } : { kind: 'none', thought, near };
  }
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
  if (block.unclosed) {
    const reason = `The \`\`\`bash block has no closing \`\`\` (the answer was cut off); nothing was run. Send it again, shorter. ${xml}`;
    return { kind: 'malformed', thought, reason, cut: 'text' };
  }
  if (command === '')
    return { kind: 'malformed', thought, reason: `The \`\`\`bash block is empty; nothing was run. ${xml}` };
  const action = SUBMIT_COMMAND.test(command) ? ({ tool: 'submit' } as const) : ({ tool: 'bash', command } as const);
  return { kind: 'actions', thought, actions: [{ action, shape: 'fenced' }] };
}

function calledTurn(results: ActionResult[], format: CallFormat, thought: string): ParsedTurn {
  if (results.length > MAX_CALLS_PER_TURN) return tooMany(results.length, thought, undefined);
  const actions: TurnAction[] = [];
  for (const [i, r] of results.entries()) {
    if (!r.ok) return malformed(r, format, thought, { index: i, count: results.length }, null);
    actions.push({ action: r.action, shape: shapeOf(format) });
  }
  return { kind: 'actions', thought, actions };
}

// A cut-off answer: none of its calls run; the model is asked again, shorter.
function cutTurn(by: 'server' | 'text', format: CallFormat, thought: string, callId: string | null): ParsedTurn {
  const what =
    by === 'server'
      ? 'Your answer was cut off at the token limit (finish reason "length")'
      : 'Your answer ends inside a tool call that never closed: it was cut off';
  const reason = `${what}; none of the calls in it were run. Send it again, shorter; a long file in parts: create it with the first part, then insert the rest. ${shapeHint('bash', format)}`;
  return callId === null
    ? { kind: 'malformed', thought, reason, cut: by }
    : { kind: 'malformed', thought, reason, callId, cut: by };
}

function malformed(
  r: Extract<ActionResult, { ok: false }>,
  format: CallFormat,
  thought: string,
  where: { index: number; count: number } | null,
  callId: string | null,
): ParsedTurn {
  const which = where === null || where.count === 1 ? '' : `Call ${where.index + 1} of ${where.count}: `;
  const ran = where !== null && where.count > 1 ? 'none of the calls in this answer were run' : 'nothing was run';
  const reason = `${which}${r.problem}; ${ran}. ${shapeHint(r.example, format)}`;
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
