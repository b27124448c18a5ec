// The model's requests to see more of the repository, in the shapes real models answer with: the text
// form the system message teaches (READ path:10-40, GREP text), qwen3-coder's XML tool call written
// into the content (`<function=read_file><parameter=path>…</parameter></function>`, with or without
// `<tool_call>`), and JSON tool calls (`{"name": …, "arguments": …}`, OpenAI's `{"function": …}`,
// lists of them, bare or fenced).

/** The provider tool call a request came as (absent for requests written in the content). */
export interface AskCall {
  id: string;
  name: string;
}

/**
 * One request: a file or a range of its lines, or a search for a fixed string; `invalid` is a tool
 * call that could not be read (it is answered with the reason, as every tool call needs an answer).
 */
export type AskRequest = (
  | { kind: 'read'; path: string; start: number | null; end: number | null }
  | { kind: 'search'; query: string }
  | { kind: 'invalid'; tool: string; reason: string }
) & { call?: AskCall };

/** The most requests read from one answer (the rest are ignored). */
export const MAX_REQUESTS_READ = 32;
/** An argument longer than this is not a path or a search. */
const MAX_ARG = 500;

const READ_NAMES = new Set([
  'read',
  'read_file',
  'readfile',
  'open_file',
  'view_file',
  'view',
  'get_file',
  'cat',
  'show_file',
]);
const SEARCH_NAMES = new Set(['search', 'grep', 'search_code', 'search_files', 'find', 'find_symbol', 'search_repo']);
const PATH_KEYS = ['path', 'file', 'file_path', 'filepath', 'filename', 'target_file'];
const START_KEYS = ['start_line', 'start', 'line_start', 'from', 'from_line', 'offset'];
const END_KEYS = ['end_line', 'end', 'line_end', 'to', 'to_line'];
const QUERY_KEYS = ['query', 'pattern', 'string', 'text', 'symbol', 'q', 'search', 'term'];

