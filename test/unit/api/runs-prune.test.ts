// `runs prune` on a real repository and run store: files and branches of old runs go, nothing else.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pruneRuns } from '../../../src/api/runs-prune.js';
import { RunStore } from '../../../src/state/store.js';
import { createFixtureRepo, type FixtureRepo } from '../../helpers/fixture-repo.js';
import { makeState } from '../state/make-state.js';
import { TEST_KEY_ENV, TEST_STATE_KEY } from '../../helpers/state-key.js';

let repo: FixtureRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

describe('pruneRuns', () => {
  it("removes old runs' state, artifacts and their own branches, keeping a moved branch and every other branch", async () => {
    repo = await createFixtureRepo({ files: { 'a.txt': 'a\n' } });
    const base = await repo.head();
    const store = new RunStore({ dir: join(repo.path, '.hammer'), key: TEST_STATE_KEY });
    const made: { id: string; branch: string; commit: string }[] = [];
    for (const day of [20, 21, 22]) {
      const id = `202611${day}T000000Z-abcdef`;
      const branch = `EngineerExternal/202611${day}T000000Z`;
      await repo.git(['checkout', '--quiet', '-b', branch, 'main']);
      await repo.git(['commit', '--quiet', '--allow-empty', '-m', `hammer: iteration 1 - day ${day}`]);
      const commit = await repo.head();
      made.push({ id, branch, commit });
      await store.create(
        makeState({
          run_id: id,
          created_at: `2026-11-${day}T00:00:00.000Z`,
          status: 'stable',
          repo: { path: repo.path, base_ref: 'main', base_commit: base, base_tree: 'c'.repeat(40) },
          branch: { name: branch, commit },
          artifacts_dir: store.artifactsDir(id),
        }),
      );
      await store.writeArtifact(id, 'PR_SUMMARY.md', '# x\n');
    }
    await repo.git(['checkout', '--quiet', 'main']);
    // someone committed to the first run's branch: it is theirs now
    await repo.git(['checkout', '--quiet', made[0]!.branch]);
    await repo.git(['commit', '--quiet', '--allow-empty', '-m', 'my follow-up']);
    await repo.git(['checkout', '--quiet', 'main']);

    const dry = await pruneRuns({ repo: repo.path, env: TEST_KEY_ENV, keep: 1, dryRun: true });
    expect(dry.removed.map((r) => r.run_id)).toEqual([made[1]!.id, made[0]!.id]);
    expect(await exists(store.statePath(made[0]!.id))).toBe(true);

    const report = await pruneRuns({ repo: repo.path, env: TEST_KEY_ENV, keep: 1, branches: true });
    expect(report.removed.map((r) => [r.run_id, r.branch_removal?.removed])).toEqual([
      [made[1]!.id, true],
      [made[0]!.id, false],
    ]);
    expect(report.kept).toEqual([{ run_id: made[2]!.id, reason: 'newest' }]);
    for (const m of made.slice(0, 2)) {
      expect(await exists(store.statePath(m.id))).toBe(false);
      expect(await exists(store.artifactsDir(m.id))).toBe(false);
    }
    expect(await exists(store.statePath(made[2]!.id))).toBe(true);
    const refs = (await repo.git(['for-each-ref', '--format=%(refname)'])).split('\n').filter(Boolean).sort();
    expect(refs).toEqual([`refs/heads/${made[0]!.branch}`, `refs/heads/${made[2]!.branch}`, 'refs/heads/main'].sort());
  });
});
