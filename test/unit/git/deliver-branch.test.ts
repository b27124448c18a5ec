import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HammerError } from '../../../src/errors.js';
import {
  Workbench,
  MAX_BRANCH_CANDIDATES,
  branchCandidates,
  branchName,
  deliverBranch,
  resolveUserRepo,
  type DeliverRequest,
  type UserRepo,
} from '../../../src/git/index.js';
import { createFixtureRepo, diffSnapshots, snapshotRepo, type FixtureRepo } from '../../helpers/fixture-repo.js';

const identity = { name: 'hammer-box', email: 'hammer-box@localhost' };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const patch1 = 'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n';
const patch2 =
  'diff --git a/new/b.txt b/new/b.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new/b.txt\n@@ -0,0 +1 @@\n+bee\n';

async function setup(): Promise<{ repo: FixtureRepo; user: UserRepo; wb: Workbench }> {
  const repo = await createFixtureRepo({
    files: { 'a.txt': 'one\n', 'keep.txt': 'k\n' },
    commits: [{ files: { 'c.txt': 'c\n' } }],
  });
  cleanups.push(() => repo.cleanup());
  await repo.git(['config', 'core.logAllRefUpdates', 'always']);
  const user = await resolveUserRepo(repo.path, 'main');
  const wb = await Workbench.create(user, user.baseCommit, { identity });
  cleanups.push(() => wb.dispose());
  return { repo, user, wb };
}

