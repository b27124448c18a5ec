// Pulls delimited records, or the raw chunks, from a stream of Buffers, keeping only what is asked
// for, so large git outputs (ls-tree -r, grep, cat-file --batch) are parsed without holding them.

/** A pull-based reader over a child's stdout. */
export class ByteReader {
  private buffered: Buffer = Buffer.alloc(0);
  private ended = false;
  private readonly iterator: AsyncIterator<unknown>;

  constructor(source: AsyncIterable<unknown>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /** Bytes up to (not including) the next `delimiter`, or null at a clean end of input. */
  async readUntil(delimiter: number): Promise<Buffer | null> {
    for (;;) {
      const at = this.buffered.indexOf(delimiter);
      if (at >= 0) {
        const out = this.buffered.subarray(0, at);
        this.buffered = this.buffered.subarray(at + 1);
        return out;
      }
      if (!(await this.fill())) {
        if (this.buffered.length === 0) return null;
        throw new Error('git output ended in the middle of a record');
      }
    }
  }

  /** Whatever is buffered, else the source's next chunk; null at the end of input. */
  async chunk(): Promise<Buffer | null> {
    if (this.buffered.length === 0 && !(await this.fill())) return null;
    const out = this.buffered;
    this.buffered = Buffer.alloc(0);
    return out;
  }

  /** Stop reading (lets the source be released). */
  async close(): Promise<void> {
    await this.iterator.return?.();
  }

  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.iterator.next();
    if (next.done === true) {
      this.ended = true;
      return false;
    }
    const value: unknown = next.value;
    const chunk = Buffer.isBuffer(value) ? value : Buffer.from(String(value));
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    return true;
  }
}
