// What a stream parser hands the generation loop, whatever the wire format.
import type { HammerError } from '../errors.js';

/** One meaningful piece of a streamed answer. */
export type WireEvent =
  | { type: 'delta'; text: string; thinking: string }
  /**
   * A piece of the tool call numbered `index`: OpenAI streams `arguments` as text fragments to
   * concatenate (name and id come once); Ollama sends each call whole.
   */
  | { type: 'tool_call'; index: number; id?: string; name?: string; arguments?: string }
  | { type: 'usage'; promptTokens?: number; completionTokens?: number }
  | { type: 'finish'; reason: string }
  | { type: 'done' }
  /** The stream is broken (an error chunk, garbage); it comes after the events that preceded it. */
  | { type: 'error'; error: HammerError };

/** An incremental parser of one response body; bad input becomes an error event, and nothing follows it. */
export interface StreamParser {
  /** Feed bytes as they arrive; returns the events they completed. */
  push(chunk: Uint8Array): WireEvent[];
  /** The body ended; returns the events still pending. */
  end(): WireEvent[];
}
