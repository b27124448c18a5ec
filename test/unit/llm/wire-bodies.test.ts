import { describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../../src/config/schema.js';
import { sameModel } from '../../../src/llm/model-names.js';
import { ollamaChatBody, ollamaHttpError } from '../../../src/llm/ollama.js';
import { openAIChatBody, openAIHttpError } from '../../../src/llm/openai.js';
import { preview } from '../../../src/llm/preview.js';
import { openAIRoot, trimBase } from '../../../src/llm/urls.js';

const cfg: ModelConfig = {
  provider: 'ollama',
  name: 'qwen3-coder:30b',
  url: 'http://localhost:11434',
  api_key_env: 'OPENAI_API_KEY',
  temperature: 0.2,
  num_predict: 100,
  num_ctx: 8192,
  keep_alive: '10m',
  connect_timeout: 1,
  first_token_timeout: 1,
  idle_timeout: 1,
  timeout: 1,
  retries: 1,
  replay_run: '',
  edit_format: 'auto',
  tools: 'auto',
};
const messages = [{ role: 'user' as const, content: 'hi' }];

describe('request bodies', () => {
  it('sets Ollama options, num_ctx included, and keep_alive', () => {
    expect(ollamaChatBody(cfg, messages)).toEqual({
      model: 'qwen3-coder:30b',
      messages,
      stream: true,
      options: { temperature: 0.2, num_predict: 100, num_ctx: 8192 },
      keep_alive: '10m',
    });
  });
  it('sends a numeric keep_alive as a number and leaves an empty one out', () => {
    expect(ollamaChatBody({ ...cfg, keep_alive: '-1' }, messages).keep_alive).toBe(-1);
    expect(ollamaChatBody({ ...cfg, keep_alive: '300' }, messages).keep_alive).toBe(300);
    expect('keep_alive' in ollamaChatBody({ ...cfg, keep_alive: '' }, messages)).toBe(false);
  });
  it('asks an OpenAI-compatible server for a stream with usage', () => {
    expect(openAIChatBody(cfg, messages)).toEqual({
      model: 'qwen3-coder:30b',
      messages,
      stream: true,
      temperature: 0.2,
      max_tokens: 100,
      stream_options: { include_usage: true },
    });
  });
});

describe('HTTP errors', () => {
  it('recognises Ollama saying the model is missing, old and new wording', () => {
    for (const body of [
      '{"error":"model \\"x\\" not found, try pulling it first"}',
      `{"error":"model 'x' not found"}`,
    ]) {
      const err = ollamaHttpError(404, body, 'x', 'http://h:1');
      expect(err).toMatchObject({
        code: 'MODEL_NOT_FOUND',
        hint: 'pull it with: ollama pull x, or pass --model naming one it has',
      });
    }
    const wrongPath = ollamaHttpError(404, '404 page not found', 'x', 'http://h:1');
    expect(wrongPath.code).toBe('MODEL_ERROR');
    expect(ollamaHttpError(500, '{"error":"out of memory"}', 'x', 'http://h:1').message).toContain('out of memory');
  });
  it('recognises OpenAI-style missing models and refused keys', () => {
    const ctx = { model: 'x', root: 'http://h:1', keyEnv: 'MY_KEY', keySet: false };
    const missing = openAIHttpError(
      404,
      JSON.stringify({ error: { message: 'The model `x` does not exist.', code: 'model_not_found' } }),
      ctx,
    );
    expect(missing.code).toBe('MODEL_NOT_FOUND');
    const vllm = openAIHttpError(
      404,
      JSON.stringify({ object: 'error', message: 'The model `x` does not exist.', type: 'NotFoundError', code: 404 }),
      ctx,
    );
    expect(vllm.code).toBe('MODEL_NOT_FOUND');
    expect(openAIHttpError(401, '{"error":"unauthorized"}', ctx).hint).toBe("set MY_KEY to the server's API key");
    expect(openAIHttpError(401, '', { ...ctx, keySet: true }).hint).toContain('refused the API key in MY_KEY');
  });
});

describe('names and URLs', () => {
  it('treats name and name:latest as one model', () => {
    expect(sameModel('llama3', 'llama3:latest')).toBe(true);
    expect(sameModel('llama3:8b', 'llama3:latest')).toBe(false);
    expect(sameModel('registry:5000/ns/m', 'registry:5000/ns/m:latest')).toBe(true);
  });
  it('accepts an OpenAI base with or without /v1 and trailing slashes', () => {
    expect(openAIRoot('http://h:8000/v1/')).toBe('http://h:8000');
    expect(openAIRoot('http://h:8000')).toBe('http://h:8000');
    expect(openAIRoot('http://h/proxy/v1')).toBe('http://h/proxy');
    expect(trimBase('http://h:11434//')).toBe('http://h:11434');
  });
  it('previews text with control characters escaped and a length limit', () => {
    expect(preview('a\u001b[2Jb\r\n\u202e')).toBe('a\\x1b[2Jb\\r\\n\\u202e');
    expect(preview('🦀'.repeat(100), 3)).toBe('🦀🦀🦀…');
  });
});

describe('tools in request bodies', () => {
  const tools = [{ name: 'read_file', description: 'Show a file.', parameters: { type: 'object', properties: {} } }];
  const calls = [{ id: 'call_a', name: 'read_file', arguments: '{"path":"a.py"}' }];
  const convo = [
    { role: 'user' as const, content: 'fix it' },
    { role: 'assistant' as const, content: '', toolCalls: calls },
    { role: 'tool' as const, content: 'the file', toolCallId: 'call_a', toolName: 'read_file' },
  ];
  const fn = {
    type: 'function',
    function: { name: 'read_file', description: 'Show a file.', parameters: tools[0]!.parameters },
  };

  it('offers tools to Ollama and continues with the call (arguments as an object) and a tool message by name', () => {
    const body = ollamaChatBody(cfg, convo, tools);
    expect(body.tools).toEqual([fn]);
    expect(body.messages).toEqual([
      { role: 'user', content: 'fix it' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'read_file', arguments: { path: 'a.py' } } }],
      },
      { role: 'tool', content: 'the file', tool_name: 'read_file' },
    ]);
    expect(ollamaChatBody(cfg, messages)).not.toHaveProperty('tools');
  });

  it('offers tools to OpenAI-compatible servers and continues with the call (arguments as text) and a tool message by id', () => {
    const body = openAIChatBody(cfg, convo, tools);
    expect(body.tools).toEqual([fn]);
    expect(body.messages).toEqual([
      { role: 'user', content: 'fix it' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.py"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'the file' },
    ]);
    expect(openAIChatBody(cfg, messages, [])).not.toHaveProperty('tools');
  });
});
