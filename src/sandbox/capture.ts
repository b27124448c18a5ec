// Capped capture of one output stream: keep the first and last halves of the budget, count the
// middle, never stop draining. Pure.
import type { CapturedOutput } from './types.js';

/** The marker put between head and tail when bytes were dropped. */
export function droppedMarker(dropped: number): string {
  return `\n[... ${dropped} bytes dropped ...]\n`;
}

/** Collects a stream's bytes within a budget of `maxBytes` (half head, half tail). */
export class OutputCapture {
  private readonly headCap: number;
  private readonly tailCap: number;
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(maxBytes: number) {
    const max = Math.max(0, Math.floor(maxBytes));
    this.headCap = Math.floor(max / 2);
    this.tailCap = max - this.headCap;
  }

  /** Add the next chunk; memory stays within the budget whatever the stream's size. */
  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headCap) {
      const n = Math.min(this.headCap - this.headBytes, rest.length);
      // Copy: the caller's buffer may be a slice of a large socket read we must not pin.
      this.head.push(Buffer.from(rest.subarray(0, n)));
      this.headBytes += n;
      rest = rest.subarray(n);
    }
    if (rest.length === 0 || this.tailCap === 0) return;
    if (rest.length >= this.tailCap) {
      this.tail = [Buffer.from(rest.subarray(rest.length - this.tailCap))];
      this.tailBytes = this.tailCap;
      return;
    }
    this.tail.push(Buffer.from(rest));
    this.tailBytes += rest.length;
    while (this.tailBytes > this.tailCap) {
      const first = this.tail[0] as Buffer;
      const excess = this.tailBytes - this.tailCap;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
      }
    }
  }

  /** Bytes seen so far. */
  totalBytes(): number {
    return this.total;
  }

  /** The captured output: decoded text (invalid UTF-8 replaced), with a marker where bytes were dropped. */
  result(): CapturedOutput {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    const dropped = this.total - head.length - tail.length;
    if (dropped === 0)
      return { text: new TextDecoder().decode(Buffer.concat([head, tail])), totalBytes: this.total, droppedBytes: 0 };
    // Cut on character boundaries: an incomplete sequence at the head's end or the tail's start is dropped too.
    const headKeep = head.length - incompleteSuffix(head);
    const tailSkip = continuationPrefix(tail);
    const droppedBytes = dropped + (head.length - headKeep) + tailSkip;
    const decoder = new TextDecoder();
    const text =
      decoder.decode(head.subarray(0, headKeep)) +
      droppedMarker(droppedBytes) +
      decoder.decode(tail.subarray(tailSkip));
    return { text, totalBytes: this.total, droppedBytes };
  }
}

/** Length of a trailing, incomplete UTF-8 sequence (0 when the buffer ends on a boundary). */
function incompleteSuffix(b: Buffer): number {
  for (let i = 1; i <= Math.min(3, b.length); i++) {
    const byte = b[b.length - i] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > i ? i : 0;
  }
  return 0;
}

/** Number of leading continuation bytes (at most 3): the rest of a character cut in two. */
function continuationPrefix(b: Buffer): number {
  let i = 0;
  while (i < 3 && i < b.length && ((b[i] as number) & 0xc0) === 0x80) i++;
  return i;
}
