import { describe, expect, it } from 'vitest';
import { droppedMarker, OutputCapture } from '../../../src/sandbox/capture.js';

function capture(max: number, chunks: Array<string | Buffer>) {
  const c = new OutputCapture(max);
  for (const ch of chunks) c.push(typeof ch === 'string' ? Buffer.from(ch) : ch);
  return c.result();
}

describe('OutputCapture', () => {
  it('keeps everything under the cap', () => {
    expect(capture(100, ['abc', 'def'])).toEqual({ text: 'abcdef', totalBytes: 6, droppedBytes: 0 });
    expect(capture(6, ['abc', 'def'])).toEqual({ text: 'abcdef', totalBytes: 6, droppedBytes: 0 });
  });

  it('keeps the head half and tail half and marks what it dropped', () => {
    const r = capture(10, ['0123456789', 'abcdefghij']);
    expect(r).toEqual({ text: `01234${droppedMarker(10)}fghij`, totalBytes: 20, droppedBytes: 10 });
    expect(droppedMarker(123456)).toBe('\n[... 123456 bytes dropped ...]\n');
  });

  it('gives the same result however the input is chunked', () => {
    const input = Buffer.from(Array.from({ length: 1000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(''));
    const whole = capture(64, [input]);
    for (const size of [1, 3, 7, 31, 32, 33, 500]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < input.length; i += size) chunks.push(input.subarray(i, i + size));
      expect(capture(64, chunks)).toEqual(whole);
    }
    expect(whole.text.startsWith(input.subarray(0, 32).toString())).toBe(true);
    expect(whole.text.endsWith(input.subarray(968).toString())).toBe(true);
  });

  it('counts every byte of a huge stream while holding only the budget', () => {
    const c = new OutputCapture(1024);
    const chunk = Buffer.alloc(65536, 0x78);
    for (let i = 0; i < 1600; i++) c.push(chunk); // ~100 MB
    const r = c.result();
    expect(r.totalBytes).toBe(1600 * 65536);
    expect(r.droppedBytes).toBe(1600 * 65536 - 1024);
    expect(r.text.length).toBeLessThan(1100);
  });

  it('replaces invalid UTF-8 and never splits a character at the cut', () => {
    expect(capture(100, [Buffer.from([0x61, 0xff, 0x62])]).text).toBe('a\uFFFDb');
    // "é" is two bytes; with a cap of 4 the head would end (and the tail begin) inside one.
    const r = capture(4, ['aé', 'xxxxxx', 'éb']);
    expect(r.text).not.toContain('\uFFFD');
    expect(r.text.startsWith('a')).toBe(true);
    expect(r.text.endsWith(']\nb')).toBe(true);
    expect(r.totalBytes).toBe(3 + 6 + 3);
    expect(r.droppedBytes).toBe(12 - 2);
    expect(r.text).toContain(`[... ${r.droppedBytes} bytes dropped ...]`);
  });

  it('a zero budget keeps nothing but still counts', () => {
    expect(capture(0, ['abc'])).toEqual({ text: droppedMarker(3), totalBytes: 3, droppedBytes: 3 });
  });
});
