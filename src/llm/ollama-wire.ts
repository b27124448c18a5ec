// Ollama's wire format: /api/chat NDJSON chunks, /api/tags, and error bodies.
import { z } from 'zod';
import { HammerError, isHammerError } from '../errors.js';
import { LineDecoder } from './line-decoder.js';
import { preview } from './preview.js';
import type { StreamParser, WireEvent } from './wire-events.js';

const count = z.number().int().nonnegative();

/** One tool call in a chunk: always whole, its arguments an object (a string from some servers). */
export const OllamaToolCallSchema = z.object({
  id: z.string().optional(),
  function: z.object({ name: z.string(), arguments: z.unknown().optional() }),
});

/** One line of a streamed /api/chat answer. */
export const OllamaChatChunkSchema = z.object({
  model: z.string().optional(),
  message: z
    .object({
      role: z.string().optional(),
      content: z.string().optional(),
      thinking: z.string().optional(),
      tool_calls: z.array(OllamaToolCallSchema).nullish(),
    })
    .optional(),
  done: z.boolean(),
  done_reason: z.string().optional(),
  prompt_eval_count: count.optional(),
  eval_count: count.optional(),
});

/** An error, as a line mid-stream or as the body of a failed request. */
export const OllamaErrorSchema = z.object({ error: z.string() });

/** The answer of GET /api/tags. */
export const OllamaTagsSchema = z.object({
  models: z.array(z.object({ name: z.string(), model: z.string().optional() })).nullable(),
});

/** Parses a streamed /api/chat body into wire events. */
export class OllamaStreamParser implements StreamParser {
  private readonly lines = new LineDecoder();
  private done = false;
  private failed = false;
  /** Tool calls seen so far: each chunk's calls are whole, numbered across the stream. */
  private calls = 0;

  push(chunk: Uint8Array): WireEvent[] {
    return this.guard(() => this.lines.push(chunk));
  }

  end(): WireEvent[] {
    return this.guard(() => this.lines.end());
  }

  /** Parse lines in order; the first failure becomes the last event, after those before it. */
  private guard(lines: () => string[]): WireEvent[] {
    if (this.failed) return [];
    const events: WireEvent[] = [];
    try {
      for (const line of lines()) events.push(...this.parseLine(line));
    } catch (err) {
      if (!isHammerError(err)) throw err;
      this.failed = true;
      events.push({ type: 'error', error: err });
    }
    return events;
  }

  private parseLine(line: string): WireEvent[] {
    if (this.done || line.trim() === '') return [];
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw garbage(line);
    }
    const error = OllamaErrorSchema.safeParse(json);
    if (error.success) {
      throw new HammerError(
        'MODEL_ERROR',
        `Ollama reported an error in its answer stream: ${preview(error.data.error, 300)}`,
      );
    }
    const parsed = OllamaChatChunkSchema.safeParse(json);
    if (!parsed.success) throw garbage(line);
    const chunk = parsed.data;
    const events: WireEvent[] = [];
    const text = chunk.message?.content ?? '';
    const thinking = chunk.message?.thinking ?? '';
    if (text !== '' || thinking !== '') events.push({ type: 'delta', text, thinking });
    for (const call of chunk.message?.tool_calls ?? []) {
      const args = call.function.arguments;
      events.push({
        type: 'tool_call',
        index: this.calls++,
        ...(call.id === undefined ? {} : { id: call.id }),
        name: call.function.name,
        arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
      });
    }
    if (chunk.done) {
      this.done = true;
      if (chunk.prompt_eval_count !== undefined || chunk.eval_count !== undefined) {
        events.push({ type: 'usage', promptTokens: chunk.prompt_eval_count, completionTokens: chunk.eval_count });
      }
      if (chunk.done_reason) events.push({ type: 'finish', reason: chunk.done_reason });
      events.push({ type: 'done' });
    }
    return events;
  }
}

function garbage(line: string): HammerError {
  return new HammerError('MODEL_ERROR', `the model server sent something that is not Ollama NDJSON: ${preview(line)}`, {
    hint: 'check that the URL points at an Ollama server (or use --provider openai for an OpenAI-compatible one)',
  });
}
