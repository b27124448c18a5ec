// One streamed HTTP request to a model server, with its first-token, idle and overall timers.
import { request } from 'undici';
import type { Dispatcher } from 'undici';
import { HammerError, isHammerError } from '../errors.js';
import { ToolCallAssembler } from './tool-calls.js';
import type { ToolCall } from './types.js';
import type { StreamParser } from './wire-events.js';

/** Which of our timers ended an attempt. */
export type TimeoutKind = 'first_token' | 'idle' | 'timeout';

/** Largest answer kept in memory; far above any num_predict a model is run with. */
export const MAX_ANSWER_CHARS = 16 * 1024 * 1024;
/** Bytes of an error response body kept for the message. */
const ERROR_BODY_CAP = 64 * 1024;

/** What one attempt needs. Times in milliseconds. */
export interface AttemptOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  dispatcher: Dispatcher;
  parser: StreamParser;
  signal?: AbortSignal;
  firstTokenMs: number;
  idleMs: number;
  /** Time left of the whole answer's budget. */
  remainingMs: number;
  /** Called for each delta as it arrives. */
  onDelta: (text: string, thinking: string) => void;
}

/** How an attempt went wrong, as data; the caller decides what it means and whether to retry. */
export type AttemptFailure =
  | { kind: 'aborted' }
  | { kind: 'http'; status: number; body: string; retryAfter?: string }
  | { kind: 'net'; error: unknown; afterHeaders: boolean; tokens: number }
  | { kind: 'timeout'; which: TimeoutKind; tokens: number }
  | { kind: 'stream'; error: HammerError; tokens: number }
  | { kind: 'truncated'; tokens: number };

/** A complete answer from one attempt. */
export interface AttemptAnswer {
  text: string;
  promptTokens?: number;
  completionTokens?: number;
  finishReason?: string;
  /** The tools the model called (absent when none). */
  toolCalls?: ToolCall[];
}

/** The result of one attempt. */
export type AttemptOutcome = { ok: true; answer: AttemptAnswer } | { ok: false; failure: AttemptFailure };

/** POST the request and read the streamed answer to its end; never throws, always releases the body. */
export async function runAttempt(o: AttemptOptions): Promise<AttemptOutcome> {
  if (o.signal?.aborted) return { ok: false, failure: { kind: 'aborted' } };
  const ctl = new AbortController();
  let timedOut: TimeoutKind | undefined;
  const fire = (which: TimeoutKind): void => {
    if (timedOut !== undefined) return;
    timedOut = which;
    ctl.abort(new Error(`model request ${which} timeout`));
  };
  const onAbort = (): void => ctl.abort(o.signal?.reason);
  o.signal?.addEventListener('abort', onAbort, { once: true });
  const whole = setTimeout(() => fire('timeout'), Math.max(0, o.remainingMs));
  let phase = setTimeout(() => fire('first_token'), o.firstTokenMs);
  let body: Dispatcher.ResponseData['body'] | undefined;
  let tokens = 0;
  let text = '';
  const answer: Omit<AttemptAnswer, 'text'> = {};
  const calls = new ToolCallAssembler();
  let done = false;

  const token = (): void => {
    if (tokens === 0) {
      clearTimeout(phase);
      phase = setTimeout(() => fire('idle'), o.idleMs);
    }
    tokens++;
  };
  const take = (events: ReturnType<StreamParser['push']>): void => {
    for (const ev of events) {
      if (ev.type === 'tool_call') {
        // a piece of a tool call is a token too: an answer may be nothing else
        token();
        calls.push(ev);
        o.onDelta('', '');
      } else if (ev.type === 'delta') {
        token();
        text += ev.text;
        if (text.length > MAX_ANSWER_CHARS) {
          throw new HammerError('MODEL_ERROR', `the answer grew past ${MAX_ANSWER_CHARS} characters`, {
            hint: 'lower [model] num_predict',
          });
        }
        o.onDelta(ev.text, ev.thinking);
      } else if (ev.type === 'usage') {
        if (ev.promptTokens !== undefined) answer.promptTokens = ev.promptTokens;
        if (ev.completionTokens !== undefined) answer.completionTokens = ev.completionTokens;
      } else if (ev.type === 'finish') {
        answer.finishReason = ev.reason;
      } else if (ev.type === 'error') {
        throw ev.error;
      } else {
        done = true;
      }
    }
  };

  try {
    const res = await request(o.url, {
      method: 'POST',
      headers: o.headers,
      body: o.body,
      dispatcher: o.dispatcher,
      signal: ctl.signal,
      // our own timers govern; undici's defaults (300 s) would cut a long prompt evaluation
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    body = res.body;
    if (res.statusCode < 200 || res.statusCode > 299) {
      const retryAfter = res.headers['retry-after'];
      return {
        ok: false,
        failure: {
          kind: 'http',
          status: res.statusCode,
          body: await readCapped(body, ERROR_BODY_CAP),
          retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
        },
      };
    }
    for await (const chunk of body) {
      take(o.parser.push(chunk as Uint8Array));
      if (tokens > 0) phase.refresh();
    }
    take(o.parser.end());
    if (!done && answer.finishReason === undefined) return { ok: false, failure: { kind: 'truncated', tokens } };
    const toolCalls = calls.result();
    return { ok: true, answer: { text, ...answer, ...(toolCalls.length > 0 ? { toolCalls } : {}) } };
  } catch (err) {
    if (o.signal?.aborted) return { ok: false, failure: { kind: 'aborted' } };
    if (timedOut !== undefined) return { ok: false, failure: { kind: 'timeout', which: timedOut, tokens } };
    if (isHammerError(err)) return { ok: false, failure: { kind: 'stream', error: err, tokens } };
    return { ok: false, failure: { kind: 'net', error: err, afterHeaders: body !== undefined, tokens } };
  } finally {
    clearTimeout(whole);
    clearTimeout(phase);
    o.signal?.removeEventListener('abort', onAbort);
    if (body && !body.destroyed) body.destroy();
  }
}

/** Read up to `cap` bytes of a body as text. */
async function readCapped(body: AsyncIterable<unknown>, cap: number): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    parts.push(buf);
    size += buf.length;
    if (size >= cap) break;
  }
  return Buffer.concat(parts).subarray(0, cap).toString('utf8');
}
