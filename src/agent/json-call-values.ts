// A JSON value read as tool calls: an object naming a tool with its arguments, or a list of them,
// in the key spellings models use (`name`/`tool`/`tool_name`/`function`, `arguments`/`parameters`/
// `args`/`input`, OpenAI's `{"type": "function", "function": {...}}`, arguments encoded twice).
import { parseLenientJson, valueEnd } from './lenient-json.js';
import type { TextCall } from './text-call.js';
import { shortName } from './to-action.js';

const NAME_KEYS = ['name', 'tool', 'tool_name', 'function', 'recipient_name'];
const ARGS_KEYS = ['arguments', 'parameters', 'args', 'input', 'tool_input'];

/** A JSON value at `at` (after blanks): the value, where it ends, and whether the text ends before it closes. */
export function jsonAt(text: string, at: number): { value: unknown; raw: string; end: number; unclosed: boolean } {
  let p = at;
  while (p < text.length && /\s/.test(text[p]!)) p++;
  const len = valueEnd(text.slice(p));
  if (len === null) {
    const raw = text.slice(p);
    // an object or list that never closes: the text ended inside it
    return { value: undefined, raw, end: text.length, unclosed: /^[{[]/.test(raw) };
  }
  const raw = text.slice(p, p + len);
  return { value: parseLenientJson(raw), raw, end: p + len, unclosed: false };
}

/**
 * The calls a parsed value holds: an object, or a list of objects. `tagged`: the text said it is a
 * call (a token or tag before it), so a value that is no call is a problem to report, not data to skip.
 */
export function callsIn(value: unknown, start: number, end: number, tagged: boolean, raw: string): TextCall[] {
  const bad = (problem: string): TextCall[] => (tagged ? [{ name: '', args: {}, problem, start, end }] : []);
  if (value === undefined) return bad(`the call is not valid JSON: ${short(raw)}`);
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return bad('the list of calls is empty');
  const calls: TextCall[] = [];
  for (const item of items) {
    const call = callOf(item, tagged);
    if (call === null) return bad('the JSON names no tool: it needs "name" and "arguments"');
    calls.push({ ...call, start, end });
  }
  return calls;
}

/** One call's arguments given as a value: an object, a JSON string holding one, or nothing. */
export function argsOf(name: string, value: unknown): Pick<TextCall, 'args' | 'problem'> {
  let args = value;
  if (typeof args === 'string') {
    const encoded = args;
    args = encoded.trim() === '' ? {} : parseLenientJson(encoded);
    if (args === undefined) return { args: {}, problem: `the arguments of ${shortName(name)} are not valid JSON` };
  }
  if (args === null || args === undefined) args = {};
  if (!isObject(args)) return { args: {}, problem: `the arguments of ${shortName(name)} are not a JSON object` };
  return { args, problem: null };
}

function callOf(item: unknown, tagged: boolean): Omit<TextCall, 'start' | 'end'> | null {
  if (!isObject(item)) return null;
  let o = item;
  // OpenAI's shape: {"type": "function", "function": {"name", "arguments"}}
  if (isObject(o['function'])) o = o['function'];
  const nameKey = NAME_KEYS.find((k) => typeof o[k] === 'string');
  const argsKey = ARGS_KEYS.find((k) => k in o);
  if (nameKey === undefined || (argsKey === undefined && !tagged)) return null;
  const name = o[nameKey] as string;
  return { name, ...argsOf(name, argsKey === undefined ? {} : o[argsKey]) };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function short(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > 80 ? `${one.slice(0, 77)}...` : one;
}
