import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import tar from 'tar-stream';
import { afterEach, describe, expect, it } from 'vitest';
import { Workbench, baseTarStream, gitText, isSafePath, resolveUserRepo } from '../../../src/git/index.js';
import { setGitLauncher } from '../../../src/git/launcher.js';
import { createFixtureRepo, type FixtureFile, type FixtureRepo } from '../../helpers/fixture-repo.js';

// what is held, not what is garbage yet to be collected: a full collection before each look
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const identity = { name: 'hammer-box', email: 'hammer-box@localhost' };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

interface Extracted {
  type: string;
  mode: number;
  uid: number;
  gid: number;
  linkname: string | null;
  data: Buffer;
}

async function extractAll(stream: Readable): Promise<Map<string, Extracted>> {
  const out = new Map<string, Extracted>();
  const extract = tar.extract();
  stream.on('error', (err) => extract.destroy(err));
  stream.pipe(extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    const h = entry.header;
    out.set(h.name, {
      type: h.type,
      mode: h.mode,
      uid: h.uid,
      gid: h.gid,
      linkname: h.linkname || null,
      data: Buffer.concat(chunks),
    });
  }
  return out;
}

async function workbenchFor(files: Record<string, FixtureFile>): Promise<{ repo: FixtureRepo; wb: Workbench }> {
  const repo = await createFixtureRepo({ files });
  cleanups.push(() => repo.cleanup());
  const user = await resolveUserRepo(repo.path, 'main');
  const wb = await Workbench.create(user, user.baseCommit, { identity });
  cleanups.push(() => wb.dispose());
  return { repo, wb };
}

