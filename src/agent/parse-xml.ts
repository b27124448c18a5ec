// qwen3-coder's text protocol, read as the servers that serve it read it, knowing the tools:
// `<tool_call><function=NAME><parameter=KEY>value</parameter>...</function></tool_call>`, with or
// without `<tool_call>`, also written `<invoke name="..."><parameter name="...">` (in
// `<function_calls>`), and Llama's `<function=NAME>{json}</function>`.
//
// A value is raw text: `a < b`, HTML, `</div>`, even `</parameter>`, `<parameter=path>` or a whole
// `<tool_call>...</tool_call>` inside a file are kept. A value ends only where the protocol can end
// it: at a `</parameter>` followed by the next parameter of that tool or by the call's close; the
// answer read as a whole decides which such place, in four passes, the first that reads the whole
// answer wins:
//   1. no value holds a closing tag it did not open, no closing tag stands outside every call, no
//      parameter is given twice, and each value fits its parameter (the editor's command is one
//      of its commands, a path one line, a line number a number);
//   2. the same, but a parameter given again right after itself is read as such (a model repeating
//      it: the call is then refused);
//   3. values may hold closing tags (a file about the protocol), none stands outside the calls;
//   4. lenient: any parameter name, stray text between parameters, a parameter left unclosed
//      before a line that opens the next one or closes the call, stray closing tags in the text.
// Within a pass each value ends at the first place that lets the rest of the answer read. Calls
// are read in order from the first one, each after the end of the one before: nothing inside a
// value ever opens a call. A call the answer ends inside (no close before the end) is reported
// as unclosed: the answer was cut off. One leading and one trailing newline are taken off a value
// (`file_text` keeps its trailing newline: a file ends with one).
import { parseLenientJson, valueEnd } from './lenient-json.js';
import {
  BLANKS,
  FUNCTION_CLOSE,
  FUNCTION_CLOSE_ANY,
  FUNCTION_OPEN,
  LINE_ENDING_VALUE,
  NEXT_PART,
  OPENING,
  PARAM_CLOSE,
  PARAM_OPEN,
  PROSE_MARK,
  STRAY,
  TOOL_CALL_CLOSE,
  TOOL_CALL_OPEN,
  WRAPPER_CLOSE,
  WRAPPER_OPEN,
  find,
  sticky,
  trimValue,
  unmatchedClose,
} from './xml-tags.js';
import { toolParams, valueFits } from './tool-params.js';

/** One call found in the text: its name, its arguments (text values; a JSON body parsed), and where it is. */
export interface XmlCall {
  name: string;
  args: Record<string, unknown>;
  /** A problem with the call (a JSON body that does not parse, a parameter given twice), else null. */
  problem: string | null;
  start: number;
  end: number;
}

/** The calls read from the first opening on, and whether the answer ends inside the last one. */
export interface XmlRead {
  calls: XmlCall[];
  unclosed: boolean;
}

/** The most steps the reading may take (each value end tried counts): beyond it a pass gives up. */
const MAX_STEPS = 20_000;

/** True when the text holds a call opening in this protocol. */
export function hasXmlCall(text: string): boolean {
  return xmlOpening(text, 0) >= 0;
}

/** Where the next call of this protocol opens at or after `from`, or -1. */
export function xmlOpening(text: string, from: number): number {
  OPENING.lastIndex = from;
  return OPENING.exec(text)?.index ?? -1;
}

/** The calls from the opening at `from` to the end of `text` (thinking before `from` already left out). */
export function parseXmlCalls(text: string, from = xmlOpening(text, 0)): XmlRead {
  if (from < 0) return { calls: [], unclosed: false };
  for (const level of LEVELS) {
    const r = new Reader(text, level).read(from);
    if (r !== null) return r;
  }
  return { calls: [], unclosed: false };
}

/** What a pass allows. */
interface Level {
  /** Values may hold closing tags they did not open. */
  closers: boolean;
  /** A parameter may be given twice (the call is then refused). */
  twice: boolean;
  /** Anything goes (pass 4). */
  lenient: boolean;
}

const LEVELS: readonly Level[] = [
  { closers: false, twice: false, lenient: false },
  { closers: false, twice: true, lenient: false },
  { closers: true, twice: false, lenient: false },
  { closers: true, twice: true, lenient: true },
];

