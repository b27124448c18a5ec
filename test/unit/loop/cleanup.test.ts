import { describe, expect, it } from 'vitest';
import { HammerError } from '../../../src/errors.js';
import { removalDelays, removeSandboxes } from '../../../src/loop/cleanup.js';
import type { Sandbox } from '../../../src/sandbox/types.js';

/** A sandbox whose removal fails `failures` times (with `error`), then works. */
function flaky(id: string, failures: number, error = new Error('the cluster did not answer (ECONNREFUSED)')) {
  let calls = 0;
  const sandbox = {
    id,
    destroy: () => (calls++ < failures ? Promise.reject(error) : Promise.resolve()),
  } as unknown as Sandbox;
  return { sandbox, calls: () => calls };
}

describe('removalDelays', () => {
  it('backs off from half a second to 8 s within the budget', () => {
    expect(removalDelays(0)).toEqual([]);
    expect(removalDelays(2_000)).toEqual([500, 1000]);
    expect(removalDelays(60_000)).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000, 8000, 8000, 8000]);
    expect(removalDelays(60_000).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(60_000);
  });
});

describe('removeSandboxes', () => {
  it('tries a failed removal again until it works', async () => {
    const a = flaky('a', 2);
    const b = flaky('b', 0);
    expect(await removeSandboxes([a.sandbox, b.sandbox], 2_000)).toEqual([]);
    expect(a.calls()).toBe(3);
    expect(b.calls()).toBe(1);
  });

  it('returns what is still there after the budget, with the last reason', async () => {
    const a = flaky('a', 99);
    expect(await removeSandboxes([a.sandbox], 600)).toEqual([
      { sandbox: 'a', error: 'the cluster did not answer (ECONNREFUSED)' },
    ]);
    expect(a.calls()).toBe(2);
  });

  it('a zero budget tries once', async () => {
    const a = flaky('a', 1, new HammerError('ENGINE_UNAVAILABLE', 'removing the sandbox container failed'));
    expect(await removeSandboxes([a.sandbox], 0)).toEqual([
      { sandbox: 'a', error: 'removing the sandbox container failed' },
    ]);
    expect(a.calls()).toBe(1);
  });
});