describe('baseTarStream', () => {
  it('round-trips the exact bytes and modes of the commit', async () => {
    const binary = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
    const { wb } = await workbenchFor({
      'README.md': 'hello\r\nworld\n',
      'src/pkg/mod.py': 'print("x")\n',
      'bin/run.sh': { content: '#!/bin/sh\necho hi\n', executable: true },
      'data/blob.bin': binary,
      'empty.txt': '',
      'link-out': { symlink: '/etc/passwd' },
      'src/link-in': { symlink: 'pkg/mod.py' },
    });
    const archive = baseTarStream(wb, wb.head(), { uid: 1234, gid: 5678 });
    const entries = await extractAll(archive.stream);
    const stats = await archive.done;

    expect(stats).toEqual({
      files: 5,
      bytes: 13 + 11 + 18 + 70_000,
      symlinks: 2,
      directories: 4,
      skippedSubmodules: 0,
      skippedUnsafe: 0,
    });
    expect(entries.get('README.md')?.data.toString()).toBe('hello\r\nworld\n');
    expect(entries.get('data/blob.bin')?.data.equals(binary)).toBe(true);
    expect(entries.get('empty.txt')?.data.length).toBe(0);
    expect(entries.get('bin/run.sh')?.mode).toBe(0o755);
    expect(entries.get('README.md')?.mode).toBe(0o644);
    expect(entries.get('src/')).toMatchObject({ type: 'directory', mode: 0o755 });
    expect(entries.get('src/pkg/')).toMatchObject({ type: 'directory' });
    for (const e of entries.values()) expect([e.uid, e.gid]).toEqual([1234, 5678]);
    // symlinks travel as links: only the target text, never the target's content
    expect(entries.get('link-out')).toMatchObject({ type: 'symlink', linkname: '/etc/passwd' });
    expect(entries.get('link-out')?.data.length).toBe(0);
    expect(entries.get('src/link-in')).toMatchObject({ type: 'symlink', linkname: 'pkg/mod.py' });
    // every file of the commit and nothing else
    const files = [...entries.entries()]
      .filter(([, e]) => e.type !== 'directory')
      .map(([n]) => n)
      .sort();
    expect(files).toEqual([
      'README.md',
      'bin/run.sh',
      'data/blob.bin',
      'empty.txt',
      'link-out',
      'src/link-in',
      'src/pkg/mod.py',
    ]);
  });

  it('skips submodules and counts them', async () => {
    const { repo } = await workbenchFor({ 'a.txt': 'a\n' });
    const sub = await createFixtureRepo({ files: { 'x.txt': 'x\n' } });
    cleanups.push(() => sub.cleanup());
    await repo.git(['update-index', '--add', '--cacheinfo', `160000,${await sub.head()},vendor/lib`]);
    await repo.git(['commit', '--quiet', '-m', 'add submodule']);
    const wb = await Workbench.create(await resolveUserRepo(repo.path, 'main'), await repo.head(), { identity });
    cleanups.push(() => wb.dispose());
    const archive = baseTarStream(wb, wb.head(), { uid: 1000, gid: 1000 });
    const entries = await extractAll(archive.stream);
    expect((await archive.done).skippedSubmodules).toBe(1);
    expect([...entries.keys()]).toEqual(['a.txt']);
  });

  it('ignores .gitattributes: export-ignore, filters and eol conversion have no effect', async () => {
    const { repo, wb } = await workbenchFor({
      '.gitattributes': 'secret.txt export-ignore\n*.txt eol=crlf\n*.dat filter=evil\nversion.txt export-subst\n',
      'secret.txt': 'kept\n',
      'lines.txt': 'a\nb\n',
      'x.dat': 'raw data\n',
      'version.txt': '$Format:%H$\n',
    });
    await repo.git(['config', 'filter.evil.smudge', 'sed s/raw/SMUDGED/']);
    await repo.git(['config', 'filter.evil.clean', 'cat']);
    const archive = baseTarStream(wb, wb.head(), { uid: 1, gid: 1 });
    const entries = await extractAll(archive.stream);
    await archive.done;
    expect(entries.get('secret.txt')?.data.toString()).toBe('kept\n');
    expect(entries.get('lines.txt')?.data.toString()).toBe('a\nb\n');
    expect(entries.get('x.dat')?.data.toString()).toBe('raw data\n');
    expect(entries.get('version.txt')?.data.toString()).toBe('$Format:%H$\n');
    expect(entries.has('.gitattributes')).toBe(true);
  });

  it('leaves out tree entries that would escape or touch .git', async () => {
    const { repo, wb } = await workbenchFor({ 'a.txt': 'a\n' });
    const evilBlob = (await repo.git(['rev-parse', 'HEAD:a.txt'])).trim();
    // A crafted tree (git itself never creates these names): ".git" and ".." entries.
    const tree = await mktree(repo, [
      `100644 blob ${evilBlob}\t..`,
      `100644 blob ${evilBlob}\t.GIT`,
      `100644 blob ${evilBlob}\t.git`,
      `100644 blob ${evilBlob}\tok.txt`,
    ]);
    const commit = (await repo.git(['commit-tree', tree, '-m', 'crafted'])).trim();
    const archive = baseTarStream(wb, commit, { uid: 1, gid: 1 });
    const entries = await extractAll(archive.stream);
    expect([...entries.keys()]).toEqual(['ok.txt']);
    expect((await archive.done).skippedUnsafe).toBe(3);
    expect(isSafePath('a/../b')).toBe(false);
    expect(isSafePath('/etc/passwd')).toBe(false);
    expect(isSafePath('sub/.git/config')).toBe(false);
    expect(isSafePath('.github/workflows/ci.yml')).toBe(true);
  });

  it.each([
    ['through the git launcher', true],
    ["as node's own child", false],
  ])(
    'streams many files and paces git to a slow reader (git started %s)',
    async (_how, launcher) => {
      setGitLauncher(launcher);
      cleanups.push(() => Promise.resolve(setGitLauncher(true)));
      const files: Record<string, FixtureFile> = {};
      for (let i = 0; i < 5000; i++) files[`pkg${i % 50}/file${i}.txt`] = `content ${i}\n`.repeat(20);
      files['huge.bin'] = Buffer.alloc(24 * 1024 * 1024, 7);
      const { wb } = await workbenchFor(files);
      collect();
      const before = process.memoryUsage().arrayBuffers;
      const archive = baseTarStream(wb, wb.head(), { uid: 1000, gid: 1000 });
      // Nobody reads for a while: what is held in memory stays far below the 24 MiB blob.
      await new Promise((r) => setTimeout(r, 500));
      expect(archive.stream.readableLength).toBeLessThan(8 * 1024 * 1024);
      collect();
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(12 * 1024 * 1024);
      let total = 0;
      let count = 0;
      const extract = tar.extract();
      archive.stream.pipe(extract);
      for await (const entry of extract) {
        if (entry.header.type === 'file') count++;
        for await (const chunk of entry) total += (chunk as Buffer).length;
      }
      const stats = await archive.done;
      expect(count).toBe(5001);
      expect(stats.files).toBe(5001);
      expect(total).toBe(stats.bytes);
    },
    120_000,
  );

  it('errors the stream and rejects done for a commit that does not exist', async () => {
    const { wb } = await workbenchFor({ 'a.txt': 'a\n' });
    const archive = baseTarStream(wb, '0'.repeat(40), { uid: 1, gid: 1 });
    await expect(extractAll(archive.stream)).rejects.toThrow();
    await expect(archive.done).rejects.toMatchObject({ code: 'GIT_FAILED' });
  });
});

async function mktree(repo: FixtureRepo, lines: string[]): Promise<string> {
  return gitText(['mktree'], { gitDir: join(repo.path, '.git'), input: `${lines.join('\n')}\n` });
}
