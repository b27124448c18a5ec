// The resident runner's frames (see resident-script.ts), in the framing of src/frames.ts both ways:
// its commands, its exits and its stream of frames. Pure; chunks may split frames anywhere.
import { encodeFrame, FrameParser } from '../frames.js';
import type { WorkspaceFileOp, WorkspaceFileResult } from './types.js';

export { encodeFrame };

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

/** The end of a command, as the resident reports it in an `x` frame. */
export interface ResidentExit {
  exitCode: number;
  /** Every other process of the sandbox user was gone afterwards. */
  settled: boolean;
  /** The resident could not start a process for it (fork failed). */
  forkFailed: boolean;
  /** It could not, and the sandbox's pids limit (as the resident reads it) is full. */
  pidsFull: boolean;
}

/** Parse an `x` frame's payload ("<exit> <settled> <fork failed: 0, 1, or 2 with the pids limit full>"); null when malformed. */
export function parseExit(payload: Buffer): ResidentExit | null {
  const m = /^(\d{1,3}) ([01]) ([012])$/.exec(payload.toString('latin1'));
  if (!m) return null;
  return { exitCode: Number(m[1]), settled: m[2] === '1', forkFailed: m[3] !== '0', pidsFull: m[3] === '2' };
}

/** A file operation for the resident (an `f` frame) on `op.path` under the workspace `root`. */
export function encodeFileOp(op: WorkspaceFileOp, root: string): Buffer {
  const arg = op.op === 'read' ? String(op.maxBytes) : op.op === 'write' ? (op.mode & 0o7777).toString(8) : '0';
  const head = [op.op, root, op.path, arg];
  if (head.some((f) => f.includes('\0'))) throw new Error('a file operation names a path holding a NUL byte');
  const fields = Buffer.from(head.join('\0'), 'utf8');
  return encodeFrame('f', op.op === 'write' ? Buffer.concat([fields, Buffer.from([0]), op.content]) : fields);
}

/** The resident's answer to a file operation, from its `F` frame and the `d` frames before it (null: malformed). */
export function parseFileAnswer(
  op: WorkspaceFileOp,
  status: string,
  content: Buffer,
): WorkspaceFileResult | { kind: 'unsettled' } | null {
  const file = /^file ([0-7]{1,6}) (\d{1,15}) (\d{1,15})$/.exec(status);
  if (file) {
    if (op.op !== 'read') return null;
    const [mode, size, sent] = [parseInt(file[1]!, 8) & 0o777, Number(file[2]), Number(file[3])];
    if (sent !== content.length) return null;
    // a file within the cap comes whole; over it, nothing is sent
    if (size <= op.maxBytes ? sent !== size : sent !== 0) return null;
    return { kind: 'file', mode, size, content: size <= op.maxBytes ? content : null };
  }
  if (content.length > 0) return null;
  if (status.startsWith('failed ')) return { kind: 'failed', reason: status.slice('failed '.length) };
  switch (status) {
    case 'done':
      return op.op === 'read' ? null : { kind: 'done' };
    case 'missing':
    case 'link':
    case 'blocked':
    case 'other':
    case 'unsettled':
      return { kind: status };
    default:
      return null;
  }
}

/** Splits the resident's byte stream into frames; a frame over MAX_RESIDENT_FRAME is a protocol error. */
export class ResidentFrameParser {
  private readonly parser: FrameParser;

  constructor(onFrame: (frame: ResidentFrame) => void) {
    this.parser = new FrameParser(MAX_RESIDENT_FRAME, (kind, payload) => onFrame({ kind, payload }));
  }

  /** Feed the next chunk; throws on a frame no resident sends. */
  push(chunk: Buffer): void {
    this.parser.push(chunk);
  }
}
