import { describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { createReplayProvider } from '../../../src/llm/replay.js';

describe('replay provider', () => {
  it('returns the recorded answers in order, with the finish reason recorded for each, then refuses', async () => {
    const p = createReplayProvider('m', [{ text: 'one', finishReason: 'length' }, { text: 'two' }]);
    const deltas: string[] = [];
    const first = await p.generate({ messages: [], onProgress: (_, d) => deltas.push(d) });
    expect(first).toMatchObject({ text: 'one', model: 'm', attempts: 1, finishReason: 'length' });
    const second = await p.generate({ messages: [] });
    expect(second.text).toBe('two');
    expect(second.finishReason).toBeUndefined();
    expect(deltas).toEqual(['one']);
    const err = await p.generate({ messages: [] }).catch((e: unknown) => e);
    expect(isHammerError(err, 'MODEL_ERROR')).toBe(true);
    expect((err as Error).message).toMatch(/^replay has no more recorded answers/);
  });
  it('reports itself reachable with the number of answers', async () => {
    const check = await createReplayProvider('m', [{ text: 'a' }, { text: 'b' }, { text: 'c' }]).check();
    expect(check).toMatchObject({ reachable: true, modelPresent: true });
    expect(check.detail).toContain('3 recorded answers');
  });
  it('honours an aborted signal', async () => {
    const ctl = new AbortController();
    ctl.abort();
    const err = await createReplayProvider('m', [{ text: 'a' }])
      .generate({ messages: [], signal: ctl.signal })
      .catch((e: unknown) => e);
    expect(isHammerError(err, 'ABORTED')).toBe(true);
  });
});
