// The model check beside the sandbox work: a failed check aborts the work's signal with its error.
import { describe, expect, it } from 'vitest';
import { HammerError } from '../../../src/errors.js';
import type { ModelCheck, ModelProvider } from '../../../src/llm/index.js';
import { startModelGate } from '../../../src/loop/model-gate.js';

function provider(check: (signal?: AbortSignal) => Promise<ModelCheck>): ModelProvider & { checks: number } {
  const p = {
    name: 'ollama' as const,
    model: 'm',
    checks: 0,
    generate: () => Promise.reject(new Error('not used')),
    check: (opts?: { signal?: AbortSignal }) => {
      p.checks += 1;
      return check(opts?.signal);
    },
    close: () => Promise.resolve(),
  };
  return p;
}

const down = new HammerError('MODEL_UNREACHABLE', 'nothing listens', { hint: 'start it with: ollama serve' });

describe('startModelGate', () => {
  it('aborts the work with the check error when the server is down', async () => {
    const gate = startModelGate(
      provider(() => Promise.resolve({ reachable: false, modelPresent: false, detail: 'down', error: down })),
      undefined,
      true,
    );
    await expect(gate.ready()).rejects.toBe(down);
    expect(gate.signal.aborted).toBe(true);
    expect(gate.signal.reason).toBe(down);
    expect(gate.failure()).toBe(down);
    gate.dispose();
  });

  it('leaves the work alone when the model is there, or the server gave no listing', async () => {
    for (const result of [
      { reachable: true, modelPresent: true, detail: 'ok' },
      { reachable: true, modelPresent: false, detail: 'HTTP 404 on /v1/models' },
    ]) {
      const gate = startModelGate(
        provider(() => Promise.resolve(result)),
        undefined,
        true,
      );
      await gate.ready();
      expect(gate.signal.aborted).toBe(false);
      expect(gate.failure()).toBeNull();
      gate.dispose();
    }
  });

  it('checks nothing when disabled, and follows the run signal', async () => {
    const p = provider(() => Promise.resolve({ reachable: false, modelPresent: false, detail: 'down', error: down }));
    const outer = new AbortController();
    const gate = startModelGate(p, outer.signal, false);
    await gate.ready();
    expect(p.checks).toBe(0);
    expect(gate.signal.aborted).toBe(false);
    outer.abort(new Error('Ctrl-C'));
    expect(gate.signal.aborted).toBe(true);
    expect(gate.failure()).toBeNull();
    gate.dispose();
  });

  it('stops a check still running when disposed, without failing the work', async () => {
    let seen: AbortSignal | undefined;
    const gate = startModelGate(
      provider(
        (signal) =>
          new Promise((_resolve, reject) => {
            seen = signal;
            signal?.addEventListener('abort', () => reject(new Error('aborted')));
          }),
      ),
      undefined,
      true,
    );
    gate.dispose();
    await gate.ready();
    expect(seen?.aborted).toBe(true);
    expect(gate.signal.aborted).toBe(false);
  });
});
