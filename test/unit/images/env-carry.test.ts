import { Readable } from 'node:stream';
import tar from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { carryArchive } from '../../../src/images/env-carry.js';

async function entriesOf(
  stream: Readable,
): Promise<{ name: string; type: string; mode: number; uid: number; linkname?: string | null }[]> {
  const extract = tar.extract();
  const out: { name: string; type: string; mode: number; uid: number; linkname?: string | null }[] = [];
  extract.on('entry', (h, body, next) => {
    out.push({ name: h.name, type: h.type ?? 'file', mode: h.mode ?? 0, uid: h.uid ?? 0, linkname: h.linkname });
    body.on('end', next);
    body.resume();
  });
  const done = new Promise<void>((r) => extract.on('finish', () => r()));
  stream.pipe(extract);
  await done;
  return out;
}

describe('carryArchive', () => {
  it('keeps only the carried directory, renamed under its place in the image; drops escapes and devices; clears set-id bits', async () => {
    const pack = tar.pack();
    pack.entry({ name: 'venv/', type: 'directory', mode: 0o755 });
    pack.entry({ name: 'venv/lib/python3.11/site-packages/x.py', mode: 0o4755 }, 'print(1)');
    pack.entry({ name: 'venv/bin/python3', type: 'symlink', linkname: '/usr/bin/python3' });
    pack.entry({ name: 'venv/hard', type: 'link', linkname: 'venv/lib/python3.11/site-packages/x.py' });
    pack.entry({ name: 'venv/escape', type: 'link', linkname: '../etc/passwd' });
    pack.entry({ name: 'venv/../etc/cron.d/x' }, 'x');
    pack.entry({ name: 'other/file' }, 'x');
    pack.entry({ name: 'venv/dev', type: 'character-device', devmajor: 1, devminor: 3 });
    pack.finalize();
    const carried = carryArchive(
      Readable.from(pack),
      { from: '/opt/hammer/venv', to: '/opt/hammer/venv', significant: (rel) => rel.startsWith('lib/') },
      { uid: 10001, gid: 10001 },
    );
    const [entries, stats] = await Promise.all([entriesOf(carried.stream), carried.done]);
    expect(entries.map((e) => e.name)).toEqual([
      'opt/',
      'opt/hammer/',
      'opt/hammer/venv/',
      'opt/hammer/venv/lib/python3.11/site-packages/x.py',
      'opt/hammer/venv/bin/python3',
      'opt/hammer/venv/hard',
    ]);
    expect(entries.find((e) => e.name.endsWith('x.py'))).toMatchObject({ mode: 0o755, uid: 10001 });
    expect(entries.find((e) => e.name.endsWith('hard'))?.linkname).toBe(
      'opt/hammer/venv/lib/python3.11/site-packages/x.py',
    );
    expect(entries[0]).toMatchObject({ uid: 0, mode: 0o755 });
    expect(stats).toMatchObject({ significant: 1, dropped: 4 });
  });

  it('refuses files of more bytes than the ceiling before writing the entry that passes it (a sparse file counts whole)', async () => {
    const pack = tar.pack();
    pack.entry({ name: 'venv/', type: 'directory', mode: 0o755 });
    pack.entry({ name: 'venv/a.py' }, 'x'.repeat(600));
    pack.entry({ name: 'venv/b.py' }, 'y'.repeat(600));
    pack.finalize();
    const carried = carryArchive(
      Readable.from(pack),
      { from: '/opt/hammer/venv', to: '/opt/hammer/venv', significant: () => true },
      { uid: 10001, gid: 10001, maxBytes: 1000 },
    );
    const names: string[] = [];
    const extract = tar.extract();
    extract.on('entry', (h, body, next) => {
      names.push(h.name);
      body.on('end', next);
      body.resume();
    });
    carried.stream.pipe(extract);
    await expect(carried.done).rejects.toMatchObject({
      code: 'SETUP_FAILED',
      message: expect.stringContaining('more than 1000 bytes of files ([env] max_image_size)'),
    });
    expect(names).not.toContain('opt/hammer/venv/b.py');
  });
});

describe('carryArchive: links and what tools write beside their packages', () => {
  it('points a link that leads out of the carried directory at the path it meant (a workspace member), and keeps the others', async () => {
    const pack = tar.pack();
    pack.entry({ name: 'node_modules/', type: 'directory', mode: 0o755 });
    pack.entry({ name: 'node_modules/calc-lib', type: 'symlink', linkname: '../library' });
    pack.entry({ name: 'node_modules/.bin/vitest', type: 'symlink', linkname: '../vitest/vitest.mjs' });
    pack.entry({ name: 'node_modules/abs', type: 'symlink', linkname: '/usr/bin/node' });
    pack.finalize();
    const carried = carryArchive(
      Readable.from(pack),
      { from: '/workspace/node_modules', to: '/node_modules', significant: () => true },
      { uid: 10001, gid: 10001 },
    );
    const entries = await entriesOf(carried.stream);
    const link = (name: string) => entries.find((e) => e.name === name)?.linkname;
    expect(link('node_modules/calc-lib')).toBe('/workspace/library');
    expect(link('node_modules/.bin/vitest')).toBe('../vitest/vitest.mjs');
    expect(link('node_modules/abs')).toBe('/usr/bin/node');
  });

  it("makes vitest's tsbuildinfo (npm's and pnpm's layouts) a link into the sandbox's /tmp, unless the file is there", async () => {
    const pack = tar.pack();
    pack.entry({ name: 'node_modules/', type: 'directory', mode: 0o755 });
    pack.entry({ name: 'node_modules/vitest/dist/', type: 'directory', mode: 0o755 });
    pack.entry({ name: 'node_modules/vitest/dist/index.js' }, 'x');
    pack.entry({ name: 'node_modules/.pnpm/vitest@4.1.12/node_modules/vitest/dist/', type: 'directory', mode: 0o755 });
    pack.entry({ name: 'node_modules/.pnpm/vitest@4.1.12/node_modules/vitest/dist/tsconfig.tmp.tsbuildinfo' }, '{}');
    pack.entry({ name: 'node_modules/other/dist/', type: 'directory', mode: 0o755 });
    pack.finalize();
    const carried = carryArchive(
      Readable.from(pack),
      { from: '/workspace/node_modules', to: '/node_modules', significant: () => true },
      { uid: 10001, gid: 10001 },
    );
    const entries = await entriesOf(carried.stream);
    // Vite's bundled config goes to /tmp, from where /node_modules resolves its imports
    expect(entries.find((e) => e.name === 'node_modules/.vite-temp')).toMatchObject({
      type: 'symlink',
      linkname: '/tmp',
    });
    const links = entries.filter((e) => e.name.endsWith('.tsbuildinfo'));
    expect(links).toEqual([
      {
        name: 'node_modules/.pnpm/vitest@4.1.12/node_modules/vitest/dist/tsconfig.tmp.tsbuildinfo',
        type: 'file',
        mode: 0o644,
        uid: 10001,
        linkname: null,
      },
      {
        name: 'node_modules/vitest/dist/tsconfig.tmp.tsbuildinfo',
        type: 'symlink',
        mode: 0o777,
        uid: 10001,
        linkname: expect.stringMatching(/^\/tmp\/hammer-[0-9a-f]{12}-tsconfig\.tmp\.tsbuildinfo$/),
      },
    ]);
  });
});
