// Entries read out of git's own index files match what `git ls-files -s` says, for SHA-1 and
// SHA-256 repositories, extended entries (version 3) and long names; an index of another version
// is "unknown" (null), so the caller asks git.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { indexChanges, indexEntries } from '../../../src/git/index-file.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function repo(format: 'sha1' | 'sha256', files: Record<string, string>, version = 2): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hb-index-'));
  dirs.push(dir);
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir }).toString();
  git('init', '-q', `--object-format=${format}`);
  git('config', 'index.version', String(version));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  git('add', '-A');
  // a name of 4096 bytes (more than the 12 bits of an entry's name length): only the index holds it
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: dir, input: 'long\n' }).toString().trim();
  git('update-index', '--add', '--cacheinfo', `100644,${blob},${LONG}`);
  return dir;
}

const LONG = `${'d'.repeat(200)}/`.repeat(20) + 'x'.repeat(96);

function lsFiles(dir: string): Map<string, { mode: string; oid: string }> {
  const out = execFileSync('git', ['ls-files', '-s', '-z'], { cwd: dir }).toString();
  const map = new Map<string, { mode: string; oid: string }>();
  for (const rec of out.split('\0').filter(Boolean)) {
    const [meta, path] = rec.split('\t');
    const [mode, oid] = meta!.split(' ');
    map.set(path!, { mode: mode!, oid: oid! });
  }
  return map;
}

const files = {
  'a.txt': 'alpha\n',
  'dir/b.py': 'print(1)\n',
  'dir/sub/c.md': '# c\n',
  'ünï.txt': 'utf-8 name\n',
};

describe('indexEntries', () => {
  it.each([
    ['sha1', 20],
    ['sha256', 32],
  ] as const)('reads what ls-files -s shows (%s)', async (format, hashBytes) => {
    const dir = await repo(format, files);
    const expected = lsFiles(dir);
    const data = await readFile(join(dir, '.git', 'index'));
    const got = indexEntries(data, hashBytes, new Set([...expected.keys(), 'not/there.txt']));
    expect(got).toEqual(expected);
    expect(got!.size).toBe(Object.keys(files).length + 1);
    expect(LONG.length).toBeGreaterThan(0xfff);
    expect(got!.has(LONG)).toBe(true);
    // only what was asked for
    expect(indexEntries(data, hashBytes, new Set(['dir/b.py']))).toEqual(
      new Map([['dir/b.py', expected.get('dir/b.py')]]),
    );
  });

  it('reads version 3 with extended entries (git add -N), and says null for version 4', async () => {
    const dir = await repo('sha1', { 'a.txt': 'a\n' });
    await writeFile(join(dir, 'later.txt'), 'intent to add\n');
    execFileSync('git', ['add', '-N', 'later.txt'], { cwd: dir });
    await writeFile(join(dir, 'z.txt'), 'z\n');
    execFileSync('git', ['add', 'z.txt'], { cwd: dir });
    const data = await readFile(join(dir, '.git', 'index'));
    expect(data.readUInt32BE(4)).toBe(3);
    const expected = lsFiles(dir);
    expect(indexEntries(data, 20, new Set(expected.keys()))).toEqual(expected);

    const v4 = await repo('sha1', files, 4);
    expect(indexEntries(await readFile(join(v4, '.git', 'index')), 20, new Set(['a.txt']))).toBeNull();
    expect(indexEntries(Buffer.from('not an index'), 20, new Set(['a.txt']))).toBeNull();
  });

  it('indexChanges: the paths whose mode or id differ, in index order; null for version 4 or an unmerged entry', async () => {
    const dir = await repo('sha1', files);
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir }).toString();
    const before = await readFile(join(dir, '.git', 'index'));
    await writeFile(join(dir, 'a.txt'), 'changed\n');
    await writeFile(join(dir, 'dir', 'new.txt'), 'new\n');
    git('rm', '-q', '--cached', 'dir/sub/c.md');
    git('add', 'a.txt', 'dir/new.txt');
    git('update-index', '--chmod=+x', 'dir/b.py');
    const after = await readFile(join(dir, '.git', 'index'));
    const now = lsFiles(dir);
    const then = (path: string): { mode: string; oid: string } | null =>
      indexEntries(before, 20, new Set([path]))!.get(path) ?? null;
    expect(indexChanges(before, after, 20)).toEqual([
      { path: 'a.txt', before: then('a.txt'), after: now.get('a.txt') },
      { path: 'dir/b.py', before: then('dir/b.py'), after: { mode: '100755', oid: then('dir/b.py')!.oid } },
      { path: 'dir/new.txt', before: null, after: now.get('dir/new.txt') },
      { path: 'dir/sub/c.md', before: then('dir/sub/c.md'), after: null },
    ]);
    expect(indexChanges(after, after, 20)).toEqual([]);
    const v4 = await readFile(join(await repo('sha1', files, 4), '.git', 'index'));
    expect(indexChanges(before, v4, 20)).toBeNull();
    // an unmerged entry (stage 1): not a tree this compares
    const blob = git('hash-object', '-w', 'a.txt').trim();
    execFileSync('git', ['update-index', '--index-info'], { cwd: dir, input: `100644 ${blob} 1\tconflict.txt\n` });
    expect(indexChanges(before, await readFile(join(dir, '.git', 'index')), 20)).toBeNull();
  });
});
