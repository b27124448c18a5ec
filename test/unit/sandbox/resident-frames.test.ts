import { describe, expect, it } from 'vitest';
import {
  encodeCommand,
  encodeFrame,
  MAX_RESIDENT_FRAME,
  parseExit,
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
});