/** One way a call can be read: the call and where it ends. */
interface Alternative {
  call: XmlCall;
  end: number;
  unclosed: boolean;
}

class OutOfSteps extends Error {}

/** One pass over the answer at one level. */
class Reader {
  private readonly closes: number[] = [];
  private readonly memo = new Map<number, XmlRead | null>();
  private steps = 0;

  constructor(
    private readonly text: string,
    private readonly level: Level,
  ) {
    for (let i = text.indexOf(PARAM_CLOSE); i >= 0; i = text.indexOf(PARAM_CLOSE, i + 1)) this.closes.push(i);
  }

  read(from: number): XmlRead | null {
    try {
      return this.rest(from);
    } catch (err) {
      if (err instanceof OutOfSteps) return null;
      throw err;
    }
  }

  // The text from `pos` to the end: prose, thinking and calls; null when it cannot be read at this level.
  private rest(pos: number): XmlRead | null {
    const known = this.memo.get(pos);
    if (known !== undefined) return known;
    const r = this.restUncached(pos);
    this.memo.set(pos, r);
    return r;
  }

  private restUncached(pos: number): XmlRead | null {
    const { text } = this;
    let p = pos;
    for (;;) {
      PROSE_MARK.lastIndex = p;
      const m = PROSE_MARK.exec(text);
      if (m === null) return { calls: [], unclosed: false };
      const tag = m[0];
      if (tag.startsWith('</')) {
        if (tag.startsWith('</function_calls') || this.level.lenient) {
          p = m.index + tag.length;
          continue;
        }
        return null; // a closing tag outside every call: some value was cut short
      }
      if (tag === '<function_calls>') {
        p = m.index + tag.length;
        continue;
      }
      if (tag.startsWith('<think')) {
        const close = text.indexOf(`</${tag.slice(1)}`, m.index);
        if (close < 0) return { calls: [], unclosed: false };
        p = close + tag.length + 1;
        continue;
      }
      for (const alt of this.call(m.index)) {
        if (alt.unclosed) return { calls: [alt.call], unclosed: true };
        const after = this.rest(alt.end);
        if (after !== null) return { calls: [alt.call, ...after.calls], unclosed: after.unclosed };
      }
      if (!this.level.lenient) return null;
      p = m.index + 1; // not a call after all: text
    }
  }

  // Every way the call opening at `at` can be read, in order of preference.
  private *call(at: number): Generator<Alternative> {
    const { text } = this;
    let p = at;
    const wrapped = sticky(TOOL_CALL_OPEN, text, p);
    if (wrapped !== null) p = wrapped.end;
    p = sticky(WRAPPER_OPEN, text, p)?.end ?? p;
    const open = sticky(FUNCTION_OPEN, text, p);
    if (open === null) return;
    const name = (open.match[1] ?? open.match[2] ?? '').trim();
    const start = at;
    const bodyStart = sticky(BLANKS, text, open.end)!.end;
    const close = (end: number): number => {
      const tc = sticky(TOOL_CALL_CLOSE, text, end);
      const e = tc === null ? end : tc.end;
      return sticky(WRAPPER_CLOSE, text, e)?.end ?? e;
    };
    if (text[bodyStart] === '{') {
      yield* this.jsonBody(name, start, bodyStart, close);
      return;
    }
    const params = this.level.lenient ? null : toolParams(name);
    yield* this.body(name, start, bodyStart, params, [], {}, close);
  }

  // Llama's `<function=NAME>{json}</function>`.
  private *jsonBody(
    name: string,
    start: number,
    bodyStart: number,
    close: (end: number) => number,
  ): Generator<Alternative> {
    const { text } = this;
    const len = valueEnd(text.slice(bodyStart));
    if (len === null) {
      // a body that never closes: broken when the call closes after it, else the answer was cut
      const fc = find(FUNCTION_CLOSE_ANY, text, bodyStart);
      const end = fc === null ? text.length : close(fc.index + fc[0].length);
      const problem = 'its body is not valid JSON';
      if (fc !== null) yield { call: { name, args: {}, problem, start, end }, end, unclosed: false };
      else if (this.level.lenient) yield { call: { name, args: {}, problem: null, start, end }, end, unclosed: true };
      return;
    }
    const value = parseLenientJson(text.slice(bodyStart, bodyStart + len));
    const after = sticky(BLANKS, text, bodyStart + len)!.end;
    const fc = sticky(FUNCTION_CLOSE, text, after);
    if (fc === null && !this.level.lenient) return;
    const end = close(fc === null ? bodyStart + len : fc.end);
    const ok = typeof value === 'object' && value !== null && !Array.isArray(value);
    yield {
      call: {
        name,
        args: ok ? (value as Record<string, unknown>) : {},
        problem: ok ? null : 'its body is not a JSON object',
        start,
        end,
      },
      end,
      unclosed: false,
    };
  }

