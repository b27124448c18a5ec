import { afterEach, describe, expect, it, vi } from 'vitest';
import { ByteReader } from '../../../src/git/byte-reader.js';

/** A source of `count` chunks of `size` bytes of `x`, then `tail`. */
async function* chunks(count: number, size: number, tail: string): AsyncGenerator<Buffer> {
  const chunk = Buffer.alloc(size, 'x');
  for (let i = 0; i < count; i++) yield chunk;
  yield Buffer.from(tail);
}

afterEach(() => vi.restoreAllMocks());

describe('ByteReader', () => {
  it('reads records across chunks, and null at a clean end', async () => {
    const r = new ByteReader(
      (async function* () {
        yield Buffer.from('ab\0c');
        yield Buffer.from('d\0');
        yield Buffer.alloc(0);
        yield Buffer.from('\0e\n');
      })(),
    );
    expect((await r.readUntil(0))?.toString()).toBe('ab');
    expect((await r.readUntil(0))?.toString()).toBe('cd');
    expect((await r.readUntil(0))?.toString()).toBe('');
    expect((await r.readUntil(10))?.toString()).toBe('e');
    expect(await r.readUntil(10)).toBeNull();
  });

  it('fails on a record cut short', async () => {
    const r = new ByteReader(
      (async function* () {
        yield Buffer.from('abc');
      })(),
    );
    await expect(r.readUntil(0)).rejects.toThrow(/middle of a record/);
  });

  it('reads one long record in linear work: each byte is copied at most once', async () => {
    const copied = vi.spyOn(Buffer, 'concat');
    const size = 64 * 1024;
    const count = 256; // 16 MiB in one line
    const r = new ByteReader(chunks(count, size, 'y\nnext\n'));
    const line = await r.readUntil(10);
    expect(line?.length).toBe(count * size + 1);
    const bytes = copied.mock.calls.reduce((n, [list]) => n + list.reduce((m, b) => m + b.length, 0), 0);
    expect(bytes).toBeLessThanOrEqual(count * size + 1);
    expect((await r.readUntil(10))?.toString()).toBe('next');
  });

  it('keeps only the first bytes of a capped record, and says how long it was', async () => {
    const copied = vi.spyOn(Buffer, 'concat');
    const r = new ByteReader(chunks(100, 64 * 1024, 'z\0rest\0'));
    const rec = await r.readRecord(0, 400);
    expect(rec?.bytes.length).toBe(400);
    expect(rec?.length).toBe(100 * 64 * 1024 + 1);
    expect(copied).not.toHaveBeenCalled();
    expect((await r.readRecord(0, 400))?.bytes.toString()).toBe('rest');
  });

  it('stops reading a record longer than its limit', async () => {
    const r = new ByteReader(chunks(100, 64 * 1024, '\0'));
    await expect(r.readRecord(0, 400, 1024 * 1024)).rejects.toThrow(/longer than 1048576 bytes/);
  });
});
