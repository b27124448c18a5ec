// The replay provider: plays back recorded answers in order, so a run can be reproduced exactly.
import { HammerError, throwIfAborted } from '../errors.js';
import type { ModelProvider } from './types.js';

/** A provider that answers each request with the next of `answers`. */
export function createReplayProvider(
  model: string,
  answers: readonly string[],
  now: () => number = () => performance.now(),
): ModelProvider {
  const queue = [...answers];
  let served = 0;
  return {
    name: 'replay',
    model,
    generate: async (req) => {
      throwIfAborted(req.signal, 'the model request');
      const start = now();
      const text = queue.shift();
      if (text === undefined) {
        throw new HammerError(
          'MODEL_ERROR',
          `replay has no more recorded answers (${answers.length} recorded, all ${served} played back)`,
          { hint: 'the replayed run diverged from the recording, or the recording is incomplete' },
        );
      }
      served++;
      const elapsed = now() - start;
      req.onProgress?.({ tokens: 1, elapsedMs: elapsed, tokensPerSecond: 0, firstTokenMs: elapsed }, text);
      return { text, model, durationMs: elapsed, firstTokenMs: elapsed, attempts: 1, finishReason: 'stop' };
    },
    check: async (opts = {}) => {
      throwIfAborted(opts.signal, 'the model check');
      return {
        reachable: true,
        modelPresent: answers.length > 0,
        detail: `replay: ${answers.length} recorded answers, ${queue.length} left`,
      };
    },
    close: async () => {},
  };
}
