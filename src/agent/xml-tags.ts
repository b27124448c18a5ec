// The tags of qwen3-coder's text protocol as the reader meets them: the patterns (sticky ones are
// tried exactly where the scan stands, global ones search forward), and what a value's text holds.

/** Where a call opens (searched forward): `<tool_call>` before a function, `<function=`, `<invoke name=`. */
export const OPENING = /<tool_call>\s*(?:<function\b|<invoke\b)|<function\s*=|<function\s+name\s*=|<invoke\s+name\s*=/g;
/** `<tool_call>` and the blanks after it. */
export const TOOL_CALL_OPEN = /<tool_call>\s*/y;
/** Anthropic's `<function_calls>` wrapper and the blanks after it. */
export const WRAPPER_OPEN = /<function_calls>\s*/y;
/** A function's opening tag, its name in group 1 (`<function=NAME>`) or 2 (`<invoke name="NAME">`). */
export const FUNCTION_OPEN =
  /<function\s*=\s*["']?([^>"'\s]*)["']?\s*>|<(?:invoke|function)\s+name\s*=\s*["']([^"']*)["']\s*>/y;
/** A parameter's opening tag, its name in group 1 (`<parameter=KEY>`) or 2 (`<parameter name="KEY">`). */
export const PARAM_OPEN = /<parameter\s*=\s*["']?([^>"'\s]+)["']?\s*>|<parameter\s+name\s*=\s*["']([^"']+)["']\s*>/y;
/** A function's closing tag. */
export const FUNCTION_CLOSE = /<\/(?:function|invoke)\s*>/y;
/** `</tool_call>` after blanks. */
export const TOOL_CALL_CLOSE = /\s*<\/tool_call>/y;
/** `</function_calls>` after blanks. */
export const WRAPPER_CLOSE = /\s*<\/function_calls>/y;
/** Blanks. */
export const BLANKS = /\s*/y;
/** Lenient: text without tags between a value's close and the next part. */
export const STRAY = /[^<]*/y;
/** The tag that closes a value. */
export const PARAM_CLOSE = '</parameter>';
/** What the text between calls may hold: an opening, thinking, or a closing tag (stray unless a wrapper's). */
export const PROSE_MARK =
  /<tool_call>|<function_calls>|<function\s*=|<(?:function|invoke)\s+name\s*=|<think(?:ing)?>|<\/(?:parameter|function|invoke|tool_call|function_calls)\s*>/g;
/** The protocol's tags inside a value, by kind (group 2), closing ones with group 1. */
export const VALUE_TAG =
  /<(\/)?(tool_call|function_calls|parameter|function|invoke)\b(?:\s*=\s*[^>]*|\s+name\s*=\s*[^>]*)?\s*>/g;
/** A line that opens the next parameter or closes the call: where a value left unclosed ends (lenient). */
export const LINE_ENDING_VALUE = /\n[ \t]*(?:<parameter[\s=]|<\/(?:function|invoke)\s*>|<\/tool_call>)/g;
/** The next parameter or the function's close (searched forward). */
export const NEXT_PART = /<parameter[\s=]|<\/(?:function|invoke)\s*>/g;
/** A function's closing tag (searched forward). */
export const FUNCTION_CLOSE_ANY = /<\/(?:function|invoke)\s*>/g;

/** A sticky pattern matched exactly at `pos`. */
export function sticky(re: RegExp, text: string, pos: number): { match: RegExpExecArray; end: number } | null {
  re.lastIndex = pos;
  const m = re.exec(text);
  return m === null ? null : { match: m, end: pos + m[0].length };
}

/** The first match of a global pattern at or after `from`. */
export function find(re: RegExp, text: string, from: number): RegExpExecArray | null {
  re.lastIndex = from;
  return re.exec(text);
}

/** True when a value holds a closing tag of the protocol with no opening of its kind before it in the value. */
export function unmatchedClose(value: string): boolean {
  const open = new Map<string, number>();
  for (const m of value.matchAll(VALUE_TAG)) {
    const kind = m[2] === 'invoke' ? 'function' : m[2]!;
    const n = open.get(kind) ?? 0;
    if (m[1] === undefined) open.set(kind, n + 1);
    else if (n === 0) return true;
    else open.set(kind, n - 1);
  }
  return false;
}

/** A value as written, one leading and one trailing newline taken off (`file_text` keeps its trailing newline). */
export function trimValue(key: string, raw: string): string {
  let v = raw.replace(/\r\n/g, '\n');
  if (v.startsWith('\n')) v = v.slice(1);
  if (key !== 'file_text' && v.endsWith('\n')) v = v.slice(0, -1);
  return v;
}
