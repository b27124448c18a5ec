// A complete answer from a streaming model server: attempts, backoff before the first token, progress.
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import { HammerError, abortError } from '../errors.js';
import { runAttempt } from './attempt.js';
import { backoffDelay, parseRetryAfter } from './backoff.js';
import { type ServerInfo, describeFailure } from './describe-failure.js';
import type { GenerateRequest, GenerateResult } from './types.js';
import type { StreamParser } from './wire-events.js';

/** Clock, sleep and randomness, injectable so retries can be tested without waiting. */
export interface Timing {
  /** Milliseconds on a monotonic clock. */
  now: () => number;
  /** Wait `ms`; rejects when `signal` fires. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** In [0, 1), for jitter. */
  random: () => number;
}

/** One wire format's chat request, ready to send. */
export interface ChatCall {
  server: ServerInfo;
  chatUrl: string;
  headers: Record<string, string>;
  body: string;
  createParser: () => StreamParser;
  retries: number;
  /**
   * When `body` offers tools: the body without them, and how to tell the server refused them (the
   * reason, from an HTTP error's status and body; null when it is another error).
   */
  withoutTools?: { body: string; refused: (status: number, body: string) => string | null };
}

/** Everything a generation needs from outside. */
export interface GenerateDeps {
  dispatcher: Dispatcher;
  timing: Timing;
  logger?: Logger;
}

/** Stream one answer to completion, retrying (with backoff) only failures before the first token. */
export async function generateStreamed(
  call: ChatCall,
  req: GenerateRequest,
  deps: GenerateDeps,
): Promise<GenerateResult> {
  const { timing } = deps;
  const t = call.server.timeouts;
  const start = timing.now();
  const deadline = start + t.total * 1000;
  let tokens = 0;
  let firstTokenAt: number | undefined;
  let body = call.body;
  let toolsRefused: string | undefined;

  const onDelta = (text: string): void => {
    const now = timing.now();
    firstTokenAt ??= now;
    tokens++;
    const sinceFirst = now - firstTokenAt;
    req.onProgress?.(
      {
        tokens,
        elapsedMs: now - start,
        tokensPerSecond: sinceFirst > 0 ? (tokens - 1) / (sinceFirst / 1000) : 0,
        firstTokenMs: firstTokenAt - start,
      },
      text,
    );
  };

  for (let attempt = 1; ; attempt++) {
    if (req.signal?.aborted) throw abortError(req.signal, 'the model request');
    const remainingMs = deadline - timing.now();
    if (remainingMs <= 0) {
      throw new HammerError(
        'MODEL_TIMEOUT',
        `${call.server.model} did not finish its answer within ${t.total} s (timeout)`,
        {
          hint: 'raise [model] timeout or HAMMER_LLM_TIMEOUT',
        },
      );
    }
    const outcome = await runAttempt({
      url: call.chatUrl,
      headers: call.headers,
      body,
      dispatcher: deps.dispatcher,
      parser: call.createParser(),
      signal: req.signal,
      firstTokenMs: t.firstToken * 1000,
      idleMs: t.idle * 1000,
      remainingMs,
      onDelta,
    });
    if (outcome.ok) {
      const end = timing.now();
      return {
        text: outcome.answer.text,
        model: call.server.model,
        promptTokens: outcome.answer.promptTokens,
        completionTokens: outcome.answer.completionTokens,
        finishReason: outcome.answer.finishReason,
        durationMs: end - start,
        firstTokenMs: (firstTokenAt ?? end) - start,
        attempts: attempt,
        ...(outcome.answer.toolCalls === undefined ? {} : { toolCalls: outcome.answer.toolCalls }),
        ...(toolsRefused === undefined ? {} : { toolsRefused }),
      };
    }
    if (outcome.failure.kind === 'aborted') throw abortError(req.signal, 'the model request');
    // a server or model without tool calling: ask again at once, without tools (not a retry)
    const refused =
      outcome.failure.kind === 'http' && call.withoutTools && toolsRefused === undefined
        ? call.withoutTools.refused(outcome.failure.status, outcome.failure.body)
        : null;
    if (refused !== null && call.withoutTools) {
      toolsRefused = refused;
      body = call.withoutTools.body;
      deps.logger?.warn({ reason: refused }, 'the model server refused tools; asking again without them');
      attempt--;
      continue;
    }
    const described = describeFailure(call.server, outcome.failure);
    if (!described.retryable || attempt > call.retries) throw afterAttempts(described.error, attempt);
    const wait = Math.max(
      backoffDelay(attempt - 1, timing.random),
      parseRetryAfter(described.retryAfter, Date.now()) ?? 0,
    );
    // no time left for another attempt: the real failure says more than a timeout would
    if (wait >= deadline - timing.now()) throw afterAttempts(described.error, attempt);
    deps.logger?.warn(
      { attempt, retryInMs: wait, code: described.error.code, err: described.error.message },
      'model request failed before the first token; retrying',
    );
    try {
      await timing.sleep(wait, req.signal);
    } catch (err) {
      if (req.signal?.aborted) throw abortError(req.signal, 'the model request');
      throw err;
    }
  }
}

function afterAttempts(err: HammerError, attempts: number): HammerError {
  if (attempts === 1) return err;
  return new HammerError(err.code, `${err.message} (gave up after ${attempts} attempts)`, {
    hint: err.hint,
    cause: err.cause ?? err,
  });
}
