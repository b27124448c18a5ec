// Tool calls that open with a model family's special tokens, as they read when a server passes
// them through as text instead of parsing them:
//   GPT-OSS (harmony): `<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{...}<|call|>`
//     (the recipient may stand before the channel); the analysis channel is thinking;
//   DeepSeek R1/V3: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{...}\n```<｜tool▁call▁end｜>`,
//     V3.1's `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{...}`, the distills' `<｜tool▁calls｜>` (ASCII `|` and `_` too);
//   Llama 3.1: `<|python_tag|>` then a JSON call (several separated by `;`) or `NAME.call(key="value")`;
//   Functionary v3.2: `>>>NAME\n{...}` (the first `>>>` may be in the prompt: `NAME\n{...}` at the start);
//   Granite: `<|tool_call|>[{...}]`; Firefunction v2: ` functools[{...}]`;
//   Command-R7B: `<|START_ACTION|>[{"tool_call_id", "tool_name", "parameters"}]<|END_ACTION|>`.
import { argsOf, callsIn, jsonAt } from './json-call-values.js';
import { readChain } from './parse-json-calls.js';
import { pythonKwargs } from './python-call.js';
import { nextMatch, type FormatReader, type TextRead } from './text-call.js';
import { toolNamed } from './to-action.js';

// harmony: [<|start|>assistant][ to=R]<|channel|>CHANNEL[ to=R][ json][<|constrain|>json]<|message|>
const HARMONY =
  /(?:<\|start\|>\s*assistant\s*)?(?:to=([\w.:-]+)\s*)?<\|channel\|>\s*(\w+)([^<]*?)(?:<\|constrain\|>\s*[\w-]*\s*)?<\|message\|>/g;
const HARMONY_CALL_END = /\s*<\|call\|>/y;

/** GPT-OSS's harmony messages to a recipient (`to=functions.NAME`). */
export const HARMONY_READER: FormatReader = {
  format: 'harmony',
  next(text, from) {
    HARMONY.lastIndex = from;
    for (let m = HARMONY.exec(text); m !== null; m = HARMONY.exec(text)) if (recipient(m) !== null) return m.index;
    return -1;
  },
  read(text, at) {
    HARMONY.lastIndex = at;
    const m = HARMONY.exec(text);
    const name = m === null ? null : recipient(m);
    if (m === null || name === null) return null;
    const v = jsonAt(text, m.index + m[0].length);
    if (v.unclosed) return { calls: [], end: text.length, unclosed: true };
    HARMONY_CALL_END.lastIndex = v.end;
    const end = HARMONY_CALL_END.test(text) ? HARMONY_CALL_END.lastIndex : v.end;
    const args =
      v.value === undefined ? { args: {}, problem: `the message to ${name} is not JSON` } : argsOf(name, v.value);
    return { calls: [{ name, ...args, start: at, end }], end, unclosed: false };
  },
};

function recipient(m: RegExpExecArray): string | null {
  return m[1] ?? /\bto=([\w.:-]+)/.exec(m[3] ?? '')?.[1] ?? null;
}

