// Server-sent events: lines in, dispatched events out (fields data/event/id/retry, comments, blank line).
import { HammerError, isHammerError } from '../errors.js';
import { LineDecoder } from './line-decoder.js';
import { preview } from './preview.js';

/** One dispatched server-sent event. */
export interface SseEvent {
  event: string;
  data: string;
}

/** Events decoded from a piece of the stream; `error` stops the stream after them. */
export interface SseResult {
  events: SseEvent[];
  error?: HammerError;
}

const FIELDS = new Set(['data', 'event', 'id', 'retry']);

/** Decodes a text/event-stream body; a line that is not SSE is a MODEL_ERROR naming `what`. */
export class SseDecoder {
  private readonly lines = new LineDecoder();
  private data: string[] = [];
  private event = '';

  constructor(private readonly what: string) {}

  /** Feed bytes; returns the events they completed (and the error that stopped them, if any). */
  push(chunk: Uint8Array): SseResult {
    return this.take(() => this.lines.push(chunk));
  }

  /** The stream ended; an event without its closing blank line is still dispatched. */
  end(): SseResult {
    const result = this.take(() => this.lines.end());
    if (result.error) return result;
    const last = this.dispatch();
    if (last) result.events.push(last);
    return result;
  }

  private take(lines: () => string[]): SseResult {
    const events: SseEvent[] = [];
    try {
      this.takeLines(lines(), events);
    } catch (err) {
      if (!isHammerError(err)) throw err;
      return { events, error: err };
    }
    return { events };
  }

  private takeLines(lines: string[], events: SseEvent[]): void {
    for (const line of lines) {
      if (line === '') {
        const ev = this.dispatch();
        if (ev) events.push(ev);
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (!FIELDS.has(field)) {
        throw new HammerError(
          'MODEL_ERROR',
          `the model server sent something that is not ${this.what}: ${preview(line)}`,
          {
            hint: 'check that the URL points at an OpenAI-compatible server (or use --provider ollama for Ollama)',
          },
        );
      }
      if (field === 'data') this.data.push(value);
      else if (field === 'event') this.event = value;
    }
  }

  private dispatch(): SseEvent | undefined {
    if (this.data.length === 0) {
      this.event = '';
      return undefined;
    }
    const ev = { event: this.event || 'message', data: this.data.join('\n') };
    this.data = [];
    this.event = '';
    return ev;
  }
}
