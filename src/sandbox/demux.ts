// Docker's multiplexed attach stream (Tty false): frames of an 8-byte header (stream type, 3 zero
// bytes, big-endian payload length) and the payload. Pure; chunks may split frames anywhere.

/** Which stream a frame belongs to. */
export type StreamName = 'stdout' | 'stderr';

const HEADER = 8;

/** Splits a multiplexed byte stream into stdout and stderr payloads, across arbitrary chunk boundaries. */
export class FrameDemuxer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly onFrame: (stream: StreamName, payload: Buffer) => void) {}

  /** Feed the next chunk as it arrived from the socket. */
  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    for (;;) {
      if (this.pendingBytes < HEADER) return;
      const header = this.peek(HEADER);
      const size = header.readUInt32BE(4);
      if (this.pendingBytes < HEADER + size) return;
      this.take(HEADER);
      const payload = this.take(size);
      // Type 1 is stdout and 2 stderr; 0 (stdin echo) and anything unknown go to stdout rather than vanish.
      if (size > 0) this.onFrame(header[0] === 2 ? 'stderr' : 'stdout', payload);
    }
  }

  /** Bytes of an unfinished frame left over (non-zero at the stream's end means it was cut). */
  leftover(): number {
    return this.pendingBytes;
  }

  private peek(n: number): Buffer {
    const first = this.pending[0];
    if (first && first.length >= n) return first.subarray(0, n);
    const joined = Buffer.concat(this.pending);
    this.pending = [joined];
    return joined.subarray(0, n);
  }

  private take(n: number): Buffer {
    const parts: Buffer[] = [];
    let need = n;
    while (need > 0) {
      const first = this.pending[0];
      if (!first) break;
      if (first.length <= need) {
        parts.push(first);
        this.pending.shift();
        need -= first.length;
      } else {
        parts.push(first.subarray(0, need));
        this.pending[0] = first.subarray(need);
        need = 0;
      }
    }
    this.pendingBytes -= n;
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  }
}