const DS = (word: string): string => `<[｜|]${word.replace(/_/g, '[▁_]')}[｜|]>`;
const DS_OPEN = new RegExp(`${DS('tool_calls_begin')}|${DS('tool_calls')}|${DS('tool_call_begin')}`, 'g');
const DS_CALL = new RegExp(
  `(?:${DS('tool_calls_begin')}|${DS('tool_calls')})?\\s*(?:${DS('tool_call_begin')})?\\s*([^<\\n]*?)\\s*${DS('tool_sep')}`,
  'y',
);
const DS_FUNCTION_NAME = /\s*([\w.:-]+)\s*(?:```(?:json)?\s*)?/y;
const DS_END = new RegExp(`\\s*(?:\`\`\`\\s*)?(?:${DS('tool_call_end')})?\\s*(?:${DS('tool_calls_end')})?`, 'y');

/** DeepSeek's tool-call tokens (R1, V3, V3.1 and the distills' variants). */
export const DEEPSEEK_READER: FormatReader = {
  format: 'deepseek',
  next: (text, from) => nextMatch(DS_OPEN, text, from),
  read(text, at) {
    DS_CALL.lastIndex = at;
    const m = DS_CALL.exec(text);
    if (m === null) {
      const end = text.length;
      const rest = text.slice(at).replace(new RegExp(DS_OPEN.source, 'g'), '').trim();
      if (rest === '') return { calls: [], end, unclosed: true };
      return {
        calls: [
          {
            name: '',
            args: {},
            problem: 'the call has no <｜tool▁sep｜> between its name and its arguments',
            start: at,
            end,
          },
        ],
        end,
        unclosed: false,
      };
    }
    let p = m.index + m[0].length;
    let name = m[1]!.trim();
    if (name === 'function' || name === '') {
      DS_FUNCTION_NAME.lastIndex = p;
      const n = DS_FUNCTION_NAME.exec(text);
      if (n === null) return { calls: [], end: text.length, unclosed: p >= text.length };
      name = n[1]!;
      p = DS_FUNCTION_NAME.lastIndex;
    }
    const v = jsonAt(text, p);
    if (v.unclosed || (v.raw === '' && p >= text.length)) return { calls: [], end: text.length, unclosed: true };
    DS_END.lastIndex = v.end;
    const end = DS_END.test(text) ? DS_END.lastIndex : v.end;
    const args =
      v.value === undefined
        ? { args: {}, problem: `the arguments of ${name} are not valid JSON` }
        : argsOf(name, v.value);
    return { calls: [{ name, ...args, start: at, end }], end, unclosed: false };
  },
};

const PYTHON_TAG = /<\|python_tag\|>\s*/g;
const PY_CALL = /([A-Za-z_][\w.]*?)(?:\.call)?\(/y;

/** Llama 3.1's `<|python_tag|>`: a JSON call (`;` between several), or a built-in tool's `NAME.call(key="value")`. */
export const LLAMA_READER: FormatReader = {
  format: 'llama',
  next: (text, from) => nextMatch(PYTHON_TAG, text, from),
  read(text, at) {
    PYTHON_TAG.lastIndex = at;
    const tag = PYTHON_TAG.exec(text)!;
    const p = at + tag[0].length;
    if (text[p] === '{' || text[p] === '[') {
      const r = readChain(text, p, true);
      return r === null ? null : { ...r, calls: r.calls.map((c) => ({ ...c, start: at })) };
    }
    PY_CALL.lastIndex = p;
    const m = PY_CALL.exec(text);
    if (m === null) {
      const end = text.length;
      if (p >= end) return { calls: [], end, unclosed: true };
      const problem = 'after <|python_tag|> comes neither a JSON call nor NAME.call(...)';
      return { calls: [{ name: '', args: {}, problem, start: at, end }], end, unclosed: false };
    }
    const kw = pythonKwargs(text, PY_CALL.lastIndex);
    if (kw === null) return { calls: [], end: text.length, unclosed: true };
    const problem = kw.args === null ? `the arguments of ${m[1]} are not key="value" pairs` : null;
    return {
      calls: [{ name: m[1]!, args: kw.args ?? {}, problem, start: at, end: kw.end }],
      end: kw.end,
      unclosed: false,
    };
  },
};

const FUNCTIONARY = />>>([\w.-]+)\n|^([\w.-]+)\n(?=\s*[{[])/g;

/** Functionary v3.2: `>>>NAME` and a line break before each call's JSON; `>>>all` is talk. */
export const FUNCTIONARY_READER: FormatReader = {
  format: 'functionary',
  next(text, from) {
    FUNCTIONARY.lastIndex = from;
    for (let m = FUNCTIONARY.exec(text); m !== null; m = FUNCTIONARY.exec(text)) {
      const name = m[1] ?? m[2]!;
      // at the very start without `>>>` only a name of ours counts (the prompt held the `>>>`)
      if (name !== 'all' && (m[1] !== undefined || toolNamed(name) !== null)) return m.index;
    }
    return -1;
  },
  read(text, at) {
    FUNCTIONARY.lastIndex = at;
    const m = FUNCTIONARY.exec(text)!;
    const name = m[1] ?? m[2]!;
    const p = m.index + m[0].length;
    const v = jsonAt(text, p);
    if (v.unclosed || (v.raw === '' && p >= text.length)) return { calls: [], end: text.length, unclosed: true };
    const next = text.indexOf('>>>', v.end);
    const end = v.value === undefined ? (next < 0 ? text.length : next) : v.end;
    const args =
      v.value === undefined ? { args: {}, problem: `the arguments of ${name} are not JSON` } : argsOf(name, v.value);
    return { calls: [{ name, ...args, start: at, end }], end, unclosed: false };
  },
};

/** A token (or word) and a JSON list of calls after it, up to an optional closing token. */
function listReader(
  format: 'granite' | 'firefunction' | 'command-r',
  open: RegExp,
  close: RegExp | null,
): FormatReader {
  return {
    format,
    next: (text, from) => nextMatch(open, text, from),
    read(text, at): TextRead {
      open.lastIndex = at;
      const m = open.exec(text)!;
      const v = jsonAt(text, m.index + m[0].length);
      if (v.unclosed || v.raw === '') return { calls: [], end: text.length, unclosed: v.unclosed || v.raw === '' };
      let end = v.end;
      if (close !== null) {
        close.lastIndex = end;
        if (close.test(text)) end = close.lastIndex;
      }
      return { calls: callsIn(v.value, at, end, true, v.raw), end, unclosed: false };
    },
  };
}

/** Granite: `<|tool_call|>[...]`. */
export const GRANITE_READER = listReader('granite', /<\|tool_call\|>/g, null);
/** Firefunction v2: ` functools[...]`. */
export const FIREFUNCTION_READER = listReader('firefunction', /\bfunctools(?=\s*\[)/g, null);
/** Command-R7B: `<|START_ACTION|>[...]<|END_ACTION|>`. */
export const COMMAND_R_READER = listReader('command-r', /<\|START_ACTION\|>/g, /\s*<\|END_ACTION\|>/y);
