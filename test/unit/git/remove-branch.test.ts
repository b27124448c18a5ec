// Removing the branch a run made, and never another one.
import { afterEach, describe, expect, it } from 'vitest';
import { resolveUserRepo } from '../../../src/git/index.js';
import { removeRecordedBranch } from '../../../src/git/remove-branch.js';
import { createFixtureRepo, type FixtureRepo } from '../../helpers/fixture-repo.js';

const PREFIX = 'EngineerExternal/';
const RUN = '20261122T140501Z-k3b7qa';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A repository on main plus a hammer-box branch with one commit of the run (its trailer names the run). */
async function scene(
  message = `Update a.txt\n\nHammer-Box-Run: ${RUN}\nHammer-Box-Model: ollama:test\n`,
): Promise<{ repo: FixtureRepo; base: string; commit: string; name: string }> {
  const repo = await createFixtureRepo({ files: { 'a.txt': 'a\n' } });
  cleanups.push(() => repo.cleanup());
  const base = await repo.head();
  const name = `${PREFIX}${RUN}`;
  await repo.git(['checkout', '--quiet', '-b', name]);
  await repo.write({ 'a.txt': 'b\n' });
  await repo.git(['commit', '--quiet', '-am', message]);
  const commit = await repo.head();
  await repo.git(['checkout', '--quiet', 'main']);
  return { repo, base, commit, name };
}

const refs = async (repo: FixtureRepo): Promise<string[]> =>
  (await repo.git(['for-each-ref', '--format=%(refname)'])).split('\n').filter(Boolean).sort();

describe('removeRecordedBranch', () => {
  it('removes the branch while it is exactly as the run left it', async () => {
    const s = await scene();
    const user = await resolveUserRepo(s.repo.path, '');
    const r = await removeRecordedBranch(user, {
      name: s.name,
      commit: s.commit,
      baseCommit: s.base,
      prefix: PREFIX,
      runId: RUN,
      pushedTo: [],
    });
    expect(r).toEqual({ removed: true });
    expect(await refs(s.repo)).toEqual(['refs/heads/main']);
  });

  it('removes the branch of an older run, whose commits said "hammer: iteration"', async () => {
    const s = await scene('hammer: iteration 1 - update a.txt');
    const user = await resolveUserRepo(s.repo.path, '');
    const r = await removeRecordedBranch(user, {
      name: s.name,
      commit: s.commit,
      baseCommit: s.base,
      prefix: PREFIX,
      runId: RUN,
      pushedTo: [],
    });
    expect(r).toEqual({ removed: true });
  });

  it('keeps a branch a remote has: a remote-tracking ref, an upstream, or a push hammer-box pr recorded', async () => {
    const s = await scene();
    const user = await resolveUserRepo(s.repo.path, '');
    const recorded = { name: s.name, commit: s.commit, baseCommit: s.base, prefix: PREFIX, runId: RUN, pushedTo: [] };
    expect(await removeRecordedBranch(user, { ...recorded, pushedTo: ['origin'] })).toMatchObject({
      removed: false,
      reason: 'on_remote',
      detail: expect.stringContaining('pushed to origin'),
    });
    await s.repo.git(['update-ref', `refs/remotes/fork/${s.name}`, s.commit]);
    expect(await removeRecordedBranch(user, recorded)).toMatchObject({ removed: false, reason: 'on_remote' });
    await s.repo.git(['update-ref', '-d', `refs/remotes/fork/${s.name}`]);
    await s.repo.git(['config', `branch.${s.name}.remote`, 'origin']);
    expect(await removeRecordedBranch(user, recorded)).toMatchObject({ removed: false, reason: 'on_remote' });
    expect(await refs(s.repo)).toEqual([`refs/heads/${s.name}`, 'refs/heads/main']);
    await s.repo.git(['config', '--unset', `branch.${s.name}.remote`]);
    expect(await removeRecordedBranch(user, recorded)).toEqual({ removed: true });
  });

  it('keeps a branch whose tip names another run', async () => {
    const s = await scene(`Update a.txt\n\nHammer-Box-Run: 20261122T000000Z-aaaaaa\n`);
    const user = await resolveUserRepo(s.repo.path, '');
    const recorded = { name: s.name, commit: s.commit, baseCommit: s.base, prefix: PREFIX, runId: RUN, pushedTo: [] };
    expect(await removeRecordedBranch(user, recorded)).toMatchObject({ removed: false, reason: 'not_hammer_box' });
  });

  it('keeps a branch someone committed to, one checked out, and one gone', async () => {
    const s = await scene();
    const user = await resolveUserRepo(s.repo.path, '');
    const recorded = { name: s.name, commit: s.commit, baseCommit: s.base, prefix: PREFIX, runId: RUN, pushedTo: [] };
    await s.repo.git(['checkout', '--quiet', s.name]);
    expect(await removeRecordedBranch(user, recorded)).toMatchObject({ removed: false, reason: 'checked_out' });
    await s.repo.git(['commit', '--quiet', '--allow-empty', '-m', 'mine']);
    await s.repo.git(['checkout', '--quiet', 'main']);
    expect(await removeRecordedBranch(user, recorded)).toMatchObject({ removed: false, reason: 'moved' });
    expect(await refs(s.repo)).toEqual([`refs/heads/${s.name}`, 'refs/heads/main']);
    await s.repo.git(['branch', '--quiet', '-D', s.name]);
    expect(await removeRecordedBranch(user, recorded)).toMatchObject({ removed: false, reason: 'gone' });
  });

  it('never removes a branch without the prefix or whose tip hammer-box did not make, whatever the state says', async () => {
    const s = await scene();
    const user = await resolveUserRepo(s.repo.path, '');
    const main = await s.repo.git(['rev-parse', 'main']);
    expect(
      await removeRecordedBranch(user, {
        name: 'main',
        commit: main.trim(),
        baseCommit: s.base,
        prefix: PREFIX,
        runId: RUN,
        pushedTo: [],
      }),
    ).toMatchObject({ removed: false, reason: 'not_hammer_box' });
    await s.repo.git(['branch', `${PREFIX}by-hand`, 'main']);
    await s.repo.git(['checkout', '--quiet', '-b', `${PREFIX}human`]);
    await s.repo.git(['commit', '--quiet', '--allow-empty', '-m', 'a human commit']);
    const human = (await s.repo.head()).trim();
    await s.repo.git(['checkout', '--quiet', 'main']);
    expect(
      await removeRecordedBranch(user, {
        name: `${PREFIX}human`,
        commit: human,
        baseCommit: s.base,
        prefix: PREFIX,
        runId: RUN,
        pushedTo: [],
      }),
    ).toMatchObject({ removed: false, reason: 'not_hammer_box' });
    expect(
      await removeRecordedBranch(user, {
        name: s.name,
        commit: s.commit,
        baseCommit: s.base,
        prefix: '',
        runId: RUN,
        pushedTo: [],
      }),
    ).toMatchObject({ removed: false, reason: 'not_hammer_box' });
    expect(await refs(s.repo)).toEqual(
      [`refs/heads/${PREFIX}by-hand`, `refs/heads/${PREFIX}human`, `refs/heads/${s.name}`, 'refs/heads/main'].sort(),
    );
  });
});
