// Live updates: fs.watch on the runs directory and the watched run's artifacts, one notice per burst.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunSources } from '../../../src/api/run-sources.js';
import type { RunRef } from '../../../src/monitor/links.js';
import { RunWatcher } from '../../../src/monitor/watch.js';
import type { RunState } from '../../../src/state/run-state.js';
import { RunStore } from '../../../src/state/store.js';
import { addSampleIteration, startSampleRun } from '../../helpers/monitor-runs.js';
import { TEST_KEY_ENV, TEST_STATE_KEY } from '../../helpers/state-key.js';

const RUN = { runId: '20261122T140501Z-aaaaaa' };
let repo: string;
let store: RunStore;
let state: RunState;
let watcher: RunWatcher;

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'hb-watch-'));
  store = new RunStore({ dir: join(repo, '.hammer'), key: TEST_STATE_KEY });
  state = await startSampleRun(store, RUN);
  const sources = await RunSources.open({ repo, env: TEST_KEY_ENV });
  watcher = new RunWatcher({ sources: () => sources.list() });
});

afterAll(async () => {
  watcher.close();
  await rm(repo, { recursive: true, force: true });
});

/** The next notice a subscriber gets. */
function next(ref: RunRef | null): Promise<RunRef> {
  return new Promise((resolve) => {
    const off = watcher.subscribe(ref, (changed) => {
      off();
      resolve(changed);
    });
  });
}

describe('RunWatcher', () => {
  it("tells a run's page and the list when the run's state is written", async () => {
    const page = next({ source: '0', runId: RUN.runId });
    const list = next(null);
    state = await addSampleIteration(store, state, RUN);
    expect(await page).toEqual({ source: '0', runId: RUN.runId });
    expect(await list).toEqual({ source: '0', runId: RUN.runId });
  });

  it("tells a run's page when an artifact lands, before any state names it", async () => {
    const page = next({ source: '0', runId: RUN.runId });
    await new Promise((r) => setTimeout(r, 50)); // the artifacts directory is watched from the subscription on
    await store.writeArtifact(RUN.runId, 'PR_SUMMARY.md', '# done\n');
    expect(await page).toEqual({ source: '0', runId: RUN.runId });
  });

  it('gathers a burst of writes into notices, and says nothing after unsubscribing', async () => {
    const seen: RunRef[] = [];
    const off = watcher.subscribe(null, (r) => seen.push(r));
    const done = next(null);
    for (let i = 0; i < 5; i++) state = await addSampleIteration(store, state, RUN);
    await done;
    off();
    const count = seen.length;
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(5 * 2); // each write is a temp file and a rename: far fewer notices than events
    const later = next(null);
    state = await addSampleIteration(store, state, RUN);
    await later;
    expect(seen.length).toBe(count);
  });
});
