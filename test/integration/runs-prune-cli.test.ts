// `hammer-box runs prune` through the real binary, on runs written through the real RunStore and
// branches made as runs make them (no Docker, no model): with no flags it only lists what it would
// remove; with --keep it removes runs' files and keeps their branches; branches go only with
// --branches, and never one a remote has or `hammer-box pr` pushed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_RECORD_ARTIFACT } from '../../src/api/push-record.js';
import { RunStore } from '../../src/state/store.js';
import { createFixtureRepo, type FixtureRepo } from '../helpers/fixture-repo.js';
import { TEST_STATE_KEY, TEST_STATE_SECRET } from '../helpers/state-key.js';
import { makeState } from '../unit/state/make-state.js';
import { testEnv } from './run-support.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
/** Fourteen runs, a day apart, oldest first. */
const IDS = Array.from({ length: 14 }, (_, i) => `202611${String(i + 10).padStart(2, '0')}T000000Z-abcdef`);

let repo: FixtureRepo;
let store: RunStore;

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = testEnv({ HAMMER_STATE_KEY: TEST_STATE_SECRET });
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: repo.path, env, stdio: 'pipe' });
    child.stdin.end('');
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const branchOf = (id: string): string => `EngineerExternal/${id}`;
const branches = async (): Promise<string[]> =>
  (await repo.git(['for-each-ref', '--format=%(refname:short)', 'refs/heads/EngineerExternal/']))
    .split('\n')
    .filter(Boolean);

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build it first with 'make build'`);
  repo = await createFixtureRepo({ files: { 'a.txt': 'a\n' } });
  const base = (await repo.head()).trim();
  store = new RunStore({ dir: join(repo.path, '.hammer'), key: TEST_STATE_KEY });
  for (const [i, id] of IDS.entries()) {
    // the branch as a run makes it: one commit whose trailer names the run
    await repo.git(['checkout', '--quiet', '-b', branchOf(id), 'main']);
    await repo.write({ 'a.txt': `run ${i}\n` });
    await repo.git(['commit', '--quiet', '-am', `Change a.txt\n\nHammer-Box-Run: ${id}\n`]);
    const commit = (await repo.head()).trim();
    await store.create(
      makeState({
        run_id: id,
        created_at: `2026-11-${String(i + 10).padStart(2, '0')}T00:00:00.000Z`,
        status: 'stable',
        reason: 'tests_pass',
        repo: { path: repo.path, base_ref: 'main', base_commit: base, base_tree: 'c'.repeat(40) },
        branch: { name: branchOf(id), commit },
        artifacts_dir: store.artifactsDir(id),
      }),
    );
  }
  await repo.git(['checkout', '--quiet', 'main']);
}, 120_000);

afterAll(async () => {
  await repo?.cleanup();
});

describe('runs prune', () => {
  it('with no flags lists what --keep 10 would remove, and removes nothing', async () => {
    const r = await cli(['runs', 'prune']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      ...IDS.slice(0, 4)
        .reverse()
        .map((id) => `would remove ${id} (stable); would keep its branch ${branchOf(id)}`),
      'kept 10 runs',
      'nothing was removed: to remove these, run it again with --keep 10 (or --older-than <age>), and --branches to remove their branches too',
    ]);
    expect((await store.runIds()).sort()).toEqual(IDS);
    expect(await branches()).toHaveLength(14);
  });

  it("with --keep removes the runs' files and keeps their branches", async () => {
    const r = await cli(['runs', 'prune', '--keep', '12']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`removed ${IDS[0]} (stable); kept its branch ${branchOf(IDS[0]!)}`);
    expect((await store.runIds()).sort()).toEqual(IDS.slice(2));
    expect(await branches()).toHaveLength(14);
  });

  it('with --branches removes branches too, never one a remote has or hammer-box pr pushed', async () => {
    const [tracked, pushed, plain] = [IDS[2]!, IDS[3]!, IDS[4]!];
    await repo.git(['update-ref', `refs/remotes/origin/${branchOf(tracked)}`, branchOf(tracked)]);
    await store.writeArtifact(
      pushed,
      PUSH_RECORD_ARTIFACT,
      JSON.stringify([
        { branch: branchOf(pushed), remote: 'fork', url: '/srv/fork.git', commit: 'x', at: '2026-11-29T00:00:00Z' },
      ]),
    );
    const r = await cli(['runs', 'prune', '--keep', '9', '--branches']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`removed ${plain} (stable) and its branch ${branchOf(plain)}`);
    expect(r.stdout).toContain(
      `removed ${tracked} (stable); kept its branch ${branchOf(tracked)}: a remote has it (refs/remotes/origin/${branchOf(tracked)})`,
    );
    expect(r.stdout).toContain(
      `removed ${pushed} (stable); kept its branch ${branchOf(pushed)}: it was pushed to fork (hammer-box pr): its pull request needs it`,
    );
    const left = await branches();
    expect(left).not.toContain(branchOf(plain));
    expect(left).toContain(branchOf(tracked));
    expect(left).toContain(branchOf(pushed));
    // branches of runs pruned earlier without --branches stay: the runs that made them are gone
    expect(left).toContain(branchOf(IDS[0]!));
  });
});
