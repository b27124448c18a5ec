import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HammerError } from '../../../src/errors.js';
import { resolveUserRepo } from '../../../src/git/index.js';
import { createFixtureRepo, tempDir, type FixtureRepo } from '../../helpers/fixture-repo.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
async function fixture(opts: Parameters<typeof createFixtureRepo>[0]): Promise<FixtureRepo> {
  const repo = await createFixtureRepo(opts);
  cleanups.push(() => repo.cleanup());
  return repo;
}
async function refusal(p: Promise<unknown>): Promise<HammerError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HammerError);
  return err as HammerError;
}

describe('resolveUserRepo', () => {
  it('resolves root, git dir, base commit and tree', async () => {
    const repo = await fixture({ files: { 'a.txt': 'a\n' }, commits: [{ files: { 'b.txt': 'b\n' } }] });
    const resolved = await resolveUserRepo(repo.path, 'main');
    expect(resolved.root).toBe(repo.path);
    expect(resolved.gitDir).toBe(join(repo.path, '.git'));
    expect(resolved.objectsDir).toBe(join(repo.path, '.git', 'objects'));
    expect(resolved.objectFormat).toBe('sha1');
    expect(resolved.baseCommit).toBe(await repo.head());
    expect(resolved.baseTree).toBe((await repo.git(['rev-parse', 'HEAD^{tree}'])).trim());
  });

  it('starts from the committed tip of base, whatever is checked out or uncommitted', async () => {
    const repo = await fixture({ files: { 'a.txt': 'a\n' } });
    const mainTip = await repo.head();
    await repo.git(['checkout', '--quiet', '-b', 'feature']);
    await repo.write({ 'c.txt': 'c\n' });
    await repo.git(['add', 'c.txt']);
    await repo.git(['commit', '--quiet', '-m', 'feature']);
    await repo.write({ 'a.txt': 'dirty\n', 'untracked.txt': 'u\n' });
    const resolved = await resolveUserRepo(join(repo.path), 'main');
    expect(resolved.baseCommit).toBe(mainTip);
  });

  it('finds the repository from a subdirectory', async () => {
    const repo = await fixture({ files: { 'src/a.txt': 'a\n' } });
    expect((await resolveUserRepo(join(repo.path, 'src'), 'main')).root).toBe(repo.path);
  });

  it('refuses a path that does not exist', async () => {
    const err = await refusal(resolveUserRepo('/nonexistent/hb-repo', 'main'));
    expect(err.code).toBe('REPO_INVALID');
    expect(err.message).toBe('repository path does not exist: /nonexistent/hb-repo');
  });

  it('refuses a directory that is not a git repository', async () => {
    const dir = await tempDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const err = await refusal(resolveUserRepo(dir, 'main'));
    expect(err.code).toBe('REPO_INVALID');
    expect(err.message).toMatch(/not a git repository/);
    expect(err.hint).toMatch(/--repo/);
  });

  it('refuses a repository with no commits', async () => {
    const repo = await fixture({});
    const err = await refusal(resolveUserRepo(repo.path, 'main'));
    expect(err.code).toBe('REPO_INVALID');
    expect(err.message).toMatch(/no commits/);
    expect(err.hint).toMatch(/git commit/);
  });

  it('refuses a missing base and names the branches there', async () => {
    const repo = await fixture({ files: { 'a.txt': 'a\n' }, branch: 'trunk' });
    const err = await refusal(resolveUserRepo(repo.path, 'main'));
    expect(err.code).toBe('REPO_INVALID');
    expect(err.message).toMatch(/base "main" is not a commit/);
    expect(err.hint).toMatch(/trunk/);
  });

  it('starts from the checked-out branch when no base is named', async () => {
    const repo = await fixture({ files: { 'a.txt': 'a\n' } });
    await repo.git(['checkout', '--quiet', '-b', 'feature']);
    await repo.write({ 'c.txt': 'c\n' });
    await repo.git(['add', 'c.txt']);
    await repo.git(['commit', '--quiet', '-m', 'feature']);
    const resolved = await resolveUserRepo(repo.path, '');
    expect(resolved.base).toBe('feature');
    expect(resolved.baseCommit).toBe(await repo.head());
  });

  describe('on a CI-style checkout (a clone with a detached HEAD and no local branches)', () => {
    async function ciClone(): Promise<{ path: string; commit: string }> {
      const origin = await fixture({ files: { 'a.txt': 'a\n' }, commits: [{ files: { 'b.txt': 'b\n' } }] });
      const commit = await origin.head();
      const dir = await tempDir();
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      await origin.git(['clone', '--quiet', '--no-checkout', origin.path, dir]);
      const git = (args: string[]) => origin.git(['-C', dir, ...args]);
      await git(['checkout', '--quiet', '--detach', commit]);
      await git(['branch', '--quiet', '-D', 'main']);
      return { path: dir, commit };
    }

    it('starts from the commit HEAD points at, recorded by its id', async () => {
      const ci = await ciClone();
      const resolved = await resolveUserRepo(ci.path, '');
      expect(resolved.baseCommit).toBe(ci.commit);
      expect(resolved.base).toBe(ci.commit);
    });

    it('refuses a wrong base by naming the remote branches and the detached HEAD, not as an empty repository', async () => {
      const ci = await ciClone();
      const err = await refusal(resolveUserRepo(ci.path, 'main'));
      expect(err.code).toBe('REPO_INVALID');
      expect(err.message).toMatch(/base "main" is not a commit/);
      expect(err.message).not.toMatch(/no commits/);
      expect(err.hint).toContain('remote branches: origin/main');
      expect(err.hint).toContain(`HEAD: detached at ${ci.commit.slice(0, 12)}`);
      expect(err.hint).toContain('leave --base out');
    });
  });

  it('refuses an unborn branch with no commits anywhere as an empty repository', async () => {
    const repo = await fixture({});
    const err = await refusal(resolveUserRepo(repo.path, ''));
    expect(err.message).toMatch(/no commits yet/);
  });

  it('refuses a base that looks like an option', async () => {
    const repo = await fixture({ files: { 'a.txt': 'a\n' } });
    const err = await refusal(resolveUserRepo(repo.path, '--output=/tmp/x'));
    expect(err.code).toBe('REPO_INVALID');
  });
});
