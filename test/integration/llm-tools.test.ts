// Tools through the real providers against a real HTTP server: the tools offered, the calls read
// back from NDJSON and SSE, the conversation continued in each API's shape, and a server that
// refuses tools answered again without them, once, for the rest of the provider's life.
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../src/config/schema.js';
import { ASK_TOOLS } from '../../src/context/index.js';
import { type ChatMessage, createProvider } from '../../src/llm/index.js';
import { type ModelServer, type Script, startModelServer } from '../helpers/model-server.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function modelConfig(over: Partial<ModelConfig>): ModelConfig {
  return {
    provider: 'ollama',
    name: 'test-model',
    url: 'http://127.0.0.1:9',
    api_key_env: 'HB_TEST_API_KEY',
    temperature: 0.3,
    num_predict: 256,
    num_ctx: 4096,
    keep_alive: '5m',
    connect_timeout: 2,
    first_token_timeout: 5,
    idle_timeout: 5,
    timeout: 30,
    retries: 0,
    replay_run: '',
    edit_format: 'auto',
    tools: 'auto',
    ...over,
  };
}

async function serve(script: Script[]): Promise<ModelServer> {
  const server = await startModelServer({ script });
  cleanups.push(() => server.close());
  return server;
}

function provider(cfg: ModelConfig) {
  const p = createProvider(cfg, { env: {} });
  cleanups.push(() => p.close());
  return p;
}

const messages: ChatMessage[] = [
  { role: 'system', content: 'You fix code.' },
  { role: 'user', content: 'Fix the failing test in calc.py' },
];
const body = (server: ModelServer, i: number) => server.chatRequests()[i]?.body as Record<string, unknown>;

describe.each(['ollama', 'openai'] as const)('%s provider with tools', (kind) => {
  it('offers the tools, reads two calls back whole, and sends the continuation in its API shape', async () => {
    const server = await serve([
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: 'src/calc.py', start_line: 2, end_line: 9 } },
          { name: 'search', arguments: { query: 'def add' } },
        ],
        fragment: 3,
      },
      { answer: 'NO_CHANGES' },
    ]);
    const p = provider(modelConfig({ provider: kind, url: server.url }));
    const first = await p.generate({ messages, tools: ASK_TOOLS });
    expect(first.text).toBe('');
    expect(first.toolsRefused).toBeUndefined();
    expect(first.toolCalls?.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ['read_file', { path: 'src/calc.py', start_line: 2, end_line: 9 }],
      ['search', { query: 'def add' }],
    ]);
    expect(body(server, 0).tools).toEqual(
      ASK_TOOLS.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      })),
    );
    const calls = first.toolCalls!;
    const next: ChatMessage[] = [
      ...messages,
      { role: 'assistant', content: '', toolCalls: calls },
      { role: 'tool', content: 'lines of calc.py', toolCallId: calls[0]!.id, toolName: 'read_file' },
      { role: 'tool', content: 'no line holds it', toolCallId: calls[1]!.id, toolName: 'search' },
    ];
    expect((await p.generate({ messages: next })).text).toBe('NO_CHANGES');
    const sent = (body(server, 1).messages as unknown[]).slice(2);
    if (kind === 'ollama') {
      expect(sent).toEqual([
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { function: { name: 'read_file', arguments: { path: 'src/calc.py', start_line: 2, end_line: 9 } } },
            { function: { name: 'search', arguments: { query: 'def add' } } },
          ],
        },
        { role: 'tool', content: 'lines of calc.py', tool_name: 'read_file' },
        { role: 'tool', content: 'no line holds it', tool_name: 'search' },
      ]);
    } else {
      expect(calls.map((c) => c.id)).toEqual(['call_test_0', 'call_test_1']);
      expect(sent).toEqual([
        {
          role: 'assistant',
          content: null,
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: c.arguments },
          })),
        },
        { role: 'tool', tool_call_id: 'call_test_0', content: 'lines of calc.py' },
        { role: 'tool', tool_call_id: 'call_test_1', content: 'no line holds it' },
      ]);
    }
    expect(body(server, 1)).not.toHaveProperty('tools');
  });

  it('asks again without tools when the server refuses them, and never offers them again', async () => {
    const refusal: Script =
      kind === 'ollama'
        ? { status: 400, body: { error: 'registry.ollama.ai/library/test-model:latest does not support tools' } }
        : {
            status: 400,
            body: { object: 'error', message: '"auto" tool choice requires --enable-auto-tool-choice', code: 400 },
          };
    const server = await serve([refusal, { answer: 'READ calc.py' }, { answer: 'NO_CHANGES' }]);
    const p = provider(modelConfig({ provider: kind, url: server.url }));
    const first = await p.generate({ messages, tools: ASK_TOOLS });
    expect(first.text).toBe('READ calc.py');
    expect(first.toolsRefused).toMatch(/^HTTP 400: .*tool/);
    expect(first.attempts).toBe(1);
    const second = await p.generate({ messages, tools: ASK_TOOLS });
    expect(second.text).toBe('NO_CHANGES');
    expect(second.toolsRefused).toBeUndefined();
    expect(server.chatRequests().map((r) => 'tools' in (r.body as object))).toEqual([true, false, false]);
  });

  it('still fails on a 400 that is not about tools', async () => {
    const server = await serve([{ status: 400, body: { error: 'the prompt is too long' } }]);
    const p = provider(modelConfig({ provider: kind, url: server.url }));
    await expect(p.generate({ messages, tools: ASK_TOOLS })).rejects.toMatchObject({ code: 'MODEL_ERROR' });
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('offers no tools when [model] tools = "off"', async () => {
    const server = await serve([{ answer: 'NO_CHANGES' }]);
    const p = provider(modelConfig({ provider: kind, url: server.url, tools: 'off' }));
    await p.generate({ messages, tools: ASK_TOOLS });
    expect(body(server, 0)).not.toHaveProperty('tools');
  });
});

describe('replay provider with tool calls', () => {
  it('plays recorded tool calls back with their answer', async () => {
    const toolCalls = [{ id: 'call_1', name: 'read_file', arguments: '{"path":"a.py"}' }];
    const p = createProvider(modelConfig({ provider: 'replay' }), {
      replayAnswers: [{ text: '', toolCalls }, { text: 'NO_CHANGES' }],
    });
    expect(await p.generate({ messages, tools: ASK_TOOLS })).toMatchObject({ text: '', toolCalls });
    expect((await p.generate({ messages })).toolCalls).toBeUndefined();
  });
});
