// qwen3-coder's text protocol: `<function=NAME><parameter=KEY>value</parameter>...</function>`,
// with or without `<tool_call>` around it, also written `<invoke name="..."><parameter name="...">`,
// and Llama's `<function=NAME>{json}</function>`.
//
// A parameter's value is raw text: everything up to the next `</parameter>` (so `a < b`, HTML and
// `</div>` inside a file are kept), one leading and one trailing newline taken off (`file_text`
// keeps its trailing newline: a file ends with one). A parameter left unclosed (the answer ended, or
// the model forgot the tag) ends at a line that opens the next parameter or closes the call, or,
// with no `</parameter>` ahead, at the next `<parameter=`, `</function>`, `</tool_call>`, the next
// call or the end of the answer; a call left unclosed ends where its last parameter does. No value
// holds `<function=` (a call opens there).
import { parseLenientJson } from './lenient-json.js';

/** One call found in the text: its name, its arguments (text values; a JSON body parsed), and where it is. */
export interface XmlCall {
  name: string;
  args: Record<string, unknown>;
  /** A problem with the call's body (a JSON body that does not parse), else null. */
  problem: string | null;
  start: number;
  end: number;
}

const FUNCTION_OPEN = /<function\s*=\s*["']?([^>"'\s]*)["']?\s*>|<invoke\s+name\s*=\s*["']([^"']*)["']\s*>/g;
const PARAM_OPEN = /^<parameter\s*=\s*["']?([^>"'\s]+)["']?\s*>|^<parameter\s+name\s*=\s*["']([^"']+)["']\s*>/;
const FUNCTION_CLOSE = /^<\/(function|invoke)\s*>/;

/** True when the text holds a call opening in this protocol. */
export function hasXmlCall(text: string): boolean {
  return new RegExp(FUNCTION_OPEN.source).test(text);
}

/** The calls of the text protocol in `text` (thinking already removed), in order. */
export function parseXmlCalls(text: string): XmlCall[] {
  const calls: XmlCall[] = [];
  const opens = [...text.matchAll(FUNCTION_OPEN)];
  for (let k = 0; k < opens.length; k++) {
    const m = opens[k]!;
    if (calls.length > 0 && m.index < calls.at(-1)!.end) continue; // inside the previous call's value
    const nextCall = nextOpen(text, m.index + m[0].length);
    calls.push(readCall(text, m.index, m.index + m[0].length, (m[1] ?? m[2] ?? '').trim(), nextCall));
  }
  return calls;
}

function readCall(text: string, start: number, bodyStart: number, name: string, nextCall: number): XmlCall {
  const args: Record<string, unknown> = {};
  let pos = bodyStart;
  const limit = nextCall;
  // Llama's shape: a JSON object for a body, no parameters
  const body = text.slice(pos, limit);
  const json = /^\s*\{/.test(body) && !/<parameter[\s=]/.test(body);
  if (json) {
    const close = /<\/(function|invoke)\s*>/.exec(body);
    const inner = close === null ? body : body.slice(0, close.index);
    const value = parseLenientJson(inner);
    const end = close === null ? limit : pos + close.index + close[0].length;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return { name, args: value as Record<string, unknown>, problem: null, start, end };
    }
    return { name, args, problem: 'its body is not a JSON object', start, end };
  }
  for (;;) {
    while (pos < limit && /\s/.test(text[pos]!)) pos++;
    const rest = text.slice(pos, limit);
    const close = FUNCTION_CLOSE.exec(rest);
    if (close !== null) return { name, args, problem: null, start, end: pos + close[0].length };
    const param = PARAM_OPEN.exec(rest);
    if (param === null) {
      // stray text before the next parameter or the close (skip it), or the end of the call
      const next = rest.search(/<parameter[\s=]|<\/(function|invoke)\s*>/);
      if (next <= 0) return { name, args, problem: null, start, end: endOfUnclosed(text, pos, limit) };
      pos += next;
      continue;
    }
    const key = (param[1] ?? param[2]!).trim();
    const valueStart = pos + param[0].length;
    const closeAt = text.indexOf('</parameter>', valueStart);
    let valueEnd: number;
    if (closeAt >= 0 && closeAt < limit) {
      // a line opening the next parameter (or closing the call) first: this one was left unclosed
      const early = text
        .slice(valueStart, closeAt)
        .search(/\n[ \t]*(<parameter[\s=]|<\/(function|invoke)\s*>|<\/tool_call>)/);
      valueEnd = early < 0 ? closeAt : valueStart + early + 1;
      pos = early < 0 ? closeAt + '</parameter>'.length : valueEnd;
    } else {
      const stop = text.slice(valueStart, limit).search(/<parameter[\s=]|<\/(function|invoke)\s*>|<\/tool_call>/);
      valueEnd = stop < 0 ? limit : valueStart + stop;
      pos = valueEnd;
    }
    if (!(key in args)) args[key] = trimValue(key, text.slice(valueStart, valueEnd));
    if (pos >= limit) return { name, args, problem: null, start, end: limit };
  }
}

// Where the next call opens after `from` (the text's end when none does).
function nextOpen(text: string, from: number): number {
  const re = new RegExp(FUNCTION_OPEN.source, 'g');
  re.lastIndex = from;
  const m = re.exec(text);
  return m === null ? text.length : m.index;
}

// An unclosed call ends before `</tool_call>` when one follows its parameters.
function endOfUnclosed(text: string, pos: number, limit: number): number {
  const tag = text.slice(pos, limit).search(/<\/tool_call>/);
  return tag < 0 ? pos : pos + tag;
}

function trimValue(key: string, raw: string): string {
  let v = raw.replace(/\r\n/g, '\n');
  if (v.startsWith('\n')) v = v.slice(1);
  if (key !== 'file_text' && v.endsWith('\n')) v = v.slice(0, -1);
  return v;
}
