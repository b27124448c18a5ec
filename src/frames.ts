// The framing both helper processes speak over a pipe (the sandbox's resident runner and the host's
// git launcher): a kind byte, a big-endian u32 payload length, the payload. Pure; chunks may split
// frames anywhere.

/** Bytes of a frame's header. */
export const FRAME_HEADER = 5;

/** One frame: `kind`, then `payload` (header added). */
export function encodeFrame(kind: string, payload: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(FRAME_HEADER);
  header.write(kind, 0, 1, 'latin1');
  header.writeUInt32BE(payload.length, 1);
  return Buffer.concat([header, payload]);
}

/**
 * Cuts frames out of a byte stream. A payload is a view into the chunk it came in when it lies in
 * one (only a frame split across chunks is copied), so megabytes of output pass without copies. A
 * frame over `maxPayload` bytes is a protocol error: push throws.
 */
export class FrameParser {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(
    private readonly maxPayload: number,
    private readonly onFrame: (kind: string, payload: Buffer) => void,
  ) {}

  /** Feed the next chunk. */
  push(chunk: Buffer): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    for (;;) {
      if (this.pendingBytes < FRAME_HEADER) return;
      const head = this.take(FRAME_HEADER, false);
      const length = head.readUInt32BE(1);
      if (length > this.maxPayload) throw new Error(`a frame of ${length} bytes (at most ${this.maxPayload})`);
      if (this.pendingBytes < FRAME_HEADER + length) return;
      const frame = this.take(FRAME_HEADER + length, true);
      this.onFrame(String.fromCharCode(frame[0]!), frame.subarray(FRAME_HEADER));
    }
  }

  // the first `n` pending bytes (a view when they lie in one chunk); `consume` drops them
  private take(n: number, consume: boolean): Buffer {
    const first = this.pending[0]!;
    let out: Buffer;
    if (first.length >= n) out = first.subarray(0, n);
    else {
      out = Buffer.allocUnsafe(n);
      let at = 0;
      for (const c of this.pending) {
        const part = c.subarray(0, n - at);
        part.copy(out, at);
        at += part.length;
        if (at === n) break;
      }
    }
    if (consume) {
      let left = n;
      while (left > 0) {
        const c = this.pending[0]!;
        if (c.length <= left) {
          this.pending.shift();
          left -= c.length;
        } else {
          this.pending[0] = c.subarray(left);
          left = 0;
        }
      }
      this.pendingBytes -= n;
    }
    return out;
  }
}
