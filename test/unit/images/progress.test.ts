import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ProgressReader, parseProgressLine, readProgress } from '../../../src/images/progress.js';

describe('parseProgressLine', () => {
  it('splits build stream text into lines', () => {
    expect(parseProgressLine(JSON.stringify({ stream: 'Step 1/4 : ARG BASE\n' }))).toEqual([
      { kind: 'text', text: 'Step 1/4 : ARG BASE' },
    ]);
    expect(parseProgressLine(JSON.stringify({ stream: 'a\nb\n\n' }))).toEqual([
      { kind: 'text', text: 'a' },
      { kind: 'text', text: 'b' },
    ]);
  });

  it('joins pull status, id and progress', () => {
    expect(parseProgressLine(JSON.stringify({ status: 'Downloading', id: 'abc', progress: '[==>  ]' }))).toEqual([
      { kind: 'text', text: 'abc Downloading [==>  ]' },
    ]);
  });

  it('turns errorDetail into an error, preferring its message', () => {
    const line = JSON.stringify({ errorDetail: { code: 7, message: 'returned a non-zero code: 7' }, error: 'short' });
    expect(parseProgressLine(line)).toEqual([{ kind: 'error', message: 'returned a non-zero code: 7' }]);
    expect(parseProgressLine(JSON.stringify({ error: 'only error' }))).toEqual([
      { kind: 'error', message: 'only error' },
    ]);
  });

  it('reports the aux image id', () => {
    expect(parseProgressLine(JSON.stringify({ aux: { ID: 'sha256:1' } }))).toEqual([{ kind: 'aux', id: 'sha256:1' }]);
  });

  it('keeps malformed or unexpected lines as text and skips blank ones', () => {
    expect(parseProgressLine('not json')).toEqual([{ kind: 'text', text: 'not json' }]);
    expect(parseProgressLine(JSON.stringify({ stream: 42 }))).toEqual([{ kind: 'text', text: '{"stream":42}' }]);
    expect(parseProgressLine('   ')).toEqual([]);
  });
});

describe('ProgressReader', () => {
  it('reassembles lines split across chunks and keeps a bounded tail', () => {
    const seen: string[] = [];
    const reader = new ProgressReader((l) => seen.push(l), 2);
    const all = ['one', 'two', 'three'].map((s) => JSON.stringify({ stream: `${s}\n` })).join('\r\n') + '\n';
    for (let i = 0; i < all.length; i += 5) reader.push(all.slice(i, i + 5));
    const summary = reader.end();
    expect(seen).toEqual(['one', 'two', 'three']);
    expect(summary.tail).toEqual(['two', 'three']);
    expect(summary.error).toBeUndefined();
  });

  it('summarises an error and the aux id from a stream', async () => {
    const lines = [
      { aux: { ID: 'sha256:x' } },
      { stream: 'running\n' },
      { errorDetail: { message: 'boom' }, error: 'boom' },
    ].map((o) => JSON.stringify(o) + '\n');
    const summary = await readProgress(Readable.from(lines.map((l) => Buffer.from(l))));
    expect(summary).toEqual({ error: 'boom', auxId: 'sha256:x', tail: ['running', 'error: boom'] });
  });

  it('flushes a final line without a newline', () => {
    const reader = new ProgressReader();
    reader.push(JSON.stringify({ stream: 'last' }));
    expect(reader.end().tail).toEqual(['last']);
  });
});
