// Pulls delimited records, or the raw chunks, from a stream of Buffers, keeping only what is asked
// for, so large git outputs (ls-tree -r, grep, cat-file --batch) are parsed without holding them.
// Linear in the input: each chunk is scanned once and a record's pieces are joined once, so a
// record of many megabytes (one long line of a file) costs what reading it costs, and a capped
// read keeps only its first bytes.

/** A record read with a cap: its first bytes, and its whole length. */
export interface CappedRecord {
  bytes: Buffer;
  length: number;
}

/** A pull-based reader over a child's stdout. */
export class ByteReader {
  /** What is left of the last chunk read. */
  private buffered: Buffer = Buffer.alloc(0);
  private ended = false;
  private readonly iterator: AsyncIterator<unknown>;

  constructor(source: AsyncIterable<unknown>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /** Bytes up to (not including) the next `delimiter`, or null at a clean end of input. */
  async readUntil(delimiter: number): Promise<Buffer | null> {
    return (await this.readRecord(delimiter))?.bytes ?? null;
  }

  /**
   * The next record up to (not including) `delimiter`: its first `maxBytes` bytes (the rest is
   * read and dropped) and its whole length; null at a clean end of input. A record longer than
   * `maxLength` is an error once that much of it was read.
   */
  async readRecord(
    delimiter: number,
    maxBytes = Number.POSITIVE_INFINITY,
    maxLength = Number.POSITIVE_INFINITY,
  ): Promise<CappedRecord | null> {
    const parts: Buffer[] = [];
    let kept = 0;
    let length = 0;
    let started = false;
    for (;;) {
      if (this.buffered.length === 0 && !(await this.fill())) {
        if (!started) return null;
        throw new Error('git output ended in the middle of a record');
      }
      started = true;
      const at = this.buffered.indexOf(delimiter);
      const piece = at >= 0 ? this.buffered.subarray(0, at) : this.buffered;
      this.buffered = at >= 0 ? this.buffered.subarray(at + 1) : Buffer.alloc(0);
      length += piece.length;
      if (length > maxLength) throw new Error(`a record of git's output is longer than ${maxLength} bytes`);
      if (kept < maxBytes) {
        const take = piece.length <= maxBytes - kept ? piece : piece.subarray(0, maxBytes - kept);
        parts.push(take);
        kept += take.length;
      }
      if (at >= 0) return { bytes: parts.length === 1 ? parts[0]! : Buffer.concat(parts, kept), length };
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

  // the next non-empty chunk into `buffered` (which is empty); false at the end of input
  private async fill(): Promise<boolean> {
    while (!this.ended) {
      const next = await this.iterator.next();
      if (next.done === true) {
        this.ended = true;
        return false;
      }
      const value: unknown = next.value;
      const chunk = Buffer.isBuffer(value) ? value : Buffer.from(String(value));
      if (chunk.length === 0) continue;
      this.buffered = chunk;
      return true;
    }
    return false;
  }
}
