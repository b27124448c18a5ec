// The OpenAI-compatible wire format: /v1/chat/completions SSE chunks, /v1/models, and error bodies.
import { z } from 'zod';
import { HammerError, isHammerError } from '../errors.js';
import { preview } from './preview.js';
import { SseDecoder, type SseResult } from './sse-decoder.js';
import type { StreamParser, WireEvent } from './wire-events.js';

const count = z.number().int().nonnegative();
const text = z.string().nullish();

/** A piece of one tool call in a delta: `arguments` is a fragment of JSON text, to concatenate by `index`. */
export const OpenAIToolCallDeltaSchema = z.object({
  index: z.number().int().nonnegative().optional(),
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

/** One `data:` event of a streamed chat completion. */
export const OpenAIChunkSchema = z.object({
  object: z.string().optional(),
  model: z.string().optional(),
  choices: z.array(
    z.object({
      index: z.number().optional(),
      delta: z
        .object({
          role: z.string().nullish(),
          content: text,
          reasoning_content: text,
          reasoning: text,
          tool_calls: z.array(OpenAIToolCallDeltaSchema).nullish(),
        })
        .nullish(),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: z.object({ prompt_tokens: count.optional(), completion_tokens: count.optional() }).nullish(),
});

/** The error shapes OpenAI, vLLM, llama.cpp and LM Studio send, in a body or in the stream. */
export const OpenAIErrorSchema = z.union([
  z.object({
    error: z.union([
      z.string(),
      z.object({ message: z.string(), type: z.string().nullish(), code: z.union([z.string(), z.number()]).nullish() }),
    ]),
  }),
  z.object({
    object: z.literal('error'),
    message: z.string(),
    type: z.string().nullish(),
    code: z.union([z.string(), z.number()]).nullish(),
  }),
]);

/** The answer of GET /v1/models. */
export const OpenAIModelsSchema = z.object({ data: z.array(z.object({ id: z.string() })) });

/** The message and code of an OpenAI-style error object. */
export function openAIErrorDetail(err: z.output<typeof OpenAIErrorSchema>): { message: string; code?: string } {
  if ('error' in err) {
    if (typeof err.error === 'string') return { message: err.error };
    return { message: err.error.message, code: err.error.code == null ? undefined : String(err.error.code) };
  }
  return { message: err.message, code: err.code == null ? undefined : String(err.code) };
}

const WHAT = 'an OpenAI-compatible event stream';

/** Parses a streamed /v1/chat/completions body into wire events. */
export class OpenAIStreamParser implements StreamParser {
  private readonly sse = new SseDecoder(WHAT);
  private done = false;
  private failed = false;

  push(chunk: Uint8Array): WireEvent[] {
    return this.failed ? [] : this.take(this.sse.push(chunk));
  }

  end(): WireEvent[] {
    return this.failed ? [] : this.take(this.sse.end());
  }

  /** Parse events in order; the first failure becomes the last event, after those before it. */
  private take(result: SseResult): WireEvent[] {
    const events: WireEvent[] = [];
    try {
      for (const ev of result.events) events.push(...this.parseEvent(ev.event, ev.data));
      if (result.error) throw result.error;
    } catch (err) {
      if (!isHammerError(err)) throw err;
      this.failed = true;
      events.push({ type: 'error', error: err });
    }
    return events;
  }

  private parseEvent(event: string, data: string): WireEvent[] {
    if (this.done) return [];
    if (data.trim() === '[DONE]') {
      this.done = true;
      return [{ type: 'done' }];
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      if (event === 'error') throw streamError(data);
      throw garbage(data);
    }
    const error = OpenAIErrorSchema.safeParse(json);
    if (error.success) throw streamError(openAIErrorDetail(error.data).message);
    if (event === 'error') throw streamError(data);
    const parsed = OpenAIChunkSchema.safeParse(json);
    if (!parsed.success) throw garbage(data);
    const events: WireEvent[] = [];
    const choice = parsed.data.choices[0];
    const content = choice?.delta?.content ?? '';
    const thinking = choice?.delta?.reasoning_content ?? choice?.delta?.reasoning ?? '';
    if (content !== '' || thinking !== '') events.push({ type: 'delta', text: content, thinking });
    for (const [i, call] of (choice?.delta?.tool_calls ?? []).entries()) {
      events.push({
        type: 'tool_call',
        // servers that send each call whole in one delta may leave the index out
        index: call.index ?? i,
        ...(call.id ? { id: call.id } : {}),
        ...(call.function?.name ? { name: call.function.name } : {}),
        ...(call.function?.arguments ? { arguments: call.function.arguments } : {}),
      });
    }
    if (choice?.finish_reason) events.push({ type: 'finish', reason: choice.finish_reason });
    const usage = parsed.data.usage;
    if (usage)
      events.push({ type: 'usage', promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens });
    return events;
  }
}

function streamError(message: string): HammerError {
  return new HammerError(
    'MODEL_ERROR',
    `the model server reported an error in its answer stream: ${preview(message, 300)}`,
  );
}

function garbage(data: string): HammerError {
  return new HammerError('MODEL_ERROR', `the model server sent something that is not ${WHAT}: ${preview(data)}`, {
    hint: 'check that the URL points at an OpenAI-compatible server (or use --provider ollama for Ollama)',
  });
}
