// The resident runner's framing (see resident-script.ts): a kind byte, a big-endian u32 length and
// the payload, both ways. Pure; chunks may split frames anywhere.

/** Bytes of a frame's header. */
const HEADER = 5;

/** The largest frame the resident sends (a 64 KiB output chunk, or a short status line). */
export const MAX_RESIDENT_FRAME = 64 * 1024;

/** One frame from the resident. */
export interface ResidentFrame {
  kind: string;
  payload: Buffer;
}

/** A command for the resident: argv (no shell), its working directory and extra environment. */
export function encodeCommand(argv: string[], cwd: string, env: Record<string, string>): Buffer {
  const fields = [cwd, String(Object.keys(env).length), ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...argv];
  if (fields.some((f) => f.includes('\0'))) throw new Error('a command, its directory or environment holds a NUL byte');
  return encodeFrame('c', Buffer.from(fields.join('\0'), 'utf8'));
}

/** One frame for the resident. */
export function encodeFrame(kind: string, payload: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(HEADER);
  header.write(kind, 0, 1, 'latin1');
  header.writeUInt32BE(payload.length, 1);
  return Buffer.concat([header, payload]);
}

/** The end of a command, as the resident reports it in an `x` frame. */
export interface ResidentExit {
  exitCode: number;
  /** Every other process of the sandbox user was gone afterwards. */
  settled: boolean;
  /** The resident could not start a process for it (fork failed). */
  forkFailed: boolean;
}

/** Parse an `x` frame's payload ("<exit> <settled> <fork failed>"); null when malformed. */
export function parseExit(payload: Buffer): ResidentExit | null {
  const m = /^(\d{1,3}) ([01]) ([01])$/.exec(payload.toString('latin1'));
  if (!m) return null;
  return { exitCode: Number(m[1]), settled: m[2] === '1', forkFailed: m[3] === '1' };
}

/** Splits the resident's byte stream into frames; a frame over MAX_RESIDENT_FRAME is a protocol error. */
export class ResidentFrameParser {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(private readonly onFrame: (frame: ResidentFrame) => void) {}

  /** Feed the next chunk; throws on a frame no resident sends. */
  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= HEADER) {
      const size = this.buffer.readUInt32BE(1);
      if (size > MAX_RESIDENT_FRAME) throw new Error(`resident frame of ${size} bytes`);
      if (this.buffer.length < HEADER + size) return;
      const kind = this.buffer.toString('latin1', 0, 1);
      const payload = this.buffer.subarray(HEADER, HEADER + size);
      this.buffer = this.buffer.subarray(HEADER + size);
      this.onFrame({ kind, payload });
    }
  }
}
