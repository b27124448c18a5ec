// The model providers against a real HTTP server speaking Ollama's and the OpenAI wire formats.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelConfig } from '../../src/config/schema.js';
import { HammerError, isHammerError } from '../../src/errors.js';
import { type GenerateProgress, type ModelProvider, createProvider } from '../../src/llm/index.js';
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

async function serve(script: Script[], models?: string[]): Promise<ModelServer> {
  const server = await startModelServer({ script, models });
  cleanups.push(() => server.close());
  return server;
}

/** A provider whose backoff sleeps are recorded instead of waited. */
function provider(cfg: ModelConfig, env: NodeJS.ProcessEnv = {}): { p: ModelProvider; sleeps: number[] } {
  const sleeps: number[] = [];
  const p = createProvider(cfg, {
    env,
    timing: {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    },
  });
  cleanups.push(() => p.close());
  return { p, sleeps };
}

async function failure(promise: Promise<unknown>): Promise<HammerError> {
  const err = await promise.then(
    (v) => {
      throw new Error(`expected a failure, got ${JSON.stringify(v)}`);
    },
    (e: unknown) => e,
  );
  if (!(err instanceof HammerError)) throw err;
  return err;
}

async function closedPortUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

const messages = [
  { role: 'system' as const, content: 'You fix code.' },
  { role: 'user' as const, content: 'Fix the failing test in calc.py' },
];
const ANSWER =
  'Here is the fix:\n```diff\n--- a/calc.py\n+++ b/calc.py\n@@ -1 +1 @@\n-return a - b\n+return a + b\n```\n';

