// Turning an attempt's failure into the error the user sees, and deciding whether to try again.
import { HammerError } from '../errors.js';
import type { AttemptFailure } from './attempt.js';
import { isRetryableNetFailure, netErrorText, netFailureKind } from './net-errors.js';

/** What the failure description needs to know about the server. */
export interface ServerInfo {
  /** 'Ollama' or 'the OpenAI-compatible server'. */
  label: string;
  model: string;
  /** The base URL as configured. */
  url: string;
  /** The hint for a server that cannot be reached. */
  unreachableHint: string;
  /** The error for a non-2xx answer to the chat request (provider-specific: model missing, auth). */
  httpError(status: number, body: string): HammerError;
  /** Timeouts in seconds, for messages. */
  timeouts: { connect: number; firstToken: number; idle: number; total: number };
}

/** A failure described: the error to throw and whether a new attempt may help. */
export interface DescribedFailure {
  error: HammerError;
  retryable: boolean;
  retryAfter?: string;
}

const DISCARDED = 'the partial answer was discarded';

/** Describe a failed attempt. Only failures before the first token are ever retryable. */
export function describeFailure(s: ServerInfo, f: Exclude<AttemptFailure, { kind: 'aborted' }>): DescribedFailure {
  switch (f.kind) {
    case 'http': {
      const retryable = f.status === 429 || f.status >= 500;
      return { error: s.httpError(f.status, f.body), retryable, retryAfter: f.retryAfter };
    }
    case 'timeout':
      return describeTimeout(s, f.which, f.tokens);
    case 'stream': {
      if (f.tokens === 0) return { error: f.error, retryable: false };
      const error = new HammerError('MODEL_ERROR', `${f.error.message} (after ${f.tokens} tokens; ${DISCARDED})`, {
        hint: f.error.hint,
        cause: f.error,
      });
      return { error, retryable: false };
    }
    case 'truncated':
      if (f.tokens === 0) {
        return {
          error: new HammerError('MODEL_ERROR', `${s.label} at ${s.url} ended its answer before it began`),
          retryable: true,
        };
      }
      return {
        error: new HammerError(
          'MODEL_ERROR',
          `${s.label} at ${s.url} stopped the answer after ${f.tokens} tokens without finishing it; ${DISCARDED}`,
        ),
        retryable: false,
      };
    case 'net':
      return describeNet(s, f.error, f.afterHeaders, f.tokens);
  }
}

function describeTimeout(s: ServerInfo, which: 'first_token' | 'idle' | 'timeout', tokens: number): DescribedFailure {
  const t = s.timeouts;
  if (which === 'first_token') {
    return {
      error: new HammerError(
        'MODEL_TIMEOUT',
        `no answer from ${s.model} at ${s.url} within ${t.firstToken} s of asking (first_token_timeout)`,
        {
          hint: 'a large model can take long to load or to read a long prompt: raise [model] first_token_timeout',
        },
      ),
      retryable: true,
    };
  }
  if (which === 'idle') {
    return {
      error: new HammerError(
        'MODEL_TIMEOUT',
        `${s.model} went silent for ${t.idle} s in the middle of its answer (idle_timeout); ${DISCARDED}`,
        {
          hint: 'raise [model] idle_timeout if the server is just slow',
        },
      ),
      retryable: false,
    };
  }
  const what = tokens > 0 ? `; ${DISCARDED}` : '';
  return {
    error: new HammerError(
      'MODEL_TIMEOUT',
      `${s.model} did not finish its answer within ${t.total} s (timeout)${what}`,
      {
        hint: 'raise [model] timeout or HAMMER_LLM_TIMEOUT, or lower [model] num_predict',
      },
    ),
    retryable: false,
  };
}

function describeNet(s: ServerInfo, err: unknown, afterHeaders: boolean, tokens: number): DescribedFailure {
  const text = netErrorText(err);
  if (tokens > 0) {
    return {
      error: new HammerError(
        'MODEL_ERROR',
        `the connection to ${s.label} at ${s.url} broke after ${tokens} tokens (${text}); ${DISCARDED}`,
        { cause: err },
      ),
      retryable: false,
    };
  }
  if (afterHeaders) {
    return {
      error: new HammerError(
        'MODEL_ERROR',
        `${s.label} at ${s.url} closed the connection before the first token (${text})`,
        { cause: err },
      ),
      retryable: true,
    };
  }
  const kind = netFailureKind(err);
  const host = hostOf(s.url);
  switch (kind) {
    case 'refused':
      return unreachable(s, `cannot reach ${s.label} at ${s.url}: connection refused`, err, true);
    case 'dns':
    case 'dns-transient':
      return unreachable(
        s,
        `cannot reach ${s.label} at ${s.url}: host "${host}" not found`,
        err,
        kind === 'dns-transient',
      );
    case 'unreachable':
      return unreachable(s, `cannot reach ${s.label} at ${s.url}: ${text}`, err, true);
    case 'connect-timeout':
      return {
        error: new HammerError(
          'MODEL_TIMEOUT',
          `could not connect to ${s.label} at ${s.url} within ${s.timeouts.connect} s (connect_timeout)`,
          {
            hint: s.unreachableHint,
            cause: err,
          },
        ),
        retryable: true,
      };
    case 'tls':
      return {
        error: new HammerError('MODEL_UNREACHABLE', `TLS with ${s.url} failed: ${text}`, {
          hint: 'if a proxy or private CA signs the certificate, point NODE_EXTRA_CA_CERTS at its CA bundle',
          cause: err,
        }),
        retryable: false,
      };
    case 'reset':
      return {
        error: new HammerError('MODEL_ERROR', `${s.label} at ${s.url} dropped the connection (${text})`, {
          cause: err,
        }),
        retryable: true,
      };
    case 'other':
      return {
        error: new HammerError('MODEL_ERROR', `the request to ${s.label} at ${s.url} failed: ${text}`, { cause: err }),
        retryable: isRetryableNetFailure(kind),
      };
  }
}

function unreachable(s: ServerInfo, message: string, cause: unknown, retryable: boolean): DescribedFailure {
  return { error: new HammerError('MODEL_UNREACHABLE', message, { hint: s.unreachableHint, cause }), retryable };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}