describe('deliverBranch', () => {
  it('adds exactly one ref holding one commit per patch; nothing else in the repo changes', async () => {
    const { repo, user, wb } = await setup();
    await repo.write({ 'a.txt': 'uncommitted edit\n', 'untracked.txt': 'u\n' });
    await repo.git(['add', 'untracked.txt']);
    const before = await snapshotRepo(repo.path);
    const refsBefore = await repo.git(['for-each-ref']);

    expect((await wb.applyPatch(patch1, { iteration: 1, summary: 'upper' })).ok).toBe(true);
    expect((await wb.applyPatch(patch2, { iteration: 2, summary: 'bee' })).ok).toBe(true);
    const branch = branchName('EngineerExternal/', '20261122T140501Z-k3b7qa');
    expect(await deliverBranch({ userRepo: user, workbench: wb, commit: wb.head(), names: [branch] })).toEqual({
      branch,
      commit: wb.head(),
    });

    const after = await snapshotRepo(repo.path);
    const diff = diffSnapshots(before, after);
    expect(diff.removed).toEqual([]);
    expect(diff.changed).toEqual([]);
    expect(diff.added).toEqual([
      '.git/refs/heads/EngineerExternal',
      '.git/refs/heads/EngineerExternal/20261122T140501Z-k3b7qa',
    ]);
    const refsAfter = await repo.git(['for-each-ref']);
    expect(refsAfter.split('\n').filter((l) => !refsBefore.includes(l))).toEqual([
      `${wb.head()} commit\trefs/heads/EngineerExternal/20261122T140501Z-k3b7qa`,
    ]);
    const log = await repo.git(['log', '--format=%an <%ae>|%s', `main..${branch}`]);
    expect(log.trim().split('\n')).toEqual([
      'hammer-box <hammer-box@localhost>|bee',
      'hammer-box <hammer-box@localhost>|upper',
    ]);
    expect((await repo.git(['show', `${branch}:new/b.txt`])).trim()).toBe('bee');
    await repo.git(['fsck', '--no-progress', '--connectivity-only']);
  });

  it('refuses to overwrite an existing branch', async () => {
    const { repo, user, wb } = await setup();
    await repo.git(['branch', 'EngineerExternal/taken']);
    const taken = await repo.head();
    await wb.applyPatch(patch1, { iteration: 1, summary: 'x' });
    const err = await deliverBranch({
      userRepo: user,
      workbench: wb,
      commit: wb.head(),
      names: ['EngineerExternal/taken'],
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HammerError);
    expect((err as HammerError).message).toMatch(/already exists/);
    expect((await repo.git(['rev-parse', 'EngineerExternal/taken'])).trim()).toBe(taken);
  });

  it('refuses an invalid branch name', async () => {
    const { user, wb } = await setup();
    for (const branch of ['bad..name', '-x', 'a b', 'x.lock']) {
      await expect(
        deliverBranch({ userRepo: user, workbench: wb, commit: wb.head(), names: [branch] }),
      ).rejects.toMatchObject({
        code: 'USAGE',
      });
    }
  });

  it('delivers a branch at the base when nothing was applied', async () => {
    const { repo, user, wb } = await setup();
    await deliverBranch({ userRepo: user, workbench: wb, commit: wb.head(), names: ['EngineerExternal/empty'] });
    expect((await repo.git(['rev-parse', 'EngineerExternal/empty'])).trim()).toBe(user.baseCommit);
  });
});

describe('branch names', () => {
  it('names the run after the prefix', () => {
    expect(branchName('EngineerExternal/', '20261122T140501Z-k3b7qa')).toBe('EngineerExternal/20261122T140501Z-k3b7qa');
    expect(branchName('', '20260102T030405Z-aaaaaa')).toBe('20260102T030405Z-aaaaaa');
  });

  it("offers the run's name, then -2, -3, ... up to a bound", () => {
    const names = [...branchCandidates('EngineerExternal/', '20261122T140501Z-k3b7qa')];
    expect(names.slice(0, 3)).toEqual([
      'EngineerExternal/20261122T140501Z-k3b7qa',
      'EngineerExternal/20261122T140501Z-k3b7qa-2',
      'EngineerExternal/20261122T140501Z-k3b7qa-3',
    ]);
    expect(names).toHaveLength(MAX_BRANCH_CANDIDATES);
    expect(names.at(-1)).toBe(`EngineerExternal/20261122T140501Z-k3b7qa-${MAX_BRANCH_CANDIDATES}`);
  });
});

describe('choosing a free name', () => {
  const RUN = '20261122T140501Z-k3b7qa';
  const NAME = `EngineerExternal/${RUN}`;

  it('skips names that exist without claiming them, and claims the one it makes', async () => {
    const { repo, user, wb } = await setup();
    await repo.git(['branch', NAME]);
    await repo.git(['branch', `${NAME}-2`]);
    await wb.applyPatch(patch1, { iteration: 1, summary: 'x' });
    const claimed: string[] = [];
    const made = await deliverBranch({
      userRepo: user,
      workbench: wb,
      commit: wb.head(),
      names: branchCandidates('EngineerExternal/', RUN),
      claim: async (name) => {
        claimed.push(name);
      },
    });
    expect(made).toEqual({ branch: `${NAME}-3`, commit: wb.head() });
    expect(claimed).toEqual([`${NAME}-3`]);
  });

  it('takes the next free name when another process makes the claimed one before its ref is created', async () => {
    const { repo, user, wb } = await setup();
    const base = await repo.head();
    await wb.applyPatch(patch1, { iteration: 1, summary: 'x' });
    const refsBefore = await repo.git(['for-each-ref']);
    const claimed: string[] = [];
    const made = await deliverBranch({
      userRepo: user,
      workbench: wb,
      commit: wb.head(),
      names: branchCandidates('EngineerExternal/', RUN),
      // the other run: it makes the same name between this run's check and its update-ref
      claim: async (name) => {
        claimed.push(name);
        if (claimed.length === 1) await repo.git(['branch', name, base]);
      },
    });
    expect(claimed).toEqual([NAME, `${NAME}-2`]);
    expect(made).toEqual({ branch: `${NAME}-2`, commit: wb.head() });
    // the other run's branch is untouched; this run added exactly its own
    expect((await repo.git(['rev-parse', NAME])).trim()).toBe(base);
    const added = (await repo.git(['for-each-ref'])).split('\n').filter((l) => l && !refsBefore.includes(l));
    expect(added).toEqual([`${base} commit\trefs/heads/${NAME}`, `${wb.head()} commit\trefs/heads/${NAME}-2`]);
  });

  it('fails with REPO_INVALID, touching no branch, when every name is taken', async () => {
    const { repo, user, wb } = await setup();
    await repo.git(['branch', 'EngineerExternal/a']);
    await wb.applyPatch(patch1, { iteration: 1, summary: 'x' });
    const claimed: string[] = [];
    const err = await deliverBranch({
      userRepo: user,
      workbench: wb,
      commit: wb.head(),
      names: ['EngineerExternal/a', 'EngineerExternal/b'],
      claim: async (name) => {
        claimed.push(name);
        await repo.git(['branch', name]);
      },
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'REPO_INVALID' });
    expect((err as Error).message).toContain('EngineerExternal/a, EngineerExternal/b');
    expect(claimed).toEqual(['EngineerExternal/b']);
    expect((await repo.git(['rev-parse', 'EngineerExternal/b'])).trim()).toBe(await repo.head());
  });
});

describe('interrupts and locks', () => {
  const NAME = 'EngineerExternal/20261122T140501Z-k3b7qa';
  const names = (): Iterable<string> => branchCandidates('EngineerExternal/', '20261122T140501Z-k3b7qa');
  const lockOf = (repo: FixtureRepo, name: string): string => join(repo.path, '.git', 'refs', 'heads', `${name}.lock`);
  /** deliverBranch of the workbench's head under the timestamp names, with `extra` options. */
  const deliver = (
    { user, wb }: { user: UserRepo; wb: Workbench },
    extra: Partial<DeliverRequest> = {},
  ): ReturnType<typeof deliverBranch> =>
    deliverBranch({ userRepo: user, workbench: wb, commit: wb.head(), names: names(), ...extra });
  /** Another git's lock on NAME, holding `text`. */
  async function holdLock(repo: FixtureRepo, text: string): Promise<string> {
    const lock = lockOf(repo, NAME);
    await mkdir(join(lock, '..'), { recursive: true });
    await writeFile(lock, text);
    return lock;
  }

  it('a Ctrl-C while the name is claimed stops before the ref is made: no branch, no lock', async () => {
    const { repo, user, wb } = await setup();
    await wb.applyPatch(patch1, { iteration: 1, summary: 'x' });
    const refsBefore = await repo.git(['for-each-ref']);
    const controller = new AbortController();
    const err = await deliver(
      { user, wb },
      {
        claim: async () => controller.abort(new HammerError('ABORTED', 'interrupted by SIGINT')),
        signal: controller.signal,
      },
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'ABORTED' });
    expect(await repo.git(['for-each-ref'])).toBe(refsBefore);
    expect(existsSync(lockOf(repo, NAME))).toBe(false);
  });

  it('a Ctrl-C while update-ref runs does not kill it: the branch is made whole (too late to stop)', async () => {
    const { repo, user, wb } = await setup();
    await wb.applyPatch(patch1, { iteration: 1, summary: 'x' });
    // a git that takes 300 ms over update-ref, so the abort lands while it runs
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const bin = await mkdtemp(join(tmpdir(), 'hb-slow-git-'));
    cleanups.push(() => rm(bin, { recursive: true, force: true }));
    await writeFile(
      join(bin, 'git'),
      `#!/bin/sh\ncase " $* " in *" update-ref "*) sleep 0.3 ;; esac\nexec ${real} "$@"\n`,
    );
    await chmod(join(bin, 'git'), 0o755);
    const path = process.env['PATH'];
    process.env['PATH'] = `${bin}:${path ?? ''}`;
    cleanups.push(async () => {
      process.env['PATH'] = path;
    });
    const controller = new AbortController();
    const made = await deliver(
      { user, wb },
      {
        claim: async () => {
          setTimeout(() => controller.abort(new HammerError('ABORTED', 'interrupted by SIGINT')), 100);
        },
        signal: controller.signal,
      },
    );
    expect(controller.signal.aborted).toBe(true);
    expect(made).toEqual({ branch: NAME, commit: wb.head() });
    expect((await repo.git(['rev-parse', NAME])).trim()).toBe(wb.head());
    expect(existsSync(lockOf(repo, NAME))).toBe(false);
  });

  it('waits for a lock another git holds on the name, then makes the branch there', async () => {
    const { repo, user, wb } = await setup();
    await wb.applyPatch(patch1, { iteration: 1, summary: 'x' });
    const lock = await holdLock(repo, '');
    let released: NodeJS.Timeout | undefined;
    cleanups.push(async () => clearTimeout(released));
    const made = await deliver(
      { user, wb },
      {
        // the other git lets go 600 ms after this run claimed the name (git's own retry gives up at 100 ms)
        claim: async () => {
          released = setTimeout(() => void rm(lock, { force: true }), 600);
        },
      },
    );
    expect(made).toEqual({ branch: NAME, commit: wb.head() });
  });

  it('a lock that stays (a git that died holding it) counts as taken: the next name, the lock left as it was', async () => {
    const { repo, user, wb } = await setup();
    await wb.applyPatch(patch1, { iteration: 1, summary: 'x' });
    const lock = await holdLock(repo, 'someone else\n');
    const made = await deliver({ user, wb }, { lockWaitMs: 300 });
    expect(made).toEqual({ branch: `${NAME}-2`, commit: wb.head() });
    expect(await readFile(lock, 'utf8')).toBe('someone else\n');
    const err = await deliver({ user, wb }, { names: [NAME], lockWaitMs: 100 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'REPO_INVALID' });
    expect((err as Error).message).toContain(`${NAME} (locked)`);
  });
});

