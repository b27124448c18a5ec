import { describe, expect, it } from 'vitest';
import { LineDecoder } from '../../../src/llm/line-decoder.js';

function lines(input: string, cuts: number[]): string[] {
  const bytes = new TextEncoder().encode(input);
  const d = new LineDecoder();
  const out: string[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(...d.push(bytes.subarray(at, cut)));
    at = cut;
  }
  out.push(...d.end());
  return out;
}

describe('LineDecoder', () => {
  const input = 'héllo 🦀\r\nsecond\nthird\rfourth\r\n\r\nlast';
  const expected = ['héllo 🦀', 'second', 'third', 'fourth', '', 'last'];
  const n = new TextEncoder().encode(input).length;

  it('splits LF, CRLF and lone CR, keeping a last line without terminator', () => {
    expect(lines(input, [])).toEqual(expected);
  });

  it('gives the same lines whatever the chunk boundaries (multi-byte characters and CRLF cut in two)', () => {
    for (let i = 1; i < n; i++) {
      for (let j = i; j < n; j++) expect(lines(input, i === j ? [i] : [i, j]), `cut at ${i},${j}`).toEqual(expected);
    }
    expect(
      lines(
        input,
        Array.from({ length: n - 1 }, (_, i) => i + 1),
      ),
    ).toEqual(expected);
  });

  it('keeps two line breaks when a CR ends one chunk and a CRLF starts the next', () => {
    expect(lines('a\r\r\nb', [2])).toEqual(['a', '', 'b']);
  });

  it('refuses a line that never ends', () => {
    const d = new LineDecoder();
    const big = new Uint8Array(1024 * 1024).fill(0x61);
    expect(() => {
      for (let i = 0; i < 5; i++) d.push(big);
    }).toThrow(expect.objectContaining({ code: 'MODEL_ERROR' }));
  });
});
