// Where the monitor finds runs: a repository's [state] dir, and the state directories under a
// directory of runs (a batch's output), found without following symlinks.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findStateDirs, RunSources } from '../../../src/api/run-sources.js';
import { isHammerError } from '../../../src/errors.js';
import { RunStore } from '../../../src/state/store.js';
import { TEST_KEY_ENV, TEST_STATE_KEY } from '../../helpers/state-key.js';
import { makeState } from '../state/make-state.js';

let root: string;

async function runIn(stateDir: string, runId: string): Promise<void> {
  await new RunStore({ dir: stateDir, key: TEST_STATE_KEY }).create(makeState({ run_id: runId }));
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hb-sources-'));
  await runIn(join(root, 'repo', '.hammer'), '20261122T140501Z-aaaaaa');
  await runIn(join(root, 'batch', 'task-1', 'attempt-1', '.hammer'), '20261122T140502Z-bbbbbb');
  await runIn(join(root, 'batch', 'task-2', 'state'), '20261122T140503Z-cccccc');
  // where hammer-box batch keeps an attempt's run, beside its repository's object store
  await runIn(join(root, 'out', 'tasks', 't', 'attempt-2', 'repo', '.hammer'), '20261122T140506Z-ffffff');
  await mkdir(join(root, 'out', 'tasks', 't', 'attempt-2', 'repo', 'objects', 'runs'), { recursive: true });
  await writeFile(
    join(root, 'out', 'tasks', 't', 'attempt-2', 'repo', 'objects', 'runs', '20261122T140507Z-gggggg.json'),
    '{}',
  );
  await mkdir(join(root, 'batch', 'task-3', 'runs'), { recursive: true }); // no run yet
  await mkdir(join(root, 'batch', 'node_modules', 'x', '.hammer', 'runs'), { recursive: true });
  await writeFile(join(root, 'batch', 'node_modules', 'x', '.hammer', 'runs', '20261122T140504Z-dddddd.json'), '{}');
  await symlink(join(root, 'repo'), join(root, 'batch', 'linked'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('findStateDirs', () => {
  it('finds the parent of every runs directory that holds a state file, never through a symlink or node_modules', async () => {
    expect(await findStateDirs(join(root, 'batch'))).toEqual([
      join(root, 'batch', 'task-1', 'attempt-1', '.hammer'),
      join(root, 'batch', 'task-2', 'state'),
    ]);
  });

  it("finds the runs of a hammer-box batch's attempts, never in a git object store", async () => {
    expect(await findStateDirs(join(root, 'out'))).toEqual([
      join(root, 'out', 'tasks', 't', 'attempt-2', 'repo', '.hammer'),
    ]);
  });

  it('takes a runs directory itself', async () => {
    expect(await findStateDirs(join(root, 'repo', '.hammer', 'runs'))).toEqual([join(root, 'repo', '.hammer')]);
  });
});

describe('RunSources', () => {
  it("opens a repository's state directory and the directories given, each with a key and a label", async () => {
    const sources = await RunSources.open({ repo: join(root, 'repo'), dirs: [join(root, 'batch')], env: TEST_KEY_ENV });
    expect(sources.list().map((s) => [s.key, s.label, s.inspector.dir])).toEqual([
      ['0', join(root, 'repo'), join(root, 'repo', '.hammer')],
      ['1', join('batch', 'task-1', 'attempt-1', '.hammer'), join(root, 'batch', 'task-1', 'attempt-1', '.hammer')],
      ['2', join('batch', 'task-2', 'state'), join(root, 'batch', 'task-2', 'state')],
    ]);
    expect((await sources.find('20261122T140503Z-cccccc'))?.key).toBe('2');
    expect(await sources.find('20261122T140509Z-zzzzzz')).toBeUndefined();
  });

  it('picks up a state directory that appears later, keeping the keys it gave', async () => {
    const sources = await RunSources.open({ dirs: [join(root, 'batch')], env: TEST_KEY_ENV });
    expect(sources.list()).toHaveLength(2);
    await runIn(join(root, 'batch', 'task-3'), '20261122T140505Z-eeeeee');
    await sources.rescan();
    expect(sources.list().map((s) => [s.key, s.label])).toEqual([
      ['0', join('batch', 'task-1', 'attempt-1', '.hammer')],
      ['1', join('batch', 'task-2', 'state')],
      ['2', join('batch', 'task-3')],
    ]);
  });

  it('refuses a path that is not a directory', async () => {
    const err = await RunSources.open({ dirs: [join(root, 'nope')], env: TEST_KEY_ENV }).catch((e: unknown) => e);
    expect(isHammerError(err, 'REPO_INVALID')).toBe(true);
  });
});
