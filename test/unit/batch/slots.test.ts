// The semaphore behind --jobs and --model-jobs.
import { describe, expect, it } from 'vitest';
import { Slots } from '../../../src/batch/slots.js';

describe('Slots', () => {
  it('lets at most size holders in at once, in arrival order', async () => {
    const slots = new Slots(2);
    let now = 0;
    let most = 0;
    const order: number[] = [];
    const gates = Array.from({ length: 5 }, () => {
      let resolve = (): void => undefined;
      const promise = new Promise<void>((r) => (resolve = r));
      return { promise, resolve };
    });
    const work = gates.map((g, i) =>
      slots.run(async () => {
        order.push(i);
        now++;
        most = Math.max(most, now);
        await g.promise;
        now--;
      }),
    );
    await Promise.resolve();
    expect(slots.held).toBe(2);
    for (const g of gates) g.resolve();
    await Promise.all(work);
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(slots.held).toBe(0);
  });

  it('takes a waiter whose signal fires out of the queue, and a release counts once', async () => {
    const slots = new Slots(1);
    const release = await slots.acquire();
    const ac = new AbortController();
    const waiting = slots.acquire(ac.signal);
    ac.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    release();
    release();
    expect(slots.held).toBe(0);
    const again = await slots.acquire();
    expect(slots.held).toBe(1);
    again();
  });

  it('refuses a size below 1', () => {
    expect(() => new Slots(0)).toThrow(RangeError);
  });
});
