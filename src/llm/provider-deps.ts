// What a provider is built from besides its config.
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import { Agent } from 'undici';
import type { Timing } from './generate.js';
import type { RecordedAnswer } from './replay.js';

/** Dependencies of createProvider; all optional, defaults are the real thing. */
export interface ProviderDeps {
  /** Where the API key variable is read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** HTTP dispatcher; by default the provider creates (and closes) its own Agent. */
  dispatcher?: Dispatcher;
  /** The answers a replay provider plays back, in order. */
  replayAnswers?: readonly RecordedAnswer[];
  logger?: Logger;
  /** Clock, sleep and jitter (tests make retries instant). */
  timing?: Partial<Timing>;
}

/** Real timing: a monotonic clock, a cancellable sleep, Math.random. */
export function resolveTiming(t: Partial<Timing> = {}): Timing {
  return {
    now: t.now ?? (() => performance.now()),
    sleep: t.sleep ?? ((ms, signal) => sleepFor(ms, undefined, { signal })),
    random: t.random ?? Math.random,
  };
}

/** The dispatcher to use and how to release it: an Agent of our own unless one is passed in. */
export function resolveDispatcher(
  given: Dispatcher | undefined,
  connectTimeoutS: number,
): { dispatcher: Dispatcher; close: () => Promise<void> } {
  if (given) return { dispatcher: given, close: async () => {} };
  const agent = new Agent({
    connect: { timeout: Math.ceil(connectTimeoutS * 1000) },
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  // idempotent: the loop and the API that created the provider may both close it
  let closing: Promise<void> | undefined;
  return { dispatcher: agent, close: () => (closing ??= agent.close()) };
}