/** The requests an answer makes, in order (none when it makes none). */
export function parseAskRequests(answer: string): AskRequest[] {
  const text = answer.length > 200_000 ? answer.slice(0, 200_000) : answer;
  const found = [...xmlCalls(text), ...jsonCalls(text)];
  const requests = found.length > 0 ? found : textRequests(text);
  const seen = new Set<string>();
  return requests
    .filter((r) => {
      const key = JSON.stringify(r);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, MAX_REQUESTS_READ);
}

/** `READ path`, `READ path:10-40`, `READ path:10`, `GREP text` (or `SEARCH text`), each alone on its line. */
function textRequests(text: string): AskRequest[] {
  const out: AskRequest[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const read = /^READ\s+(\S{1,500}?)(?::(\d{1,9})(?:-(\d{1,9}))?)?$/.exec(line);
    if (read) {
      const start = read[2] === undefined ? null : Number(read[2]);
      out.push({ kind: 'read', path: read[1]!, start, end: read[3] === undefined ? start : Number(read[3]) });
      continue;
    }
    const search = /^(?:GREP|SEARCH)\s+(.{1,500})$/.exec(line);
    if (search) out.push({ kind: 'search', query: unquote(search[1]!.trim()) });
  }
  return out;
}

/** `<function=NAME> <parameter=KEY>VALUE</parameter> … </function>` (the closing tag may be missing at the end). */
function xmlCalls(text: string): AskRequest[] {
  const out: AskRequest[] = [];
  const starts = [...text.matchAll(/<function=([\w.-]{1,64})>/g)];
  starts.forEach((m, i) => {
    const from = m.index + m[0].length;
    const next = i + 1 < starts.length ? starts[i + 1]!.index : text.length;
    const close = text.indexOf('</function>', from);
    const body = text.slice(from, close >= 0 && close < next ? close : next);
    const args: Record<string, unknown> = {};
    for (const p of body.matchAll(/<parameter=([\w.-]{1,64})>([\s\S]*?)(?:<\/parameter>|(?=<parameter=)|$)/g)) {
      args[p[1]!] = p[2]!.trim();
    }
    const r = toolRequest(m[1]!, args);
    if (r !== null) out.push(r);
  });
  return out;
}

/** JSON tool calls: the whole answer, fenced blocks, `<tool_call>` bodies, or objects on their own lines. */
function jsonCalls(text: string): AskRequest[] {
  const candidates: string[] = [];
  const trimmed = text.trim();
  if (/^[[{]/.test(trimmed)) candidates.push(trimmed);
  for (const m of text.matchAll(/```(?:json|tool_call)?[ \t]*\n([\s\S]*?)\n```/g)) candidates.push(m[1]!.trim());
  for (const m of text.matchAll(/<tool_call>\s*([\s\S]*?)\s*(?:<\/tool_call>|$)/g)) candidates.push(m[1]!.trim());
  for (const m of text.matchAll(/^[ \t]*(\{.{1,2000}\})[ \t]*$/gm)) candidates.push(m[1]!);
  const out: AskRequest[] = [];
  for (const c of candidates) {
    if (!/^[[{]/.test(c)) continue;
    let value: unknown;
    try {
      value = JSON.parse(c);
    } catch {
      continue;
    }
    for (const call of callsIn(value)) {
      const r = toolRequest(call.name, call.args);
      if (r !== null) out.push(r);
    }
  }
  return out;
}

/** The {name, args} of every tool call a parsed JSON value holds. */
function callsIn(value: unknown, depth = 0): { name: string; args: Record<string, unknown> }[] {
  if (depth > 4) return [];
  if (Array.isArray(value)) return value.slice(0, MAX_REQUESTS_READ).flatMap((v) => callsIn(v, depth + 1));
  if (!isRecord(value)) return [];
  if (Array.isArray(value.tool_calls)) return callsIn(value.tool_calls, depth + 1);
  if (isRecord(value.function)) return callsIn(value.function, depth + 1);
  const name = value.name ?? value.tool ?? value.action;
  if (typeof name !== 'string') return [];
  let args = value.arguments ?? value.parameters ?? value.args ?? value.input ?? value.action_input;
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch {
      args = { path: args };
    }
  }
  return [{ name, args: isRecord(args) ? args : value }];
}

/** A request from a tool's name and arguments (null for a tool that is not one of ours). */
export function toolRequest(name: string, args: Record<string, unknown>): AskRequest | null {
  const n = name.toLowerCase().replace(/^functions\./, '');
  if (READ_NAMES.has(n)) {
    const path = firstString(args, PATH_KEYS);
    if (path === null) return null;
    let start = firstNumber(args, START_KEYS);
    let end = firstNumber(args, END_KEYS);
    const lines = firstString(args, ['lines', 'line_range', 'range']);
    const range = lines === null ? null : /^(\d{1,9})\s*[-:,]\s*(\d{1,9})$/.exec(lines);
    if (range) [start, end] = [Number(range[1]), Number(range[2])];
    const limit = firstNumber(args, ['limit', 'lines_count']);
    if (start !== null && end === null && limit !== null) end = start + limit - 1;
    return { kind: 'read', path, start, end: end ?? (start === null ? null : start) };
  }
  if (SEARCH_NAMES.has(n)) {
    const query = firstString(args, QUERY_KEYS);
    return query === null ? null : { kind: 'search', query };
  }
  return null;
}

function firstString(args: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const k of keys) {
    const v = args[k];
    if (typeof v === 'string' && v.trim() !== '' && v.length <= MAX_ARG) return unquote(v.trim());
  }
  return null;
}

function firstNumber(args: Record<string, unknown>, keys: readonly string[]): number | null {
  for (const k of keys) {
    const v = args[k];
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,9}$/.test(v.trim()) ? Number(v) : NaN;
    if (Number.isInteger(n) && n >= 0) return n;
  }
  return null;
}

function unquote(s: string): string {
  const m = /^(["'`])(.*)\1$/.exec(s);
  return m ? m[2]! : s;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