describe.each(['ollama', 'openai'] as const)('%s provider', (kind) => {
  const chatPath = kind === 'ollama' ? '/api/chat' : '/v1/chat/completions';

  it('reports an answer the server stopped at the token limit as finishReason "length"', async () => {
    const server = await serve([{ answer: ANSWER.slice(0, 40), doneReason: 'length' }]);
    const { p } = provider(modelConfig({ provider: kind, url: server.url }));
    const result = await p.generate({ messages });
    expect(result).toMatchObject({ text: ANSWER.slice(0, 40), finishReason: 'length' });
  });

  it('takes an answer from a server that ends it without a finish reason, with none', async () => {
    const server = await serve([{ answer: ANSWER.slice(0, 40), doneReason: null }]);
    const { p } = provider(modelConfig({ provider: kind, url: server.url }));
    const result = await p.generate({ messages });
    expect(result.text).toBe(ANSWER.slice(0, 40));
    expect(result.finishReason).toBeUndefined();
  });

  it('assembles a streamed answer and sends the model, messages and options', async () => {
    const server = await serve([{ answer: ANSWER, chunkSize: 3 }]);
    const { p } = provider(modelConfig({ provider: kind, url: server.url }));
    const progress: Array<{ p: GenerateProgress; delta: string }> = [];
    const result = await p.generate({ messages, onProgress: (pr, delta) => progress.push({ p: pr, delta }) });

    expect(result.text).toBe(ANSWER);
    expect(result).toMatchObject({ model: 'test-model', attempts: 1, finishReason: 'stop' });
    expect(result.completionTokens).toBe(Math.ceil(ANSWER.length / 3));
    expect(result.promptTokens).toBeGreaterThan(0);
    expect(progress.map((x) => x.delta).join('')).toBe(ANSWER);
    expect(progress.map((x) => x.p.tokens)).toEqual(progress.map((_, i) => i + 1));

    const [req] = server.chatRequests();
    expect(req?.path).toBe(chatPath);
    expect(req?.body).toMatchObject({ model: 'test-model', messages, stream: true });
    if (kind === 'ollama') {
      expect(req?.body).toMatchObject({
        options: { temperature: 0.3, num_ctx: 4096, num_predict: 256 },
        keep_alive: '5m',
      });
    } else {
      expect(req?.body).toMatchObject({ temperature: 0.3, max_tokens: 256, stream_options: { include_usage: true } });
    }
  });

  it('says the model is missing, with what to do', async () => {
    const server = await serve([{ answer: 'never sent' }], ['other-model']);
    const { p } = provider(modelConfig({ provider: kind, url: server.url, name: 'qwen3-coder:30b', retries: 2 }));
    const err = await failure(p.generate({ messages }));
    expect(err.code).toBe('MODEL_NOT_FOUND');
    if (kind === 'ollama')
      expect(err.hint).toBe('pull it with: ollama pull qwen3-coder:30b, or pass --model naming one it has');
    // the server's models, asked for once the chat request said the model is missing
    expect(err.message).toMatch(kind === 'ollama' ? /; it has: other-model:latest$/ : /; it has: other-model$/);
    expect(server.chatRequests()).toHaveLength(1); // not retried
  });

  it('says the server is unreachable when nothing listens, after retrying', async () => {
    const url = await closedPortUrl();
    const { p, sleeps } = provider(modelConfig({ provider: kind, url, retries: 2 }));
    const err = await failure(p.generate({ messages }));
    expect(err.code).toBe('MODEL_UNREACHABLE');
    expect(err.message).toContain('connection refused');
    expect(err.message).toContain('after 3 attempts');
    if (kind === 'ollama') expect(err.hint).toBe('is Ollama running? start it with: ollama serve');
    else expect(err.hint).toContain(url);
    expect(sleeps).toHaveLength(2);
  });

  it('fails on an error chunk mid-stream, never returns the partial answer and does not retry', async () => {
    const server = await serve([
      { errorAfter: 'Here is the fi', error: 'llama runner process has terminated' },
      { answer: 'second' },
    ]);
    const { p, sleeps } = provider(modelConfig({ provider: kind, url: server.url, retries: 2 }));
    const seen: string[] = [];
    const err = await failure(p.generate({ messages, onProgress: (_, d) => seen.push(d) }));
    expect(err.code).toBe('MODEL_ERROR');
    expect(err.message).toContain('llama runner process has terminated');
    expect(err.message).toContain('partial answer was discarded');
    expect(seen.join('')).toBe('Here is the fi');
    expect(server.chatRequests()).toHaveLength(1);
    expect(sleeps).toEqual([]);
    // the connection is not left in a bad state: the next request on the same provider works
    expect((await p.generate({ messages })).text).toBe('second');
  });

  it('retries a 500 before the first token and succeeds', async () => {
    const server = await serve([{ status: 500, body: { error: 'server busy' } }, { answer: ANSWER }]);
    const { p, sleeps } = provider(modelConfig({ provider: kind, url: server.url, retries: 2 }));
    const result = await p.generate({ messages });
    expect(result).toMatchObject({ text: ANSWER, attempts: 2 });
    expect(server.chatRequests()).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(125);
    expect(sleeps[0]).toBeLessThanOrEqual(250);
  });

  it('waits as long as a 429 asks before retrying', async () => {
    const server = await serve([
      { status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '2' } },
      { answer: 'ok' },
    ]);
    const { p, sleeps } = provider(modelConfig({ provider: kind, url: server.url, retries: 1 }));
    expect(await p.generate({ messages })).toMatchObject({ text: 'ok', attempts: 2 });
    expect(sleeps).toEqual([2000]);
  });

  it('gives up on a 500 after the configured retries, naming the status', async () => {
    const server = await serve([
      { status: 503, body: { error: 'overloaded' } },
      { status: 503, body: { error: 'overloaded' } },
    ]);
    const { p } = provider(modelConfig({ provider: kind, url: server.url, retries: 1 }));
    const err = await failure(p.generate({ messages }));
    expect(err.code).toBe('MODEL_ERROR');
    expect(err.message).toContain('HTTP 503');
    expect(err.message).toContain('after 2 attempts');
  });

  it('times out waiting for the first token, and retries that', async () => {
    const server = await serve([{ hang: true }, { hang: true }]);
    const { p } = provider(modelConfig({ provider: kind, url: server.url, first_token_timeout: 0.2, retries: 1 }));
    const err = await failure(p.generate({ messages }));
    expect(err.code).toBe('MODEL_TIMEOUT');
    expect(err.message).toContain('first_token_timeout');
    expect(server.chatRequests()).toHaveLength(2);
  });

  it('times out when the answer dribbles slower than idle_timeout, without retrying', async () => {
    const server = await serve([{ dribble: 'slow answer', intervalMs: 1000 }, { answer: 'unused' }]);
    const { p } = provider(modelConfig({ provider: kind, url: server.url, idle_timeout: 0.2, retries: 2 }));
    const err = await failure(p.generate({ messages }));
    expect(err.code).toBe('MODEL_TIMEOUT');
    expect(err.message).toContain('idle_timeout');
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('refuses garbage', async () => {
    const server = await serve([{ garbage: '<html><body>502 Bad Gateway</body></html>\n' }]);
    const { p } = provider(modelConfig({ provider: kind, url: server.url }));
    const err = await failure(p.generate({ messages }));
    expect(err.code).toBe('MODEL_ERROR');
    expect(err.message).toContain('<html><body>502 Bad Gateway');
    expect(err.message).toContain(kind === 'ollama' ? 'not Ollama NDJSON' : 'not an OpenAI-compatible event stream');
  });

  it('stops a hanging request when the signal fires', async () => {
    const server = await serve([{ hang: true }]);
    const { p } = provider(modelConfig({ provider: kind, url: server.url, first_token_timeout: 60, timeout: 120 }));
    const ctl = new AbortController();
    const pending = p.generate({ messages, signal: ctl.signal });
    // abort once the server holds the request
    while (server.chatRequests().length === 0) await new Promise((r) => setTimeout(r, 5));
    ctl.abort();
    const err = await failure(pending);
    expect(err.code).toBe('ABORTED');
  });

  it('releases its connections after an abort, a timeout, a mid-stream error and close()', async () => {
    const server = await serve([
      { hang: true },
      { hang: true },
      { errorAfter: 'abc', error: 'boom' },
      { answer: 'fine' },
    ]);
    const p = createProvider(modelConfig({ provider: kind, url: server.url, first_token_timeout: 0.2 }));
    const ctl = new AbortController();
    const aborted = p.generate({ messages, signal: ctl.signal });
    while (server.chatRequests().length === 0) await new Promise((r) => setTimeout(r, 5));
    ctl.abort();
    expect((await failure(aborted)).code).toBe('ABORTED');
    expect((await failure(p.generate({ messages }))).code).toBe('MODEL_TIMEOUT');
    expect((await failure(p.generate({ messages }))).code).toBe('MODEL_ERROR');
    expect((await p.generate({ messages })).text).toBe('fine');
    // the answered request may keep one idle keep-alive connection; the broken ones are gone
    await vi.waitFor(() => expect(server.connections()).toBeLessThanOrEqual(1), { timeout: 5000 });
    await p.close();
    await vi.waitFor(() => expect(server.connections()).toBe(0), { timeout: 5000 });
  });

  it('checks that the server is up and has the model', async () => {
    const server = await serve([], ['test-model', 'other']);
    const ok = await provider(modelConfig({ provider: kind, url: server.url })).p.check();
    expect(ok).toMatchObject({ reachable: true, modelPresent: true });
    expect(ok.models?.length).toBe(2);
    const missing = await provider(modelConfig({ provider: kind, url: server.url, name: 'absent' })).p.check();
    expect(missing).toMatchObject({ reachable: true, modelPresent: false });
    if (kind === 'ollama') expect(missing.detail).toContain('ollama pull absent');
    const down = await provider(modelConfig({ provider: kind, url: await closedPortUrl() })).p.check();
    expect(down).toMatchObject({ reachable: false, modelPresent: false });
    expect(down.detail).toContain('connection refused');
  });
});

describe('openai provider specifics', () => {
  it('sends the API key only when its variable is set', async () => {
    const server = await serve([{ answer: 'a' }, { answer: 'b' }]);
    await provider(modelConfig({ provider: 'openai', url: server.url }), {}).p.generate({ messages });
    await provider(modelConfig({ provider: 'openai', url: server.url }), { HB_TEST_API_KEY: 'sk-test-123' }).p.generate(
      { messages },
    );
    const [without, withKey] = server.chatRequests();
    expect(without?.headers.authorization).toBeUndefined();
    expect(withKey?.headers.authorization).toBe('Bearer sk-test-123');
  });

  it('accepts a URL ending in /v1', async () => {
    const server = await serve([{ answer: 'ok' }]);
    const result = await provider(modelConfig({ provider: 'openai', url: `${server.url}/v1/` })).p.generate({
      messages,
    });
    expect(result.text).toBe('ok');
    expect(server.chatRequests()[0]?.path).toBe('/v1/chat/completions');
  });
});

describe('ollama provider specifics', () => {
  it('finds a model listed as name:latest when configured without a tag', async () => {
    const server = await serve([{ answer: 'ok' }], ['test-model:latest']);
    const { p } = provider(modelConfig({ url: server.url, name: 'test-model' }));
    expect(await p.check()).toMatchObject({ modelPresent: true });
    expect((await p.generate({ messages })).text).toBe('ok');
  });

  it('bounds the whole answer with timeout even while tokens keep coming', async () => {
    const server = await serve([{ dribble: 'a steady but endless answer', intervalMs: 50 }]);
    const { p } = provider(modelConfig({ url: server.url, idle_timeout: 5, timeout: 0.3 }));
    const err = await failure(p.generate({ messages }));
    expect(err.code).toBe('MODEL_TIMEOUT');
    expect(err.message).toContain('within 0.3 s (timeout); the partial answer was discarded');
  });

  it('does not retry a failure after the first token (connection dropped mid-answer)', async () => {
    const server = await serve([{ dribble: 'abcdef', intervalMs: 50 }, { answer: 'unused' }]);
    const { p } = provider(modelConfig({ url: server.url, retries: 3 }));
    const pending = p.generate({
      messages,
      onProgress: () => {
        void server.close();
      },
    });
    const err = await failure(pending);
    expect(isHammerError(err)).toBe(true);
    expect(err.message).toContain('discarded');
    expect(server.chatRequests()).toHaveLength(1);
  });
});

describe('replay provider', () => {
  it('returns the recorded answers in order', async () => {
    const p = createProvider(modelConfig({ provider: 'replay' }), {
      replayAnswers: [{ text: 'first' }, { text: 'second' }],
    });
    expect((await p.generate({ messages })).text).toBe('first');
    expect((await p.generate({ messages })).text).toBe('second');
    expect((await failure(p.generate({ messages }))).code).toBe('MODEL_ERROR');
  });
});
