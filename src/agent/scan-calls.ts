// An answer's text read for calls from its start: thinking is skipped (`<think>...</think>`, all
// before a `</think>` that no tag opened, Command-R's START_THINKING, harmony's analysis channel),
// the first call that opens decides the format, and the calls are read one after another in that
// format only, each from where the one before ended: nothing inside a value (a file's text, a
// command) ever opens a call, and no format is mixed with another in one answer.
import { BARE_JSON_READER, FENCED_JSON_READER, HERMES_READER, MISTRAL_READER } from './parse-json-calls.js';
import {
  COMMAND_R_READER,
  DEEPSEEK_READER,
  FIREFUNCTION_READER,
  FUNCTIONARY_READER,
  GRANITE_READER,
  HARMONY_READER,
  LLAMA_READER,
} from './parse-token-calls.js';
import { parseXmlCalls, xmlOpening } from './parse-xml.js';
import type { FormatReader, TextCall } from './text-call.js';
import type { CallFormat } from './types.js';

/** The answer read: the format of its calls (null: none), the calls, whether it ends inside one, and the talk around them. */
export interface Scan {
  format: CallFormat | null;
  calls: TextCall[];
  /** The answer ends inside a call that never closed: it was cut off. */
  unclosed: boolean;
  /** The text outside thinking and calls, wrappers and framing tokens taken out. */
  thought: string;
}

/** qwen3-coder's XML: read as a whole from its first call (the answer decides where each value ends). */
const XML_READER: FormatReader = {
  format: 'qwen-xml',
  next: xmlOpening,
  read(text, at) {
    const r = parseXmlCalls(text, at);
    return { calls: r.calls, end: r.unclosed ? text.length : (r.calls.at(-1)?.end ?? at + 1), unclosed: r.unclosed };
  },
};

/** The readers, every format's. */
const READERS: readonly FormatReader[] = [
  XML_READER,
  HERMES_READER,
  MISTRAL_READER,
  FENCED_JSON_READER,
  HARMONY_READER,
  DEEPSEEK_READER,
  LLAMA_READER,
  FUNCTIONARY_READER,
  GRANITE_READER,
  FIREFUNCTION_READER,
  COMMAND_R_READER,
  BARE_JSON_READER,
];

const THINK_OPEN = /<(think|thinking)>|<\|START_THINKING\|>|<\|channel\|>\s*analysis\s*<\|message\|>/g;
const LONE_THINK_CLOSE = /<\/think(?:ing)?>/;
const FRAMING =
  /<\/?(?:tool_call|function_calls)>|<\|start\|>\s*assistant|<\|channel\|>\s*\w+\s*<\|message\|>|<\|(?:end|return|call|START_RESPONSE|END_RESPONSE|eot_id|eom_id|im_end)\|>|^>>>all\n|>>>all\n/gm;

/** Read `text` (LF line ends) for calls. */
export function scanCalls(text: string): Scan {
  const whole = scanFrom(text, 0);
  const close = LONE_THINK_CLOSE.exec(text);
  const open = /<think(?:ing)?>/.exec(text);
  if (close === null || (open !== null && open.index < close.index)) return whole;
  // a `</think>` no tag opened ends the thinking, unless it stands inside a call's value
  if (whole.spans.some((s) => s.start < close.index && s.end > close.index)) return whole;
  return scanFrom(text, close.index + close[0].length);
}

interface Span {
  start: number;
  end: number;
}

function scanFrom(text: string, from: number): Scan & { spans: Span[] } {
  const spans: Span[] = [{ start: 0, end: from }];
  const calls: TextCall[] = [];
  let reader: FormatReader | null = null;
  let unclosed = false;
  const nexts = new Map<FormatReader, number>();
  let p = from;
  for (;;) {
    const think = nextThinking(text, p);
    let best: { r: FormatReader; at: number } | null = null;
    const candidates: readonly FormatReader[] = reader === null ? READERS : [reader];
    for (const r of candidates) {
      const known = nexts.get(r);
      const at: number = known === undefined || (known >= 0 && known < p) ? r.next(text, p) : known;
      nexts.set(r, at);
      if (at >= 0 && (best === null || at < best.at)) best = { r, at };
    }
    if (think !== null && (best === null || think.start <= best.at)) {
      spans.push(think);
      p = think.end;
      continue;
    }
    if (best === null) break;
    const read = best.r.read(text, best.at);
    if (read === null) {
      p = best.at + 1;
      continue;
    }
    reader = best.r;
    calls.push(...read.calls);
    if (read.unclosed) {
      unclosed = true;
      spans.push({ start: best.at, end: text.length });
      break;
    }
    // the XML reader read the rest of the answer as a whole: its calls' spans are what it took
    if (reader === XML_READER) {
      for (const c of read.calls) spans.push({ start: c.start, end: c.end });
      break;
    }
    spans.push({ start: best.at, end: read.end });
    p = Math.max(read.end, best.at + 1);
  }
  return { format: reader?.format ?? null, calls, unclosed, thought: outside(text, spans), spans };
}

// The next thinking block at or after `from`: where it opens and where it ends (the end of the text when it never closes).
function nextThinking(text: string, from: number): Span | null {
  THINK_OPEN.lastIndex = from;
  const m = THINK_OPEN.exec(text);
  if (m === null) return null;
  const after = m.index + m[0].length;
  const closer = m[1] !== undefined ? `</${m[1]}>` : m[0].startsWith('<|START') ? '<|END_THINKING|>' : '<|end|>';
  const at = text.indexOf(closer, after);
  return { start: m.index, end: at < 0 ? text.length : at + closer.length };
}

// The text outside the spans, without wrappers and framing tokens: what the model said.
function outside(text: string, spans: readonly Span[]): string {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const s of sorted) {
    out += text.slice(at, Math.max(at, s.start));
    at = Math.max(at, s.end);
  }
  out += text.slice(at);
  return out
    .replace(FRAMING, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
