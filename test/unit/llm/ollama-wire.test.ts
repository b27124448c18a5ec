import { describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { OllamaStreamParser } from '../../../src/llm/ollama-wire.js';
import { cutsOf, feed, streamError, summarize } from './split-feed.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const line = (o: unknown): string => `${JSON.stringify(o)}\n`;
const chunk = (content: string): string =>
  line({ model: 'm', created_at: '2024-01-01T00:00:00Z', message: { role: 'assistant', content }, done: false });
const final = line({
  model: 'm',
  created_at: '2024-01-01T00:00:00Z',
  message: { role: 'assistant', content: '' },
  done: true,
  done_reason: 'stop',
  total_duration: 5,
  prompt_eval_count: 12,
  eval_count: 3,
  eval_duration: 4,
});

describe('OllamaStreamParser', () => {
  const stream = enc(chunk('Hél') + chunk('lo 🦀') + chunk('\n```diff') + final);

  it('assembles the answer and reads the final counts, at every byte boundary', () => {
    for (const cuts of cutsOf(stream.length)) {
      const s = summarize(feed(new OllamaStreamParser(), stream, cuts));
      expect(s.text).toBe('Héllo 🦀\n```diff');
      expect(s.rest).toEqual([
        { type: 'usage', promptTokens: 12, completionTokens: 3 },
        { type: 'finish', reason: 'stop' },
        { type: 'done' },
      ]);
    }
  });

  it('reports thinking apart from the answer and ignores blank lines', () => {
    const input = enc(
      `\n${line({ message: { role: 'assistant', content: '', thinking: 'hmm' }, done: false })}\n${chunk('ok')}${final}`,
    );
    const s = summarize(feed(new OllamaStreamParser(), input));
    expect(s.text).toBe('ok');
    expect(s.thinking).toBe('hmm');
  });

  it('turns an error line mid-stream into MODEL_ERROR with its message, at every byte boundary', () => {
    const input = enc(chunk('partial') + line({ error: 'llama runner process has terminated' }));
    for (const cuts of cutsOf(input.length)) {
      const events = feed(new OllamaStreamParser(), input, cuts);
      const err = streamError(events);
      expect(isHammerError(err, 'MODEL_ERROR')).toBe(true);
      expect(summarize(events).text).toBe('partial'); // what came before the error, even in the same chunk
      expect((err as Error).message).toContain('llama runner process has terminated');
    }
  });

  it('refuses lines that are not Ollama NDJSON, quoting them safely', () => {
    for (const bad of [
      '<html>\u001b[31mnope</html>',
      '{"foo":1}',
      '42',
      '"text"',
      '{"done":"yes"}',
      `${'x'.repeat(200)}`,
    ]) {
      const err = streamError(feed(new OllamaStreamParser(), enc(`${bad}\n`)));
      expect(isHammerError(err, 'MODEL_ERROR'), bad).toBe(true);
      expect((err as Error).message).toMatch(/^the model server sent something that is not Ollama NDJSON: /);
      expect((err as Error).message).not.toContain('\u001b');
    }
    const long = streamError(feed(new OllamaStreamParser(), enc(`${'x'.repeat(200)}\n`))) as Error;
    expect(long.message).toContain(`${'x'.repeat(80)}…`);
    expect(long.message).not.toContain('x'.repeat(81));
    const esc = streamError(feed(new OllamaStreamParser(), enc('<html>\u001b[31m\n'))) as Error;
    expect(esc.message).toContain('<html>\\x1b[31m');
  });

  it('stops at the first error: nothing after it, not even on later pushes', () => {
    const p = new OllamaStreamParser();
    const first = p.push(enc(`${chunk('a')}garbage\n${chunk('b')}`));
    expect(first.map((e) => e.type)).toEqual(['delta', 'error']);
    expect(p.push(enc(chunk('c') + final))).toEqual([]);
    expect(p.end()).toEqual([]);
  });

  it('refuses a count that is not a count', () => {
    const bad = enc(line({ done: true, eval_count: -1 }));
    expect(isHammerError(streamError(feed(new OllamaStreamParser(), bad)), 'MODEL_ERROR')).toBe(true);
  });

  it('does not report done for a stream that stops early', () => {
    const s = summarize(feed(new OllamaStreamParser(), enc(chunk('half'))));
    expect(s.text).toBe('half');
    expect(s.rest).toEqual([]);
  });
});