  // The parameters from `pos` on, then the call's close.
  private *body(
    name: string,
    start: number,
    pos: number,
    params: ReadonlySet<string> | null,
    given: readonly string[],
    args: Readonly<Record<string, string>>,
    close: (end: number) => number,
  ): Generator<Alternative> {
    const { text, level } = this;
    const lenient = level.lenient;
    this.step();
    const done = (end: number, problem: string | null = dupes(given)): Alternative => ({
      call: { name, args: { ...args }, problem, start, end },
      end,
      unclosed: false,
    });
    const unclosed = (): Alternative => ({ ...done(text.length, null), unclosed: true });
    const q = sticky(BLANKS, text, pos)!.end;
    const fc = sticky(FUNCTION_CLOSE, text, q);
    if (fc !== null) {
      yield done(close(fc.end));
      return;
    }
    const param = sticky(PARAM_OPEN, text, q);
    if (param === null) {
      if (!lenient) return;
      if (q >= text.length) {
        yield unclosed();
        return;
      }
      // stray text before the next parameter or the close
      const next = find(NEXT_PART, text, q + 1);
      if (next === null) yield unclosed();
      else yield* this.body(name, start, next.index, params, given, args, close);
      return;
    }
    const key = (param.match[1] ?? param.match[2]!).trim();
    // a parameter again: pass 2 reads it right after itself (a model repeating it), never an earlier one
    const again = given.includes(key) && !(level.twice && given.at(-1) === key);
    if (!lenient && ((params !== null && !params.has(key)) || again)) return;
    const valueStart = param.end;
    const more = (valueEnd: number, next: number): Generator<Alternative> =>
      this.body(
        name,
        start,
        next,
        params,
        [...given, key],
        withValue(args, key, text.slice(valueStart, valueEnd)),
        close,
      );
    // lenient: a value left unclosed ends at a line that opens the next parameter or closes the call
    let early = lenient ? find(LINE_ENDING_VALUE, text, valueStart) : null;
    for (const c of this.closes) {
      if (c < valueStart) continue;
      if (early !== null && early.index < c) {
        yield* more(early.index + 1, early.index + 1);
        early = null;
      }
      const after = c + PARAM_CLOSE.length;
      if (!this.separator(sticky(lenient ? STRAY : BLANKS, text, after)!.end, params, given, key)) continue;
      const value = text.slice(valueStart, c);
      if (!level.closers && unmatchedClose(value)) break;
      if (!lenient && !valueFits(name, key, value)) continue;
      yield* more(c, after);
    }
    if (!lenient) return;
    if (early !== null) yield* more(early.index + 1, early.index + 1);
    else {
      const cut = unclosed();
      yield { ...cut, call: { ...cut.call, args: withValue(args, key, text.slice(valueStart)) } };
    }
  }

  // What may follow a value's `</parameter>`: the next parameter of the tool (a new one), or the close.
  private separator(at: number, params: ReadonlySet<string> | null, given: readonly string[], key: string): boolean {
    if (sticky(FUNCTION_CLOSE, this.text, at) !== null) return true;
    const next = sticky(PARAM_OPEN, this.text, at);
    if (next === null) return false;
    if (this.level.lenient) return true;
    const k = (next.match[1] ?? next.match[2]!).trim();
    return (params === null || params.has(k)) && ((this.level.twice && k === key) || (k !== key && !given.includes(k)));
  }

  private step(): void {
    if (++this.steps > MAX_STEPS) throw new OutOfSteps();
  }
}

function withValue(args: Readonly<Record<string, string>>, key: string, raw: string): Record<string, string> {
  return key in args ? { ...args } : { ...args, [key]: trimValue(key, raw) };
}

function dupes(given: readonly string[]): string | null {
  const twice = given.find((k, i) => given.indexOf(k) !== i);
  return twice === undefined ? null : `the parameter ${twice} is given twice`;
}
