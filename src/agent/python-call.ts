// A Python call's keyword arguments as Llama 3.1 writes a built-in tool's call after
// `<|python_tag|>` (`bash.call(command="ls -la", timeout=30)`): string, number, True/False/None
// and JSON list or dict literals.
import { jsonAt } from './json-call-values.js';

/**
 * `key="value", n=3)` from `at` (just after the parenthesis): the arguments, or null args when
 * they are no such pairs; null when the text ends first.
 */
export function pythonKwargs(text: string, at: number): { args: Record<string, unknown> | null; end: number } | null {
  const args: Record<string, unknown> = {};
  const pair = /\s*([A-Za-z_]\w*)\s*=\s*/y;
  let p = at;
  for (;;) {
    while (/\s/.test(text[p] ?? '')) p++;
    if (p >= text.length) return null;
    if (text[p] === ')') return { args, end: p + 1 };
    pair.lastIndex = p;
    const k = pair.exec(text);
    if (k === null) return skipCall(text, p);
    p = pair.lastIndex;
    const lit = pythonLiteral(text, p);
    if (lit === null) return p >= text.length ? null : skipCall(text, p);
    if (lit.end > text.length) return null;
    args[k[1]!] = lit.value;
    p = lit.end;
    while (/\s/.test(text[p] ?? '')) p++;
    if (text[p] === ',') p++;
  }
}

function skipCall(text: string, p: number): { args: null; end: number } | null {
  const close = text.indexOf(')', p);
  return close < 0 ? null : { args: null, end: close + 1 };
}

// A Python string, number, True/False/None, or a JSON list or dict at `p`.
function pythonLiteral(text: string, p: number): { value: unknown; end: number } | null {
  const q = text[p];
  if (q === '"' || q === "'") {
    const triple = text.startsWith(q.repeat(3), p);
    const delim = triple ? q.repeat(3) : q;
    let out = '';
    for (let i = p + delim.length; i < text.length; i++) {
      if (text.startsWith(delim, i)) return { value: out, end: i + delim.length };
      const c = text[i]!;
      if (c === '\\' && i + 1 < text.length) {
        const e = text[++i]!;
        out += e === 'n' ? '\n' : e === 't' ? '\t' : e;
      } else out += c;
    }
    return { value: out, end: text.length + 1 };
  }
  const word = /-?\d+(?:\.\d+)?|True|False|None/y;
  word.lastIndex = p;
  const w = word.exec(text);
  if (w !== null) {
    const map: Record<string, unknown> = { True: true, False: false, None: null };
    return { value: w[0] in map ? map[w[0]] : Number(w[0]), end: word.lastIndex };
  }
  if (q === '[' || q === '{') {
    const v = jsonAt(text, p);
    return v.unclosed ? { value: undefined, end: text.length + 1 } : { value: v.value, end: v.end };
  }
  return null;
}
