// The replay provider: plays back recorded answers in order, so a run can be reproduced exactly.
import { HammerError, throwIfAborted } from '../errors.js';
import type { ModelProvider, ToolCall } from './types.js';

/** A recorded answer: its text, why the model stopped as the server said (absent when unknown), its tool calls. */
export interface RecordedAnswer {
  text: string;
  finishReason?: string;
  toolCalls?: ToolCall[];
  /** The agent trajectory this answer belongs to ended after it, for this reason (see GenerateResult). */
  trajectoryEnd?: string;
}

/** A provider that answers each request with the next of `answers`, with the finish reason recorded for it. */
export function createReplayProvider(
  model: string,
  answers: readonly RecordedAnswer[],
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
      const next = queue.shift();
      if (next === undefined) {
        throw new HammerError(
          'MODEL_ERROR',
          `replay has no more recorded answers (${answers.length} recorded, all ${served} played back)`,
          { hint: 'the replayed run diverged from the recording, or the recording is incomplete' },
        );
      }
      served++;
      const { text } = next;
      const elapsed = now() - start;
      req.onProgress?.({ tokens: 1, elapsedMs: elapsed, tokensPerSecond: 0, firstTokenMs: elapsed }, text);
      return {
        text,
        model,
        durationMs: elapsed,
        firstTokenMs: elapsed,
        attempts: 1,
        ...(next.finishReason === undefined ? {} : { finishReason: next.finishReason }),
        ...(next.toolCalls === undefined || next.toolCalls.length === 0 ? {} : { toolCalls: next.toolCalls }),
        ...(next.trajectoryEnd === undefined ? {} : { trajectoryEnd: next.trajectoryEnd }),
      };
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
