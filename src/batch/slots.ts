// A counting semaphore: at most `size` holders at once, the others waiting in arrival order. Used
// for the batch's sandboxes (--jobs) and its model requests (--model-jobs).

/** At most `size` pieces of work at once; a waiter whose signal fires leaves the queue. */
export class Slots {
  #held = 0;
  readonly #waiting: { grant: () => void }[] = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`slots need a whole number >= 1, not ${size}`);
  }

  /** Holders now. */
  get held(): number {
    return this.#held;
  }

  /** Wait for a slot; resolves with its release (idempotent). Rejects with the signal's reason when it fires first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise((resolve, reject) => {
      const entry = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          this.#held++;
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.#held--;
            this.#next();
          });
        },
      };
      const onAbort = (): void => {
        const at = this.#waiting.indexOf(entry);
        if (at >= 0) this.#waiting.splice(at, 1);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(entry);
      this.#next();
    });
  }

  /** Run `work` holding a slot. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await work();
    } finally {
      release();
    }
  }

  #next(): void {
    while (this.#held < this.size && this.#waiting.length > 0) this.#waiting.shift()!.grant();
  }
}
