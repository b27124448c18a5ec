// Tar in and out without Docker: packed files, the single-file reader's refusals, and a host
// directory packed without following links or opening FIFOs.
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import * as tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packFiles, readSingleFile } from '../../../src/sandbox/archive.js';
import { packDirectory } from '../../../src/sandbox/copy-in.js';

async function entries(source: Readable | Buffer) {
  const extract = tar.extract();
  (Buffer.isBuffer(source) ? Readable.from([source]) : source).pipe(extract);
  const out: Array<{
    name: string;
    type: string;
    mode: number;
    uid: number;
    gid: number;
    linkname: string;
    body: string;
  }> = [];
  for await (const e of extract) {
    const chunks: Buffer[] = [];
    for await (const c of e) chunks.push(c as Buffer);
    const h = e.header;
    out.push({
      name: h.name,
      type: h.type ?? '',
      mode: h.mode ?? 0,
      uid: h.uid ?? -1,
      gid: h.gid ?? -1,
      linkname: h.linkname ?? '',
      body: Buffer.concat(chunks).toString(),
    });
  }
  return out;
}

async function tarOf(
  list: Array<{ header: Partial<tar.Header> & { name: string }; body?: string }>,
): Promise<Readable> {
  const pack = tar.pack();
  for (const { header, body } of list) pack.entry(header, body ?? '');
  pack.finalize();
  return Readable.from(pack);
}

describe('packFiles', () => {
  it('writes parent directories and files owned by the sandbox user with plain modes', async () => {
    const buf = await packFiles(
      'a/b',
      [
        { path: 'c/d.txt', content: 'x', mode: 0o4755 },
        { path: 'e.txt', content: Buffer.from('yy') },
      ],
      { uid: 7, gid: 8 },
    );
    const got = await entries(buf);
    expect(got.map((e) => `${e.type} ${e.name} ${e.mode.toString(8)} ${e.uid}:${e.gid} ${e.body}`)).toEqual([
      'directory a/ 755 7:8 ',
      'directory a/b/ 755 7:8 ',
      'directory a/b/c/ 755 7:8 ',
      'file a/b/c/d.txt 755 7:8 x',
      'file a/b/e.txt 644 7:8 yy',
    ]);
  });
  it('refuses escaping paths', async () => {
    await expect(packFiles('', [{ path: '../x', content: '' }], { uid: 1, gid: 1 })).rejects.toThrow(/refused/);
  });
});

describe('readSingleFile', () => {
  it('returns the one regular file named as asked', async () => {
    const got = await readSingleFile(
      await tarOf([{ header: { name: 'f.txt', type: 'file' }, body: 'hello' }]),
      'f.txt',
      10,
    );
    expect(got.toString()).toBe('hello');
  });
  it.each([
    ['a symlink', [{ header: { name: 'f.txt', type: 'symlink' as const, linkname: '/etc/passwd' } }], /symlink/],
    ['a directory', [{ header: { name: 'f.txt/', type: 'directory' as const } }], /directory/],
    ['another name', [{ header: { name: 'g.txt', type: 'file' as const }, body: 'x' }], /names "g.txt"/],
    [
      'two entries',
      [
        { header: { name: 'f.txt', type: 'file' as const }, body: 'x' },
        { header: { name: 'f.txt', type: 'file' as const }, body: 'y' },
      ],
      /more than one/,
    ],
    ['too many bytes', [{ header: { name: 'f.txt', type: 'file' as const }, body: 'x'.repeat(11) }], /cap/],
    ['nothing', [], /empty/],
  ])('refuses %s', async (_what, list, message) => {
    await expect(readSingleFile(await tarOf(list), 'f.txt', 10)).rejects.toThrow(message);
  });
  it('refuses garbage', async () => {
    await expect(readSingleFile(Readable.from([Buffer.alloc(1024, 7)]), 'f.txt', 10)).rejects.toThrow(/refused/);
  });
});

describe('packDirectory', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hb-pack-'));
    await mkdir(path.join(dir, 'repo', 'sub'), { recursive: true });
    await writeFile(path.join(dir, 'secret'), 'SECRET');
    await writeFile(path.join(dir, 'repo', 'sub', 'a.txt'), 'aaa');
    await writeFile(path.join(dir, 'repo', 'suid'), 'x');
    await chmod(path.join(dir, 'repo', 'suid'), 0o4755);
    await symlink(path.join(dir, 'secret'), path.join(dir, 'repo', 'link'));
    await writeFile(path.join(dir, 'repo', 'big.bin'), Buffer.alloc(3 * 1024 * 1024 + 17, 0x62));
    execFileSync('mkfifo', [path.join(dir, 'repo', 'fifo')]);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps links as links, skips the FIFO unopened, maps owners and strips setuid', async () => {
    const packed = packDirectory(path.join(dir, 'repo'), { uid: 10001, gid: 10001 });
    const got = await entries(packed.stream);
    expect(packed.stats).toEqual({ files: 3, bytes: 4 + 3 * 1024 * 1024 + 17, skipped: 1 });
    expect(got.find((e) => e.name === 'big.bin')?.body).toBe('b'.repeat(3 * 1024 * 1024 + 17));
    expect(got.map((e) => e.name)).toEqual(['big.bin', 'link', 'sub', 'sub/a.txt', 'suid']);
    const byName = new Map(got.map((e) => [e.name, e]));
    expect(byName.get('link')).toMatchObject({ type: 'symlink', linkname: path.join(dir, 'secret'), body: '' });
    expect(byName.has('fifo')).toBe(false);
    expect(byName.get('suid')?.mode).toBe(0o755);
    expect(got.every((e) => e.uid === 10001 && e.gid === 10001)).toBe(true);
    expect(got.some((e) => e.body.includes('SECRET'))).toBe(false);
  });
});
