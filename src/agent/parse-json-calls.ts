// Tool calls written as JSON in an answer's text: Hermes/Qwen2.5's `<tool_call>{...}</tool_call>`,
// Mistral/Devstral's `[TOOL_CALLS]` (a JSON list, `name[ARGS]{...}`, `name[CALL_ID]id[ARGS]{...}`,
// and `name{...}` when the server stripped the [ARGS] token), a ```json block, and a bare object
// or list anywhere in the text (Llama 3's calls, after prose too). Several calls on one line,
// separated by `;`, are read together: all of them or, when one cannot be read, none. An object
// is a call when it names a tool (`name`, `tool`, `tool_name`, `function`) and, without a tag or
// token before it, carries arguments (`arguments`, `parameters`, `args`, `input`): JSON that only
// shows data is left alone. A JSON value is read to its real end, strings and all, so a
// `</tool_call>` inside a string never ends the call.
import { findFencedBlocks, type FencedBlock } from '../patch/fences.js';
import { argsOf, callsIn, jsonAt } from './json-call-values.js';
import { nextMatch, type FormatReader, type TextCall, type TextRead } from './text-call.js';

const HERMES = /<(tool_call|function_call)>\s*(?=[{[])/g;
const MISTRAL = /\[TOOL_CALLS\]/g;
const MISTRAL_NAME = /([\w.-]+)(?:\[CALL_ID\][\w-]*)?(?:\[ARGS\])?(?=\s*[{"])/y;
const BARE = /(?=(?:\[\s*)?\{\s*"(?:name|tool|tool_name|function|type|recipient_name)"\s*:)/g;
const CALL_START = /^\s*(?:\[\s*)?\{\s*"(?:name|tool|tool_name|function|type|recipient_name)"/;
const FENCE_LANGS = new Set(['json', 'tool_call', 'tool_code', '']);

/** Hermes / Qwen2.5: `<tool_call>{"name": ..., "arguments": ...}</tool_call>` (also `<function_call>`). */
export const HERMES_READER: FormatReader = {
  format: 'hermes',
  next: (text, from) => nextMatch(HERMES, text, from),
  read(text, at) {
    HERMES.lastIndex = at;
    const m = HERMES.exec(text)!;
    const v = jsonAt(text, at + m[0].length);
    if (v.unclosed) {
      // JSON that never closes: broken when the tag closes after it, else the answer was cut
      const closed = text.indexOf(`</${m[1]}>`, at);
      if (closed < 0) return { calls: [], end: text.length, unclosed: true };
      const end = closed + m[1]!.length + 3;
      return { calls: callsIn(undefined, at, end, true, text.slice(at + m[0].length, closed)), end, unclosed: false };
    }
    const close = new RegExp(`\\s*</${m[1]}>`, 'y');
    close.lastIndex = v.end;
    const end = close.test(text) ? close.lastIndex : v.end;
    return { calls: callsIn(v.value, at, end, true, v.raw), end, unclosed: false };
  },
};

/** Mistral / Devstral: `[TOOL_CALLS]` then a JSON list or object, or a tool name and its JSON arguments. */
export const MISTRAL_READER: FormatReader = {
  format: 'mistral',
  next: (text, from) => nextMatch(MISTRAL, text, from),
  read(text, at) {
    let p = at + '[TOOL_CALLS]'.length;
    while (p < text.length && /\s/.test(text[p]!)) p++;
    if (text[p] === '[' || text[p] === '{') {
      const v = jsonAt(text, p);
      if (v.unclosed) return { calls: [], end: text.length, unclosed: true };
      return { calls: callsIn(v.value, at, v.end, true, v.raw), end: v.end, unclosed: false };
    }
    MISTRAL_NAME.lastIndex = p;
    const m = MISTRAL_NAME.exec(text);
    if (m === null) {
      const end = Math.min(text.length, p + 40);
      const problem = 'the call after [TOOL_CALLS] has no tool name and JSON arguments';
      return { calls: [{ name: '', args: {}, problem, start: at, end }], end, unclosed: p >= text.length };
    }
    const v = jsonAt(text, p + m[0].length);
    if (v.unclosed) return { calls: [], end: text.length, unclosed: true };
    const name = m[1]!;
    const args =
      v.value === undefined
        ? { args: {}, problem: `the arguments of ${name} are not valid JSON` }
        : argsOf(name, v.value);
    return { calls: [{ name, ...args, start: at, end: v.end }], end: v.end, unclosed: false };
  },
};

/** A ```json (or ```tool_call, or bare ```) block holding a call or a list of calls. */
export const FENCED_JSON_READER: FormatReader = {
  format: 'json',
  next(text, from) {
    for (const b of fencedCalls(text)) if (b.at >= from) return b.at;
    return -1;
  },
  read(text, at) {
    const b = fencedCalls(text).find((x) => x.at === at);
    if (b === undefined) return null;
    const v = jsonAt(b.block.content, 0);
    if (v.unclosed) return b.block.unclosed ? { calls: [], end: text.length, unclosed: true } : null;
    const calls = callsIn(v.value, at, b.end, false, v.raw);
    return calls.length === 0 ? null : { calls, end: b.end, unclosed: false };
  },
};

/** A bare call object or list in the text, with more after it on the line when `;` separates them. */
export const BARE_JSON_READER: FormatReader = {
  format: 'json',
  next: (text, from) => nextMatch(BARE, text, from),
  read: (text, at) => readChain(text, at, false),
};

/**
 * Calls from `at` on: a JSON value, then more separated by `;` (one line of calls, read all or
 * none). `tagged`: a token said these are calls.
 */
export function readChain(text: string, at: number, tagged: boolean): TextRead | null {
  const first = jsonAt(text, at);
  if (first.unclosed)
    return CALL_START.test(first.raw) || tagged ? { calls: [], end: text.length, unclosed: true } : null;
  const calls: TextCall[] = callsIn(first.value, at, first.end, tagged, first.raw);
  if (calls.length === 0) return null;
  let end = first.end;
  // `; {` on the line: more calls, each of which must be one
  for (const sep = /[ \t]*;\s*(?=[{[])/y; ;) {
    sep.lastIndex = end;
    if (!sep.test(text)) break;
    const from = sep.lastIndex;
    const next = jsonAt(text, from);
    if (next.unclosed) return { calls, end: text.length, unclosed: true };
    const more = callsIn(next.value, from, next.end, true, next.raw);
    calls.push(...more);
    end = next.end;
  }
  return {
    calls: calls.map((c) => ({ ...c, start: Math.min(c.start, at), end: Math.max(c.end, end) })),
    end,
    unclosed: false,
  };
}

// The fenced blocks that hold a call, by the offset of their opening fence (one answer cached).
let cache: { text: string; blocks: { at: number; end: number; block: FencedBlock }[] } | null = null;
function fencedCalls(text: string): { at: number; end: number; block: FencedBlock }[] {
  if (cache?.text === text) return cache.blocks;
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const blocks = findFencedBlocks(text)
    .filter((b) => FENCE_LANGS.has(b.lang) && CALL_START.test(b.content))
    .map((block) => ({ at: starts[block.start] ?? text.length, end: starts[block.end] ?? text.length, block }));
  cache = { text, blocks };
  return blocks;
}
