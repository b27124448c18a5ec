// Tool calls from both wire formats, put together whole: Ollama's calls in one chunk, OpenAI's
// argument fragments over several events, two calls interleaved by index.
import { describe, expect, it } from 'vitest';
import { OllamaStreamParser } from '../../../src/llm/ollama-wire.js';
import { OpenAIStreamParser } from '../../../src/llm/openai-wire.js';
import { ToolCallAssembler } from '../../../src/llm/tool-calls.js';
import { toolsRefusal } from '../../../src/llm/tool-wire.js';
import type { ToolCall } from '../../../src/llm/types.js';
import type { WireEvent } from '../../../src/llm/wire-events.js';
import { cutsOf, feed, summarize } from './split-feed.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

function calls(events: WireEvent[]): ToolCall[] {
  const a = new ToolCallAssembler();
  for (const ev of events) if (ev.type === 'tool_call') a.push(ev);
  return a.result();
}

describe('Ollama tool_calls', () => {
  const line = (o: unknown): string => `${JSON.stringify(o)}\n`;
  const body =
    line({
      model: 'm',
      message: {
        role: 'assistant',
        content: '',
        tool_calls: [
          { function: { name: 'read_file', arguments: { path: 'src/calc.py', start_line: 2 } } },
          { id: 'call_x', function: { name: 'search', arguments: { query: 'def add' } } },
        ],
      },
      done: false,
    }) +
    line({
      model: 'm',
      message: {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'read_file', arguments: { path: 'b.py' } } }],
      },
      done: false,
    }) +
    line({ model: 'm', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' });

  it('reads each call whole, arguments as JSON text, numbered across chunks, at every byte boundary', () => {
    const stream = enc(body);
    for (const cuts of cutsOf(stream.length).slice(0, 400)) {
      const events = feed(new OllamaStreamParser(), stream, cuts);
      expect(calls(events)).toEqual([
        { id: 'call_0', name: 'read_file', arguments: '{"path":"src/calc.py","start_line":2}' },
        { id: 'call_x', name: 'search', arguments: '{"query":"def add"}' },
        { id: 'call_2', name: 'read_file', arguments: '{"path":"b.py"}' },
      ]);
      expect(summarize(events).rest.at(-1)).toEqual({ type: 'done' });
    }
  });
});

describe('OpenAI tool_calls', () => {
  const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm' };
  const ev = (toolCalls: unknown[], finish: string | null = null): string =>
    `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta: { tool_calls: toolCalls }, finish_reason: finish }] })}\n\n`;
  const body =
    ev([{ index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '' } }]) +
    ev([{ index: 1, id: 'call_b', type: 'function', function: { name: 'search', arguments: '{"qu' } }]) +
    ev([{ index: 0, function: { arguments: '{"path": "src/' } }]) +
    ev([{ index: 1, function: { arguments: 'ery": "def ' } }]) +
    ev([{ index: 0, function: { arguments: 'calc.py", "start_line": 3}' } }]) +
    ev([{ index: 1, function: { arguments: 'add"}' } }]) +
    `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })}\n\n` +
    'data: [DONE]\n\n';

  it('concatenates the argument fragments per index, two calls interleaved, at every byte boundary', () => {
    const stream = enc(body);
    for (const cuts of cutsOf(stream.length).slice(0, 400)) {
      const events = feed(new OpenAIStreamParser(), stream, cuts);
      expect(calls(events)).toEqual([
        { id: 'call_a', name: 'read_file', arguments: '{"path": "src/calc.py", "start_line": 3}' },
        { id: 'call_b', name: 'search', arguments: '{"query": "def add"}' },
      ]);
      expect(JSON.parse(calls(events)[0]!.arguments)).toEqual({ path: 'src/calc.py', start_line: 3 });
      expect(summarize(events).rest.filter((e) => e.type !== 'tool_call')).toEqual([
        { type: 'finish', reason: 'tool_calls' },
        { type: 'done' },
      ]);
    }
  });

  it('keeps malformed arguments as the text sent (the ask loop answers them as unusable)', () => {
    const bad =
      ev([{ index: 0, id: 'call_a', function: { name: 'read_file', arguments: '{"path": "a.py"' } }]) +
      'data: [DONE]\n\n';
    expect(calls(feed(new OpenAIStreamParser(), enc(bad)))).toEqual([
      { id: 'call_a', name: 'read_file', arguments: '{"path": "a.py"' },
    ]);
  });

  it('numbers calls a server sends whole without an index by their place in the delta', () => {
    const whole =
      ev([
        { function: { name: 'read_file', arguments: '{"path":"a.py"}' } },
        { function: { name: 'search', arguments: '{"query":"x"}' } },
      ]) + 'data: [DONE]\n\n';
    expect(calls(feed(new OpenAIStreamParser(), enc(whole)))).toEqual([
      { id: 'call_0', name: 'read_file', arguments: '{"path":"a.py"}' },
      { id: 'call_1', name: 'search', arguments: '{"query":"x"}' },
    ]);
  });
});

describe('toolsRefusal', () => {
  it("recognises Ollama's and OpenAI-compatible servers' refusals of tools, and nothing else", () => {
    expect(toolsRefusal(400, '{"error":"registry.ollama.ai/library/x:latest does not support tools"}')).toMatch(
      /^HTTP 400: .*does not support tools/,
    );
    expect(
      toolsRefusal(400, '{"object":"error","message":"\\"auto\\" tool choice requires --enable-auto-tool-choice"}'),
    ).not.toBeNull();
    expect(toolsRefusal(500, '{"error":"tools broke"}')).toBeNull();
    expect(toolsRefusal(400, '{"error":"context length exceeded"}')).toBeNull();
    expect(toolsRefusal(404, '{"error":"model not found"}')).toBeNull();
  });
});
