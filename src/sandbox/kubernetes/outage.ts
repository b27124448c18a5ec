// Riding out a short API-server outage (a restart, a control-plane upgrade, a load balancer
// failing over): a call the server did not answer (connection refused or reset, a timeout, a 502,
// 503 or 504) is tried again with backoff until the outage budget is spent; every other answer,
// and every abort, is final at once.
import { abortError, throwIfAborted } from '../../errors.js';
import { apiAnswer, unansweredCode } from './kube-errors.js';
import { doublingDelays } from '../backoff.js';

/** How long the backend keeps trying an API server that does not answer (config `kubernetes.outage_retry`). */
export const API_OUTAGE_MS = 60_000;

/**
 * What a client knows of its server's outages: a server that answered before and stops answering
 * gets `budgetMs` to come back; one that never answered (a wrong address, a cluster that is not
 * running) fails at once, so a mistake is reported without waiting.
 */
export class OutageWatch {
  private seen = false;
  constructor(private readonly budgetMs: number) {}
  /** The server answered (any HTTP answer, or an exec that opened). */
  answered(): void {
    this.seen = true;
  }
  /** How long a call it did not answer may be tried again now. */
  budget(): number {
    return this.seen ? this.budgetMs : 0;
  }
}

/** The first wait between tries; it doubles up to MAX_DELAY_MS. */
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;

/** True when the API server did not answer the call (it is worth trying again): no connection, or a gateway's 502/503/504. */
export function unanswered(err: unknown): boolean {
  const code = apiAnswer(err)?.code;
  if (code === 502 || code === 503 || code === 504) return true;
  return code === undefined && unansweredCode(err) !== null;
}

/** The waits before each retry within `budgetMs` (pure): 250 ms doubling to 5 s, their sum at most the budget. */
export function outageDelays(budgetMs: number): number[] {
  return doublingDelays(FIRST_DELAY_MS, MAX_DELAY_MS, budgetMs);
}

/**
 * `attempt()` until it succeeds or fails with something other than an unanswered call, or the
 * budget is spent (then its last failure is thrown). `retried` hears of each retry.
 */
export async function throughOutage<T>(
  attempt: () => Promise<T>,
  options: { budgetMs: number; signal?: AbortSignal; what: string; retried?: (err: unknown, delayMs: number) => void },
): Promise<T> {
  const delays = outageDelays(options.budgetMs);
  for (let i = 0; ; i++) {
    throwIfAborted(options.signal, options.what);
    try {
      return await attempt();
    } catch (err) {
      const delay = delays[i];
      if (delay === undefined || options.signal?.aborted || !unanswered(rawOf(err))) throw err;
      options.retried?.(err, delay);
      await wait(delay, options.signal, options.what);
    }
  }
}

/** The failure under a typed error (what the client library threw), for classifying it. */
function rawOf(err: unknown): unknown {
  if (typeof err === 'object' && err !== null && 'cause' in err && (err as { cause?: unknown }).cause !== undefined)
    return err.cause;
  return err;
}

function wait(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort(): void {
      clearTimeout(timer);
      reject(abortError(signal, what));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
