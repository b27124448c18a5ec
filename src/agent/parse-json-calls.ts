// Tool calls written as JSON in an answer's text: Hermes/Qwen2.5's `<tool_call>{...}</tool_call>`,
// Mistral/Devstral's `[TOOL_CALLS]` (a JSON list, or `name[ARGS]{...}`), a ```json block, and a bare
// object on its own line (Llama's leaked calls, `<|python_tag|>` allowed before it). An object is a
// call when it names a tool (`name`, `tool`, `tool_name`, `function`) and, outside `<tool_call>`
// tags, carries arguments (`arguments`, `parameters`, `args`, `input`): JSON that only shows data
// is left alone.
import { findFencedBlocks } from '../patch/fences.js';
import { parseLenientJson, valueEnd } from './lenient-json.js';
import { shortName } from './to-action.js';

/** One call found: its name and arguments, or what is wrong with it; where it is in the text. */
export interface JsonCall {
  name: string;
  args: Record<string, unknown>;
  problem: string | null;
  start: number;
  end: number;
}

const NAME_KEYS = ['name', 'tool', 'tool_name', 'function', 'recipient_name'];
const ARGS_KEYS = ['arguments', 'parameters', 'args', 'input', 'tool_input'];
const TAGGED = /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g;
const BARE_CALL =
  /^[ \t]*(?:<\|python_tag\|>)?[ \t]*(?=\{\s*"(?:name|tool|tool_name|function|type|recipient_name)"\s*:)/gm;

/** The JSON-shaped calls in `text` (thinking already removed), in order. */
export function parseJsonCalls(text: string): JsonCall[] {
  const found: JsonCall[] = [];
  const taken: [number, number][] = [];
  const free = (a: number, b: number): boolean => taken.every(([s, e]) => b <= s || a >= e);
  const add = (calls: JsonCall[], start: number, end: number): void => {
    found.push(...calls);
    taken.push([start, end]);
  };
  for (const m of text.matchAll(TAGGED)) {
    const body = m[1]!.trim();
    if (!/^[{[]/.test(body)) continue;
    const end = m.index + m[0].length;
    add(callsIn(parseLenientJson(body), m.index, end, true, body), m.index, end);
  }
  for (const m of text.matchAll(/\[TOOL_CALLS\]/g)) {
    if (!free(m.index, m.index + 1)) continue;
    const r = mistralCalls(text, m.index + m[0].length);
    add(callsIn(r.value, m.index, r.end, true, r.raw), m.index, r.end);
  }
  const lineStarts = lineOffsets(text);
  for (const b of findFencedBlocks(text)) {
    const start = lineStarts[b.start] ?? text.length;
    const end = lineStarts[b.end] ?? text.length;
    if (!free(start, end) || !['json', 'tool_call', 'tool_code', ''].includes(b.lang)) continue;
    if (!/^\s*[{[]/.test(b.content)) continue;
    const calls = callsIn(parseLenientJson(b.content), start, end, false, b.content);
    if (calls.length > 0) add(calls, start, end);
  }
  // a bare object is looked at only when it opens with a key that names a call (so the scan stays linear)
  for (const m of text.matchAll(BARE_CALL)) {
    const start = m.index + m[0].length;
    const len = valueEnd(text.slice(start));
    const end = len === null ? text.length : start + len;
    if (!free(m.index, end)) continue;
    const calls = callsIn(parseLenientJson(text.slice(start, end)), m.index, end, false, '');
    if (calls.length > 0) add(calls, m.index, end);
  }
  return found.sort((a, b) => a.start - b.start);
}

// `[TOOL_CALLS]` then a JSON list or object, or `name[ARGS]{...}` / `name[CALL_ID]id[ARGS]{...}`.
function mistralCalls(text: string, from: number): { value: unknown; end: number; raw: string } {
  const rest = text.slice(from);
  const lead = rest.length - rest.trimStart().length;
  const body = rest.trimStart();
  if (/^[{[]/.test(body)) {
    const len = valueEnd(body);
    const raw = len === null ? body : body.slice(0, len);
    return { value: parseLenientJson(raw), end: from + lead + raw.length, raw };
  }
  const m = /^([\w.-]+)(?:\[CALL_ID\]\w*)?\[ARGS\]/.exec(body);
  if (m === null) return { value: undefined, end: from, raw: body.slice(0, 40) };
  const argsText = body.slice(m[0].length);
  const len = valueEnd(argsText.trimStart());
  const skip = argsText.length - argsText.trimStart().length;
  const raw = len === null ? argsText : argsText.slice(0, skip + len);
  const args = parseLenientJson(raw);
  return { value: { name: m[1], arguments: args ?? raw }, end: from + lead + m[0].length + raw.length, raw };
}

// The calls a parsed value holds: an object, or a list of objects. `tagged`: the text said it is a
// call, so an object that is no call is a problem to report (not data to skip).
function callsIn(value: unknown, start: number, end: number, tagged: boolean, raw: string): JsonCall[] {
  const bad = (problem: string): JsonCall[] => (tagged ? [{ name: '', args: {}, problem, start, end }] : []);
  if (value === undefined) return bad(`the call is not valid JSON: ${short(raw)}`);
  const items = Array.isArray(value) ? value : [value];
  const calls: JsonCall[] = [];
  for (const item of items) {
    const call = callOf(item, tagged);
    if (call === null) return bad('the JSON names no tool: it needs "name" and "arguments"');
    calls.push({ ...call, start, end });
  }
  return calls;
}

function callOf(item: unknown, tagged: boolean): Omit<JsonCall, 'start' | 'end'> | null {
  if (!isObject(item)) return null;
  let o = item;
  // OpenAI's shape: {"type": "function", "function": {"name", "arguments"}}
  if (isObject(o['function'])) o = o['function'];
  const nameKey = NAME_KEYS.find((k) => typeof o[k] === 'string');
  const argsKey = ARGS_KEYS.find((k) => k in o);
  if (nameKey === undefined || (argsKey === undefined && !tagged)) return null;
  const name = o[nameKey] as string;
  let args: unknown = argsKey === undefined ? {} : o[argsKey];
  if (typeof args === 'string') {
    const encoded = args;
    args = encoded.trim() === '' ? {} : parseLenientJson(encoded);
    if (args === undefined)
      return { name, args: {}, problem: `the arguments of ${shortName(name)} are not valid JSON` };
  }
  if (args === null) args = {};
  if (!isObject(args)) return { name, args: {}, problem: `the arguments of ${shortName(name)} are not a JSON object` };
  return { name, args, problem: null };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function lineOffsets(text: string): number[] {
  const offsets = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) offsets.push(i + 1);
  return offsets;
}

function short(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > 80 ? `${one.slice(0, 77)}...` : one;
}
