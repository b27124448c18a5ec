import { describe, expect, it } from 'vitest';
import { FrameDemuxer, type StreamName } from '../../../src/sandbox/demux.js';

function frame(type: number, payload: string | Buffer): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const header = Buffer.alloc(8);
  header[0] = type;
  header.writeUInt32BE(body.length, 4);
  return Buffer.concat([header, body]);
}

function run(chunks: Buffer[]) {
  const out: Record<StreamName, Buffer[]> = { stdout: [], stderr: [] };
  const d = new FrameDemuxer((s, p) => out[s].push(p));
  for (const c of chunks) d.push(c);
  return {
    stdout: Buffer.concat(out.stdout).toString(),
    stderr: Buffer.concat(out.stderr).toString(),
    leftover: d.leftover(),
  };
}

describe('FrameDemuxer', () => {
  const stream = Buffer.concat([
    frame(1, 'hello '),
    frame(2, 'oops'),
    frame(1, 'world'),
    frame(1, ''),
    frame(2, '!\n'),
  ]);

  it('splits whole frames into stdout and stderr', () => {
    expect(run([stream])).toEqual({ stdout: 'hello world', stderr: 'oops!\n', leftover: 0 });
  });

  it('gives the same answer for every way of cutting the stream in two and three', () => {
    for (let i = 0; i <= stream.length; i++) {
      expect(run([stream.subarray(0, i), stream.subarray(i)])).toEqual({
        stdout: 'hello world',
        stderr: 'oops!\n',
        leftover: 0,
      });
      for (let j = i; j <= stream.length; j += 3) {
        expect(run([stream.subarray(0, i), stream.subarray(i, j), stream.subarray(j)]).stdout).toBe('hello world');
      }
    }
  });

  it('handles one byte at a time', () => {
    expect(run([...stream].map((b) => Buffer.from([b])))).toEqual({
      stdout: 'hello world',
      stderr: 'oops!\n',
      leftover: 0,
    });
  });

  it('reports a cut frame as leftover and emits nothing of it', () => {
    const big = frame(1, Buffer.alloc(100_000, 0x61));
    const r = run([frame(2, 'e'), big.subarray(0, 50_000)]);
    expect(r).toEqual({ stdout: '', stderr: 'e', leftover: 50_000 });
  });

  it('keeps large payloads intact across many chunks', () => {
    const payload = Buffer.alloc(300_000);
    for (let i = 0; i < payload.length; i++) payload[i] = i % 251;
    const data = frame(1, payload);
    const chunks: Buffer[] = [];
    for (let i = 0; i < data.length; i += 16_381) chunks.push(data.subarray(i, i + 16_381));
    const got: Buffer[] = [];
    const d = new FrameDemuxer((_s, p) => got.push(p));
    for (const c of chunks) d.push(c);
    expect(Buffer.concat(got).equals(payload)).toBe(true);
  });
});