describe('repository layouts', () => {
  async function roundTrip(path: string, base: string): Promise<string> {
    const user = await resolveUserRepo(path, base);
    const wb = await Workbench.create(user, user.baseCommit, { identity });
    cleanups.push(() => wb.dispose());
    const applied = await wb.applyPatch(patch1, { iteration: 1, summary: 'upper' });
    expect(applied.ok).toBe(true);
    await deliverBranch({ userRepo: user, workbench: wb, commit: wb.head(), names: ['EngineerExternal/layout'] });
    return wb.head();
  }

  it('delivers into a repository reached through a linked worktree', async () => {
    const repo = await createFixtureRepo({ files: { 'a.txt': 'one\n' } });
    cleanups.push(() => repo.cleanup());
    const worktree = `${repo.path}-wt`;
    cleanups.push(() => rm(worktree, { recursive: true, force: true }));
    await repo.git(['worktree', 'add', '--quiet', '-b', 'side', worktree]);
    const commit = await roundTrip(worktree, 'main');
    expect((await repo.git(['rev-parse', 'EngineerExternal/layout'])).trim()).toBe(commit);
  });

  it('delivers into a SHA-256 repository', async () => {
    const repo = await createFixtureRepo({});
    cleanups.push(() => repo.cleanup());
    await rm(`${repo.path}/.git`, { recursive: true });
    await repo.git(['init', '--quiet', '--template=', '--object-format=sha256', '--initial-branch=main']);
    await repo.write({ 'a.txt': 'one\n' });
    await repo.git(['add', 'a.txt']);
    await repo.git(['commit', '--quiet', '-m', 'init']);
    const commit = await roundTrip(repo.path, 'main');
    expect(commit).toMatch(/^[0-9a-f]{64}$/);
    expect((await repo.git(['rev-parse', 'EngineerExternal/layout'])).trim()).toBe(commit);
  });
});
