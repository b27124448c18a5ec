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
// sticky: each is tried exactly where the scan stands
const PARAM_OPEN = /<parameter\s*=\s*["']?([^>"'\s]+)["']?\s*>|<parameter\s+name\s*=\s*["']([^"']+)["']\s*>/y;
const FUNCTION_CLOSE = /<\/(?:function|invoke)\s*>/y;
const BLANKS = /\s*/y;
// searched forward from a position: what may follow a parameter's value
const PARAM_CLOSE = /<\/parameter>/g;
const NEXT_PART = /<parameter[\s=]|<\/(?:function|invoke)\s*>/g;
const UNCLOSED_END = /<parameter[\s=]|<\/(?:function|invoke)\s*>|<\/tool_call>/g;
const LINE_ENDING_VALUE = /\n[ \t]*(?:<parameter[\s=]|<\/(?:function|invoke)\s*>|<\/tool_call>)/g;
const TOOL_CALL_CLOSE = /<\/tool_call>/g;

/** True when the text holds a call opening in this protocol. */
export function hasXmlCall(text: string): boolean {
  return new RegExp(FUNCTION_OPEN.source).test(text);
}

/** The calls of the text protocol in `text` (thinking already removed), in order. */
export function parseXmlCalls(text: string): XmlCall[] {
  const calls: XmlCall[] = [];
  const opens = [...text.matchAll(FUNCTION_OPEN)];
  for (const [k, m] of opens.entries()) {
    const limit = opens[k + 1]?.index ?? text.length;
    calls.push(readCall(text, m.index, m.index + m[0].length, (m[1] ?? m[2] ?? '').trim(), limit));
  }
  return calls;
}

// One call from its opening tag to its close, or to `limit` (where the next call opens).
function readCall(text: string, start: number, bodyStart: number, name: string, limit: number): XmlCall {
  const args: Record<string, unknown> = {};
  const done = (end: number): XmlCall => ({ name, args, problem: null, start, end });
  // Llama's shape: a JSON object for a body, no parameters
  if (
    /^\s*\{/.test(text.slice(bodyStart, bodyStart + 200)) &&
    find(NEXT_PART, text, bodyStart, limit)?.[0].startsWith('<parameter') !== true
  ) {
    const close = find(NEXT_PART, text, bodyStart, limit);
    const value = parseLenientJson(text.slice(bodyStart, close?.index ?? limit));
    const end = close === null ? limit : close.index + close[0].length;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return { name, args: value as Record<string, unknown>, problem: null, start, end };
    }
    return { name, args, problem: 'its body is not a JSON object', start, end };
  }
  let pos = bodyStart;
  for (;;) {
    pos = at(BLANKS, text, pos)?.end ?? pos;
    if (pos >= limit) return done(limit);
    const close = at(FUNCTION_CLOSE, text, pos);
    if (close !== null && close.end <= limit) return done(close.end);
    const param = at(PARAM_OPEN, text, pos);
    if (param === null || param.end > limit) {
      // stray text before the next parameter or the close (skipped), or the end of an unclosed call
      const next = find(NEXT_PART, text, pos + 1, limit);
      if (next === null) return done(find(TOOL_CALL_CLOSE, text, pos, limit)?.index ?? pos);
      pos = next.index;
      continue;
    }
    const key = (param.match[1] ?? param.match[2]!).trim();
    const valueStart = param.end;
    const closeAt = find(PARAM_CLOSE, text, valueStart, limit);
    let valueEnd: number;
    if (closeAt !== null) {
      // a line opening the next parameter (or closing the call) first: this one was left unclosed
      const early = find(LINE_ENDING_VALUE, text, valueStart, closeAt.index);
      valueEnd = early === null ? closeAt.index : early.index + 1;
      pos = early === null ? closeAt.index + closeAt[0].length : valueEnd;
    } else {
      valueEnd = find(UNCLOSED_END, text, valueStart, limit)?.index ?? limit;
      pos = valueEnd;
    }
    if (!(key in args)) args[key] = trimValue(key, text.slice(valueStart, valueEnd));
  }
}

// A sticky pattern matched exactly at `pos`.
function at(re: RegExp, text: string, pos: number): { match: RegExpExecArray; end: number } | null {
  re.lastIndex = pos;
  const m = re.exec(text);
  return m === null ? null : { match: m, end: pos + m[0].length };
}

// The first match of a global pattern at or after `from` that starts before `limit`.
function find(re: RegExp, text: string, from: number, limit: number): RegExpExecArray | null {
  re.lastIndex = from;
  const m = re.exec(text);
  return m !== null && m.index < limit ? m : null;
}

function trimValue(key: string, raw: string): string {
  let v = raw.replace(/\r\n/g, '\n');
  if (v.startsWith('\n')) v = v.slice(1);
  if (key !== 'file_text' && v.endsWith('\n')) v = v.slice(0, -1);
  return v;
}
