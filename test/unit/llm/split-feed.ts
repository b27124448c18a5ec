// Feeding a parser the same bytes cut in every possible way.
import type { StreamParser, WireEvent } from '../../../src/llm/wire-events.js';

/** Feed `bytes` cut at the given offsets; returns every event, in order. */
export function feed(parser: StreamParser, bytes: Uint8Array, cuts: number[] = []): WireEvent[] {
  const events: WireEvent[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    events.push(...parser.push(bytes.subarray(at, cut)));
    at = cut;
  }
  events.push(...parser.end());
  return events;
}

/** Every way to cut `n` bytes into two pieces, and into three around each point. */
export function cutsOf(n: number): number[][] {
  const out: number[][] = [[]];
  for (let i = 1; i < n; i++) {
    out.push([i]);
    if (i + 1 < n) out.push([i, i + 1]);
  }
  out.push(Array.from({ length: Math.max(0, n - 1) }, (_, i) => i + 1)); // one byte at a time
  return out;
}

/** Collapse deltas into one text so cut-dependent delta boundaries do not matter. */
export function summarize(events: WireEvent[]): { text: string; thinking: string; rest: WireEvent[] } {
  let text = '';
  let thinking = '';
  const rest: WireEvent[] = [];
  for (const ev of events) {
    if (ev.type === 'delta') {
      text += ev.text;
      thinking += ev.thinking;
    } else rest.push(ev);
  }
  return { text, thinking, rest };
}

/** The error event's error, if the stream broke; checks nothing follows it. */
export function streamError(events: WireEvent[]): Error | undefined {
  const i = events.findIndex((e) => e.type === 'error');
  if (i === -1) return undefined;
  if (i !== events.length - 1) throw new Error('events after the error event');
  const ev = events[i];
  return ev?.type === 'error' ? ev.error : undefined;
}
