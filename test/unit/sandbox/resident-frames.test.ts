import { describe, expect, it } from 'vitest';
import {
  encodeCommand,
  encodeFileOp,
  encodeFrame,
  MAX_RESIDENT_FRAME,
  parseExit,
  parseFileAnswer,
  ResidentFrameParser,
  type ResidentFrame,
} from '../../../src/sandbox/resident-frames.js';

function parseAll(chunks: Buffer[]): ResidentFrame[] {
  const frames: ResidentFrame[] = [];
  const parser = new ResidentFrameParser((f) => frames.push({ kind: f.kind, payload: Buffer.from(f.payload) }));
  for (const c of chunks) parser.push(c);
  return frames;
}

describe('resident frames', () => {
  it('encodes a command as cwd, env count, env entries and argv, NUL-separated', () => {
    const f = encodeCommand(['sh', '-c', 'echo a b'], '/workspace', { A: '1', B: 'x=y' });
    expect(f.toString('latin1', 0, 1)).toBe('c');
    expect(f.readUInt32BE(1)).toBe(f.length - 5);
    expect(f.subarray(5).toString('utf8').split('\0')).toEqual([
      '/workspace',
      '2',
      'A=1',
      'B=x=y',
      'sh',
      '-c',
      'echo a b',
    ]);
  });

  it('refuses a NUL byte anywhere in a command', () => {
    expect(() => encodeCommand(['a\0b'], '/', {})).toThrow(/NUL/);
    expect(() => encodeCommand(['a'], '/', { K: 'v\0' })).toThrow(/NUL/);
  });

  it('splits frames across any chunk boundary', () => {
    const bytes = Buffer.concat([
      encodeFrame('r', Buffer.from('hello')),
      encodeFrame('o', Buffer.from([0, 1, 2, 255])),
      encodeFrame('x', Buffer.from('0 1 0')),
    ]);
    const whole = parseAll([bytes]);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(parseAll([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(whole);
    }
    expect(parseAll(Array.from(bytes, (b) => Buffer.from([b])))).toEqual(whole);
    expect(whole.map((f) => f.kind)).toEqual(['r', 'o', 'x']);
    expect(whole[1]?.payload).toEqual(Buffer.from([0, 1, 2, 255]));
  });

  it('refuses a frame larger than any the resident sends', () => {
    const header = Buffer.alloc(5);
    header.write('o', 0, 'latin1');
    header.writeUInt32BE(MAX_RESIDENT_FRAME + 1, 1);
    expect(() => parseAll([header])).toThrow(/frame/);
  });

  it('parses exit frames and rejects anything else', () => {
    expect(parseExit(Buffer.from('137 1 0'))).toEqual({
      exitCode: 137,
      settled: true,
      forkFailed: false,
      pidsFull: false,
    });
    expect(parseExit(Buffer.from('126 0 1'))).toEqual({
      exitCode: 126,
      settled: false,
      forkFailed: true,
      pidsFull: false,
    });
    // the resident read the pids limit full when its fork failed
    expect(parseExit(Buffer.from('126 1 2'))).toEqual({
      exitCode: 126,
      settled: true,
      forkFailed: true,
      pidsFull: true,
    });
    for (const bad of ['', '1', '1 2 0', 'a 1 0', '1 1 0 ', '1000 1 0', '126 1 3'])
      expect(parseExit(Buffer.from(bad))).toBeNull();
  });

  it('encodes file operations: op, workspace root, path, argument, and the content of a write', () => {
    const fields = (f: Buffer): string[] => f.subarray(5).toString('latin1').split('\0');
    const read = encodeFileOp({ op: 'read', path: 'src/a.py', maxBytes: 1024 }, '/workspace');
    expect(read.toString('latin1', 0, 1)).toBe('f');
    expect(fields(read)).toEqual(['read', '/workspace', 'src/a.py', '1024']);
    const content = Buffer.from([0x61, 0, 0xff, 0x0a]);
    const write = encodeFileOp({ op: 'write', path: 'b.sh', content, mode: 0o755 }, '/workspace');
    expect(write.readUInt32BE(1)).toBe(write.length - 5);
    expect(write.subarray(5, 5 + 'write\x00/workspace\x00b.sh\x00755\x00'.length).toString('latin1')).toBe(
      'write\x00/workspace\x00b.sh\x00755\x00',
    );
    expect(write.subarray(write.length - content.length)).toEqual(content);
    expect(fields(encodeFileOp({ op: 'remove', path: 'x' }, '/workspace'))).toEqual(['remove', '/workspace', 'x', '0']);
    expect(() => encodeFileOp({ op: 'remove', path: 'a\0b' }, '/workspace')).toThrow(/NUL/);
  });

  it('parses file answers, and takes only what the operation can answer', () => {
    const read = { op: 'read', path: 'a', maxBytes: 10 } as const;
    const write = { op: 'write', path: 'a', content: Buffer.from('x'), mode: 0o644 } as const;
    expect(parseFileAnswer(read, 'file 755 3 3', Buffer.from('abc'))).toEqual({
      kind: 'file',
      mode: 0o755,
      size: 3,
      content: Buffer.from('abc'),
    });
    // over the cap: nothing sent, no content
    expect(parseFileAnswer(read, 'file 4755 11 0', Buffer.alloc(0))).toEqual({
      kind: 'file',
      mode: 0o755,
      size: 11,
      content: null,
    });
    for (const kind of ['missing', 'link', 'blocked', 'other', 'unsettled'])
      expect(parseFileAnswer(read, kind, Buffer.alloc(0))).toEqual({ kind });
    expect(parseFileAnswer(write, 'done', Buffer.alloc(0))).toEqual({ kind: 'done' });
    expect(parseFileAnswer(write, 'failed No space left on device', Buffer.alloc(0))).toEqual({
      kind: 'failed',
      reason: 'No space left on device',
    });
    // the content must be exactly what the answer says it sent, and only a read sends any
    expect(parseFileAnswer(read, 'file 644 3 3', Buffer.from('ab'))).toBeNull();
    expect(parseFileAnswer(read, 'file 644 3 2', Buffer.from('ab'))).toBeNull();
    expect(parseFileAnswer(read, 'file 644 11 11', Buffer.alloc(11))).toBeNull();
    expect(parseFileAnswer(write, 'file 644 1 1', Buffer.from('x'))).toBeNull();
    expect(parseFileAnswer(read, 'done', Buffer.alloc(0))).toBeNull();
    expect(parseFileAnswer(write, 'done', Buffer.from('x'))).toBeNull();
    for (const bad of ['', 'file', 'file 9 1 1', 'nope', 'bad'])
      expect(parseFileAnswer(read, bad, Buffer.alloc(0))).toBeNull();
  });
});
