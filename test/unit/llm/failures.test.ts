import { describe, expect, it } from 'vitest';
import { HammerError } from '../../../src/errors.js';
import { type ServerInfo, describeFailure } from '../../../src/llm/describe-failure.js';
import { netFailureKind } from '../../../src/llm/net-errors.js';

const coded = (code: string, message = code): Error => Object.assign(new Error(message), { code });

const server: ServerInfo = {
  label: 'Ollama',
  model: 'm',
  url: 'http://localhost:11434',
  unreachableHint: 'is Ollama running? start it with: ollama serve',
  httpError: (status) => new HammerError('MODEL_ERROR', `HTTP ${status}`),
  timeouts: { connect: 1, firstToken: 2, idle: 3, total: 4 },
};

describe('netFailureKind', () => {
  it('reads codes on the error, its causes and aggregated errors', () => {
    expect(netFailureKind(coded('ECONNREFUSED'))).toBe('refused');
    expect(netFailureKind(new TypeError('fetch failed', { cause: coded('ENOTFOUND') }))).toBe('dns');
    expect(netFailureKind(new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]))).toBe('refused');
    expect(netFailureKind(coded('UND_ERR_CONNECT_TIMEOUT'))).toBe('connect-timeout');
    expect(netFailureKind(coded('UNABLE_TO_VERIFY_LEAF_SIGNATURE'))).toBe('tls');
    expect(netFailureKind(coded('UND_ERR_SOCKET'))).toBe('reset');
    expect(netFailureKind(new Error('odd'))).toBe('other');
  });
  it('prefers the root cause over a socket error wrapped around it', () => {
    expect(netFailureKind(Object.assign(coded('UND_ERR_SOCKET'), { cause: coded('ECONNREFUSED') }))).toBe('refused');
  });
});

describe('describeFailure', () => {
  it('retries server errors and rate limits, not client errors', () => {
    expect(describeFailure(server, { kind: 'http', status: 500, body: '' }).retryable).toBe(true);
    expect(describeFailure(server, { kind: 'http', status: 503, body: '' }).retryable).toBe(true);
    const limited = describeFailure(server, { kind: 'http', status: 429, body: '', retryAfter: '1' });
    expect(limited).toMatchObject({ retryable: true, retryAfter: '1' });
    expect(describeFailure(server, { kind: 'http', status: 404, body: '' }).retryable).toBe(false);
    expect(describeFailure(server, { kind: 'http', status: 400, body: '' }).retryable).toBe(false);
  });

  it('says connection refused is unreachable, with the hint, and retries it', () => {
    const d = describeFailure(server, { kind: 'net', error: coded('ECONNREFUSED'), afterHeaders: false, tokens: 0 });
    expect(d.retryable).toBe(true);
    expect(d.error).toMatchObject({ code: 'MODEL_UNREACHABLE', hint: server.unreachableHint });
    expect(d.error.message).toContain('connection refused');
    const dns = describeFailure(server, { kind: 'net', error: coded('ENOTFOUND'), afterHeaders: false, tokens: 0 });
    expect(dns).toMatchObject({ retryable: false, error: { code: 'MODEL_UNREACHABLE', hint: server.unreachableHint } });
  });

  it('names the timeout that fired and retries only the first-token one', () => {
    const first = describeFailure(server, { kind: 'timeout', which: 'first_token', tokens: 0 });
    expect(first).toMatchObject({ retryable: true, error: { code: 'MODEL_TIMEOUT' } });
    expect(first.error.message).toContain('first_token_timeout');
    const idle = describeFailure(server, { kind: 'timeout', which: 'idle', tokens: 5 });
    expect(idle).toMatchObject({ retryable: false, error: { code: 'MODEL_TIMEOUT' } });
    expect(idle.error.message).toContain('idle_timeout');
    const total = describeFailure(server, { kind: 'timeout', which: 'timeout', tokens: 5 });
    expect(total.error.message).toContain('(timeout)');
    const connect = describeFailure(server, {
      kind: 'net',
      error: coded('UND_ERR_CONNECT_TIMEOUT'),
      afterHeaders: false,
      tokens: 0,
    });
    expect(connect).toMatchObject({ retryable: true, error: { code: 'MODEL_TIMEOUT' } });
    expect(connect.error.message).toContain('connect_timeout');
  });

  it('never retries once a token has arrived, and says the partial answer was discarded', () => {
    const broke = describeFailure(server, { kind: 'net', error: coded('ECONNRESET'), afterHeaders: true, tokens: 3 });
    expect(broke).toMatchObject({ retryable: false, error: { code: 'MODEL_ERROR' } });
    expect(broke.error.message).toContain('discarded');
    const cut = describeFailure(server, { kind: 'truncated', tokens: 3 });
    expect(cut.retryable).toBe(false);
    const early = describeFailure(server, { kind: 'truncated', tokens: 0 });
    expect(early.retryable).toBe(true);
    const stream = describeFailure(server, {
      kind: 'stream',
      error: new HammerError('MODEL_ERROR', 'boom'),
      tokens: 2,
    });
    expect(stream).toMatchObject({ retryable: false, error: { code: 'MODEL_ERROR' } });
    expect(stream.error.message).toMatch(/^boom .*discarded/);
  });
});
