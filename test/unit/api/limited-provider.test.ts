// A provider whose answers wait their turn: at most the limiter's slots in flight, a waiter that is
// aborted leaves the queue, and everything else passes through.
import { describe, expect, it } from 'vitest';
import { limitedProvider } from '../../../src/api/limited-provider.js';
import { Slots } from '../../../src/batch/slots.js';
import type { GenerateRequest, GenerateResult, ModelProvider } from '../../../src/llm/index.js';

function gatedProvider() {
  let inFlight = 0;
  let most = 0;
  const gates: (() => void)[] = [];
  const provider: ModelProvider = {
    name: 'ollama',
    model: 'm',
    generate: async (req: GenerateRequest): Promise<GenerateResult> => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise<void>((resolve) => gates.push(resolve));
      inFlight--;
      const text = typeof req.messages[0]?.content === 'string' ? req.messages[0].content : '';
      return { text, model: 'm', durationMs: 1, firstTokenMs: 1, attempts: 1 };
    },
    check: async () => ({ reachable: true, modelPresent: true, detail: 'ok' }),
    close: async () => undefined,
  };
  return { provider, most: () => most, open: () => gates.splice(0).forEach((g) => g()) };
}

const ask = (text: string, signal?: AbortSignal): GenerateRequest => ({
  messages: [{ role: 'user', content: text }],
  ...(signal ? { signal } : {}),
});

describe('limitedProvider', () => {
  it("lets at most the limiter's slots generate at once", async () => {
    const g = gatedProvider();
    const slots = new Slots(1);
    const p = limitedProvider(g.provider, (work, signal) => slots.run(work, signal));
    const answers = [p.generate(ask('a')), p.generate(ask('b')), p.generate(ask('c'))];
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 5));
      g.open();
    }
    expect((await Promise.all(answers)).map((a) => a.text)).toEqual(['a', 'b', 'c']);
    expect(g.most()).toBe(1);
    expect(p.name).toBe('ollama');
    expect((await p.check()).reachable).toBe(true);
  });

  it('takes a request whose signal fires out of the queue', async () => {
    const g = gatedProvider();
    const slots = new Slots(1);
    const p = limitedProvider(g.provider, (work, signal) => slots.run(work, signal));
    const first = p.generate(ask('a'));
    const ac = new AbortController();
    const second = p.generate(ask('b', ac.signal));
    ac.abort(new Error('interrupted'));
    await expect(second).rejects.toThrow('interrupted');
    await new Promise((r) => setTimeout(r, 5));
    g.open();
    expect((await first).text).toBe('a');
    expect(slots.held).toBe(0);
  });
});
