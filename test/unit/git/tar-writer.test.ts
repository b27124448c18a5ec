import { PassThrough } from 'node:stream';
import tar from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { encodeHeader, END_OF_ARCHIVE, padding, writeOut } from '../../../src/git/tar-writer.js';

async function extract(
  buf: Buffer,
): Promise<
  { name: string; type: string; mode: number; uid: number; size: number; linkname: string | null; body: string }[]
> {
  const ex = tar.extract();
  const out: {
    name: string;
    type: string;
    mode: number;
    uid: number;
    size: number;
    linkname: string | null;
    body: string;
  }[] = [];
  const done = new Promise<void>((resolve, reject) => {
    ex.on('entry', (h, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: unknown) => chunks.push(Buffer.from(c as Uint8Array)));
      stream.on('end', () => {
        out.push({
          name: h.name,
          type: h.type ?? '',
          mode: h.mode ?? 0,
          uid: h.uid ?? -1,
          size: h.size ?? 0,
          linkname: h.linkname ?? null,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        next();
      });
    });
    ex.on('finish', resolve);
    ex.on('error', reject);
  });
  ex.end(buf);
  await done;
  return out;
}

const base = { uid: 10001, gid: 10001, mtime: new Date('2026-01-01T00:00:00Z') };

describe('tar writer', () => {
  it('writes ustar records a standard reader extracts exactly', async () => {
    const body = Buffer.from('print("hi")\n');
    const archive = Buffer.concat([
      encodeHeader({ ...base, name: 'src/', type: 'directory', mode: 0o755, size: 0 }),
      encodeHeader({ ...base, name: 'src/a.py', type: 'file', mode: 0o755, size: body.length }),
      body,
      padding(body.length),
      encodeHeader({ ...base, name: 'link', type: 'symlink', mode: 0o777, size: 0, linkname: '/etc/passwd' }),
      END_OF_ARCHIVE,
    ]);
    expect(archive.length % 512).toBe(0);
    const entries = await extract(archive);
    expect(entries).toEqual([
      { name: 'src/', type: 'directory', mode: 0o755, uid: 10001, size: 0, linkname: null, body: '' },
      {
        name: 'src/a.py',
        type: 'file',
        mode: 0o755,
        uid: 10001,
        size: body.length,
        linkname: null,
        body: 'print("hi")\n',
      },
      { name: 'link', type: 'symlink', mode: 0o777, uid: 10001, size: 0, linkname: '/etc/passwd', body: '' },
    ]);
  });

  it('uses pax records for long and non-ASCII names and long link targets', async () => {
    const long = `${'deep/'.repeat(40)}file-with-a-long-name.txt`;
    const unicode = `${'ü'.repeat(60)}.md`; // 120 bytes of UTF-8
    const target = `../${'x'.repeat(150)}`;
    const archive = Buffer.concat([
      encodeHeader({ ...base, name: long, type: 'file', mode: 0o644, size: 3 }),
      Buffer.from('abc'),
      padding(3),
      encodeHeader({ ...base, name: unicode, type: 'file', mode: 0o644, size: 0 }),
      encodeHeader({ ...base, name: 'l', type: 'symlink', mode: 0o777, size: 0, linkname: target }),
      END_OF_ARCHIVE,
    ]);
    const entries = await extract(archive);
    expect(entries.map((e) => e.name)).toEqual([long, unicode, 'l']);
    expect(entries[0]!.body).toBe('abc');
    expect(entries[2]!.linkname).toBe(target);
  });

  it('pads bodies to whole blocks', () => {
    expect(padding(0).length).toBe(0);
    expect(padding(1).length).toBe(511);
    expect(padding(512).length).toBe(0);
    expect(padding(513).length).toBe(511);
  });

  it('waits for drain and refuses a closed stream', async () => {
    const out = new PassThrough({ highWaterMark: 16 });
    const written = writeOut(out, Buffer.alloc(64));
    let resolved = false;
    void written.then(() => (resolved = true));
    await new Promise((r) => setImmediate(r));
    expect(resolved).toBe(false);
    out.read();
    await written;
    out.destroy();
    await expect(writeOut(out, Buffer.alloc(1))).rejects.toThrow(/closed/);
  });
});
