// What of a checkout a run leaves out, found by name and stat only: no content read, nothing run.
import { existsSync } from 'node:fs';
import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveUserRepo } from '../../../src/git/index.js';
import { uncommittedLine, uncommittedWork } from '../../../src/git/uncommitted.js';
import { createFixtureRepo, type FixtureRepo } from '../../helpers/fixture-repo.js';

let repo: FixtureRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const open = async (files: Record<string, string>) => {
  repo = await createFixtureRepo({ files });
  // git's own view first, so the index holds the files' stat as a checkout leaves it
  await repo.git(['status', '--porcelain']);
  return resolveUserRepo(repo.path, '');
};

describe('uncommittedWork', () => {
  it('is nothing for a clean checkout, and says nothing', async () => {
    const user = await open({ 'a.txt': 'a\n', 'b/c.txt': 'c\n' });
    const work = await uncommittedWork(user);
    expect(work).toEqual({ changed: 0, untracked: 0, atLeast: false });
    expect(uncommittedLine(work, 'main (123456789012)')).toBeNull();
  });

  it('counts changed, staged and deleted files and untracked names (an untracked directory once, ignored ones not)', async () => {
    const user = await open({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n', '.gitignore': 'build/\n' });
    await repo!.write({
      'a.txt': 'edited\n',
      'new.txt': 'staged\n',
      'notes.txt': 'untracked\n',
      'scratch/x.txt': 'x\n',
      'scratch/y.txt': 'y\n',
      'build/out.o': 'ignored\n',
    });
    await repo!.git(['add', 'new.txt']);
    await rm(join(repo!.path, 'b.txt'));
    const work = await uncommittedWork(user);
    expect(work).toEqual({ changed: 3, untracked: 2, atLeast: false });
    expect(uncommittedLine(work, 'main (123456789012)')).toBe(
      '3 changed files and 2 untracked files of your checkout are not in this run: it starts from the committed tip of main (123456789012)',
    );
  });

  it('leaves out what your own git config ignores everywhere (core.excludesFile, else ~/.config/git/ignore)', async () => {
    const user = await open({ 'a.txt': 'a\n' });
    const home = join(repo!.path, '..', `home-${process.pid}`);
    await mkdir(join(home, '.config', 'git'), { recursive: true });
    await writeFile(join(home, '.config', 'git', 'ignore'), '*.swp\n');
    await repo!.write({ 'a.txt.swp': 'x\n', 'notes.txt': 'n\n' });
    const env = { PATH: process.env['PATH'], HOME: home };
    expect(await uncommittedWork(user, undefined, env)).toMatchObject({ untracked: 1 });
    await writeFile(join(home, '.gitconfig'), '[core]\n  excludesFile = ~/my-ignore\n');
    await writeFile(join(home, 'my-ignore'), 'notes.txt\n');
    expect(await uncommittedWork(user, undefined, env)).toMatchObject({ untracked: 1 });
    await rm(home, { recursive: true, force: true });
  });

  it('sees a file touched with the same size as changed (stat, as git compares before reading)', async () => {
    const user = await open({ 'a.txt': 'a\n' });
    await utimes(join(repo!.path, 'a.txt'), new Date(2_000_000_000_000), new Date(2_000_000_000_000));
    expect(await uncommittedWork(user)).toMatchObject({ changed: 1, untracked: 0 });
    expect(uncommittedLine({ changed: 1, untracked: 0, atLeast: false }, 'commit 1a2b')).toBe(
      '1 changed file of your checkout is not in this run: it starts from the committed tip of commit 1a2b',
    );
  });

  it("runs nothing the repository's config names (a clean filter on every file) and reads no content", async () => {
    const user = await open({ 'a.txt': 'a\n', '.gitattributes': '* filter=evil\n' });
    const canary = join(repo!.path, '..', `canary-${process.pid}`);
    await repo!.git(['config', 'filter.evil.clean', `touch ${canary}; cat`]);
    await writeFile(join(repo!.path, 'a.txt'), 'b\n');
    expect(await uncommittedWork(user)).toMatchObject({ changed: 1 });
    expect(existsSync(canary)).toBe(false);
  });
});
