// --resume with nothing to run touches no engine: a batch killed after a run ended (its record still
// saying running) takes the run's sealed final state; a record whose run never ended runs again.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../../../src/batch/attempt-record.js';
import { runBatch } from '../../../src/batch/batch.js';
import { BatchDir } from '../../../src/batch/batch-dir.js';
import { loadTasks } from '../../../src/batch/tasks-file.js';
import { RunStore } from '../../../src/state/store.js';
import { finishRun, newRunState } from '../../../src/state/transitions.js';
import { TEST_KEY_ENV, TEST_STATE_KEY } from '../../helpers/state-key.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hb-resume-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function runStateIn(repo: string, runId: string): Promise<void> {
  await mkdir(repo, { recursive: true });
  const store = new RunStore({ dir: join(repo, '.hammer'), key: TEST_STATE_KEY });
  const s = newRunState({
    runId,
    now: new Date('2026-01-01T00:00:00Z'),
    repo: { path: repo, base_ref: 'c'.repeat(40), base_commit: 'c'.repeat(40), base_tree: 'd'.repeat(40) },
    directive: { path: 'x', text: 'fix it' },
    config: {},
    model: { provider: 'ollama', name: 'm', url: 'http://x' },
    image: null,
    artifactsDir: store.artifactsDir(runId),
  });
  await store.create(
    finishRun(s, { status: 'stable', reason: 'tests_pass', detail: null }, new Date('2026-01-01T00:02:00Z')),
  );
}

describe('runBatch --resume', () => {
  it("finishes a record left running from its run's sealed state, and plans nothing for it", async () => {
    const tasksFile = join(root, 'tasks.jsonl');
    await writeFile(
      tasksFile,
      `${JSON.stringify({ id: 't', repo: 'nowhere', commit: 'main', directive: 'fix it' })}\n`,
    );
    const [task] = await loadTasks(tasksFile);
    const out = join(root, 'out');
    const dir = await BatchDir.open(out, TEST_STATE_KEY, false);
    await dir.makeAttempt('t', 1);
    const rec: AttemptRecord = {
      schema_version: 1,
      task_id: 't',
      attempt: 1,
      sample: 1,
      replaces: null,
      task_hash: task!.hash,
      commit: 'c'.repeat(40),
      started_at: '2026-01-01T00:00:00.000Z',
      finished_at: null,
      status: null,
      wall_ms: null,
      run: null,
      error: null,
      owner: { pid: 1, host: 'gone' },
    };
    await dir.writeRecord(rec);
    await runStateIn(dir.repoPath('t', 1), '20260101T000000Z-aaaaaa');
    await dir.unlock();

    const events: string[] = [];
    const result = await runBatch({
      tasksFile,
      out,
      jobs: 1,
      modelJobs: 1,
      taskTimeoutS: 60,
      resume: true,
      retry: [],
      env: { ...TEST_KEY_ENV, HOME: root },
      flags: { model: { name: 'm' } },
      emit: (e) => events.push(e.type),
      version: '0.0.0-test',
    });
    expect(result.interrupted).toBe(false);
    expect(result.report.tasks[0]).toMatchObject({ id: 't', status: 'stable' });
    expect(result.report.tasks[0]!.attempts[0]).toMatchObject({ run_id: '20260101T000000Z-aaaaaa', wall_ms: 120_000 });
    expect(events).toEqual(['batch_started']);
    // written back: a later resume reads it as finished
    const again = await BatchDir.open(out, TEST_STATE_KEY, true);
    expect((await again.readTask('t')).records[0]!.status).toBe('stable');
    await again.unlock();
  });
});
