import { describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { OpenAIStreamParser } from '../../../src/llm/openai-wire.js';
import { SseDecoder } from '../../../src/llm/sse-decoder.js';
import { cutsOf, feed, streamError, summarize } from './split-feed.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm' };
const ev = (o: unknown, nl = '\n'): string => `data: ${JSON.stringify(o)}${nl}${nl}`;
const delta = (content: string | null, nl = '\n'): string =>
  ev({ ...head, choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }] }, nl);

describe('OpenAIStreamParser', () => {
  const body =
    ': keep-alive comment\n\n' +
    ev({ ...head, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }) +
    delta('Hél') +
    delta('lo 🦀', '\r\n') +
    delta(null) +
    ev({ ...head, choices: [{ index: 0, delta: { reasoning_content: 'thinking…' }, finish_reason: null }] }) +
    delta('\n```diff') +
    ev({ ...head, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) +
    ev({ ...head, choices: [], usage: { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 } }) +
    'data: [DONE]\n\n';
  const stream = enc(body);

  it('assembles the answer, finish reason and usage, at every byte boundary (comments, CRLF, null content)', () => {
    for (const cuts of cutsOf(stream.length)) {
      const s = summarize(feed(new OpenAIStreamParser(), stream, cuts));
      expect(s.text).toBe('Héllo 🦀\n```diff');
      expect(s.thinking).toBe('thinking…');
      expect(s.rest).toEqual([
        { type: 'finish', reason: 'stop' },
        { type: 'usage', promptTokens: 10, completionTokens: 4 },
        { type: 'done' },
      ]);
    }
  });

  it('accepts a last event without its closing blank line', () => {
    const s = summarize(feed(new OpenAIStreamParser(), enc(`${delta('a')}data: [DONE]`)));
    expect(s.rest).toEqual([{ type: 'done' }]);
  });

  it('turns an error object in the stream into MODEL_ERROR, at every byte boundary', () => {
    const input = enc(delta('partial') + ev({ error: { message: 'CUDA out of memory', type: 'server_error' } }));
    for (const cuts of cutsOf(input.length)) {
      const events = feed(new OpenAIStreamParser(), input, cuts);
      const err = streamError(events);
      expect(isHammerError(err, 'MODEL_ERROR')).toBe(true);
      expect(summarize(events).text).toBe('partial');
      expect((err as Error).message).toContain('CUDA out of memory');
    }
    for (const shape of [
      { error: 'plain' },
      { object: 'error', message: 'vllm says no', type: 'BadRequestError', code: 400 },
    ]) {
      expect(isHammerError(streamError(feed(new OpenAIStreamParser(), enc(ev(shape)))), 'MODEL_ERROR')).toBe(true);
    }
    const named = streamError(feed(new OpenAIStreamParser(), enc('event: error\ndata: overloaded\n\n'))) as Error;
    expect(named.message).toContain('overloaded');
  });

  it('refuses what is not an OpenAI event stream', () => {
    for (const bad of [
      '<html>nope</html>\n',
      'data: not json\n\n',
      `data: ${JSON.stringify({ foo: 1 })}\n\n`,
      'data: {"choices": "x"}\n\n',
    ]) {
      const err = streamError(feed(new OpenAIStreamParser(), enc(bad)));
      expect(isHammerError(err, 'MODEL_ERROR'), bad).toBe(true);
      expect((err as Error).message).toMatch(/not an OpenAI-compatible event stream: /);
    }
  });
});

describe('SseDecoder', () => {
  it('joins multi-line data, keeps event names and ignores id/retry and comments', () => {
    const input = enc('id: 1\nretry: 10\nevent: note\ndata: a\ndata:b\n: comment\n\ndata: c\n\n');
    for (const cuts of cutsOf(input.length)) {
      const d2 = new SseDecoder('SSE');
      let at = 0;
      const out = [];
      for (const cut of [...cuts, input.length]) {
        const r = d2.push(input.subarray(at, cut));
        expect(r.error).toBeUndefined();
        out.push(...r.events);
        at = cut;
      }
      out.push(...d2.end().events);
      expect(out).toEqual([
        { event: 'note', data: 'a\nb' },
        { event: 'message', data: 'c' },
      ]);
    }
  });

  it('keeps the events before a line that is not SSE and reports that line', () => {
    const r = new SseDecoder('SSE').push(enc('data: a\n\n<html>\n'));
    expect(r.events).toEqual([{ event: 'message', data: 'a' }]);
    expect(r.error?.message).toContain('not SSE: <html>');
  });
});
