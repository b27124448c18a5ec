import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameParser } from '../../src/frames.js';

describe('FrameParser', () => {
  it('hands out a frame lying in one chunk as a view of it, and copies only a frame split across chunks', () => {
    const got: { kind: string; payload: Buffer }[] = [];
    const parser = new FrameParser(1024, (kind, payload) => got.push({ kind, payload }));
    const chunk = Buffer.concat([encodeFrame('o', Buffer.from('abc')), encodeFrame('e', Buffer.from('de'))]);
    parser.push(chunk);
    expect(got.map((f) => [f.kind, f.payload.toString()])).toEqual([
      ['o', 'abc'],
      ['e', 'de'],
    ]);
    expect(got[0]!.payload.buffer).toBe(chunk.buffer);
    const split = encodeFrame('x', Buffer.from('0 0'));
    parser.push(split.subarray(0, 3));
    expect(got).toHaveLength(2);
    parser.push(split.subarray(3));
    expect(got[2]).toMatchObject({ kind: 'x' });
    expect(got[2]!.payload.toString()).toBe('0 0');
  });

  it('refuses a frame over its limit as soon as the header says so', () => {
    const parser = new FrameParser(4, () => undefined);
    expect(() => parser.push(encodeFrame('o', Buffer.alloc(5)).subarray(0, 5))).toThrow(/frame of 5 bytes/);
  });
});
