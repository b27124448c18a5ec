// The state file always parses, also after 1,000 kill -9 landing during state writes: child
// processes write states through RunStore (temp file, fsync, rename) in a tight loop and are killed
// at random moments; after every kill the state file is read back and validated.
import { spawn } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src/state/store.js';
import { TEST_KEY_ENV, TEST_STATE_KEY } from '../helpers/state-key.js';
import { makeState } from '../unit/state/make-state.js';
import { tempDir } from '../helpers/fixture-repo.js';
import { ROOT, requireBuiltCli } from './support/cli.js';
import { attack } from './support/record.js';

const KILLS = 1000;
const WORKERS = 2;
const WRITER = new URL('./fixtures/state-writer.mjs', import.meta.url);
const STORE = pathToFileURL(join(ROOT, 'dist', 'state', 'store.js')).href;

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** Start a writer, let it write, kill it with SIGKILL after a random delay; resolves when it is gone. */
function killOneWriter(dir: string, runId: string): Promise<{ wrote: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER.pathname, STORE, dir, runId], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...TEST_KEY_ENV },
    });
    let wrote = false;
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.stdout.on('data', () => {
      if (wrote) return;
      wrote = true;
      setTimeout(() => child.kill('SIGKILL'), Math.random() * 25);
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer exited ${code}: ${stderr.slice(-500)}`));
      else resolve({ wrote });
    });
  });
}

describe('kill -9 during state writes', () => {
  it(`leaves a state file that parses, ${KILLS} times over`, async () => {
    requireBuiltCli();
    const workers = await Promise.all(
      Array.from({ length: WORKERS }, async (_, w) => {
        const dir = await tempDir('hb-state-kill-');
        dirs.push(dir);
        const runId = `20261122T140501Z-kwaaa${'abcdefgh'[w]}`;
        const store = new RunStore({ dir, key: TEST_STATE_KEY });
        await store.create(makeState({ run_id: runId, artifacts_dir: join(dir, 'runs', runId) }));
        return { dir, runId, store, index: w };
      }),
    );
    let kills = 0;
    let parsed = 0;
    const sizes = new Set<number>();
    await Promise.all(
      workers.map(async ({ dir, runId, store, index }) => {
        for (let i = index; i < KILLS; i += WORKERS) {
          await killOneWriter(dir, runId);
          kills++;
          const state = await store.read(runId); // throws STATE_INVALID on a torn or partial file
          expect(state.run_id).toBe(runId);
          sizes.add(state.directive.text.length);
          parsed++;
        }
      }),
    );
    const temps = (
      await Promise.all(
        workers.map(async ({ dir }) => (await readdir(join(dir, 'runs'))).filter((n) => n.endsWith('.tmp'))),
      )
    ).flat();
    const listed = await Promise.all(workers.map(({ store }) => store.list()));
    await attack(`${KILLS} kill -9 landing during state writes`, 'the state file parses after every kill', () => {
      expect(kills).toBe(KILLS);
      expect(parsed).toBe(KILLS);
      // the kills landed at different points of the write loop (many distinct states survived)
      expect(sizes.size).toBeGreaterThan(KILLS / 10);
      for (const l of listed) expect(l.skipped).toEqual([]);
      return `${parsed}/${kills} reads valid; ${sizes.size} distinct states survived; ${temps.length} orphaned temp files, ignored by runs list`;
    });
  }, 900_000);
});
