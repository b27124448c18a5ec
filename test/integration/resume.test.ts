// kill -9 of the real CLI in the middle of a run, then `resume`: the run continues from its state
// file (the applied patch is not asked for again), the killed run's container and volume do not
// survive, and the user's repository gains exactly the one branch.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resume } from '../../src/api/run.js';
import { isHammerError } from '../../src/errors.js';
import { diffSnapshots, snapshotRepo } from '../helpers/fixture-repo.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import {
  answerWith,
  createPythonFixture,
  FIX_PATCH,
  NOOP_PATCH_A,
  type PythonFixture,
} from '../helpers/python-fixture.js';
import { leftovers, readState, refsOf, runIdsIn, testEnv } from './run-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(ROOT, 'dist', 'cli', 'main.js');

let server: ModelServer;
let fx: PythonFixture;

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run 'make build' first`);
  // answer 1 applies but fixes nothing; answer 2 fixes the bug
  server = await startModelServer({
    models: ['test-model'],
    script: [{ answer: answerWith(NOOP_PATCH_A) }, { answer: answerWith(FIX_PATCH) }],
  });
  fx = await createPythonFixture();
});
afterAll(async () => {
  await server?.close();
  await fx?.cleanup();
});

async function waitFor(cond: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out waiting');
}

describe('resume after kill -9', () => {
  it('continues from the state file and leaves one branch and no sandbox behind', async () => {
    const before = await snapshotRepo(fx.repo.path);
    // tests that take a while, so the kill lands inside iteration 1's test phase
    const testCommand = 'sleep 3; python3 -m pytest -q';
    const env = testEnv();
    const child = spawn(
      process.execPath,
      [
        MAIN,
        'run',
        '--repo',
        fx.repo.path,
        '--directive',
        fx.directive,
        '--llm-url',
        server.url,
        '--model',
        'test-model',
        '--test-command',
        testCommand,
        '--test-timeout',
        '60',
        '--max-iterations',
        '4',
      ],
      { cwd: ROOT, env, stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((r) => child.on('exit', (code, sig) => r(sig ? -1 : code)));
    let runId = '';
    await waitFor(async () => {
      [runId = ''] = await runIdsIn(fx.repo.path);
      if (!runId) return false;
      const s = await readFile(join(fx.repo.path, '.hammer', 'runs', `${runId}.json`), 'utf8').catch(() => '');
      // iteration 1's answer is recorded: the kill lands in its validate/apply/test exec
      return /"answer":\s*\{/.test(s);
    }, 120_000);
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGKILL');
    expect(await exited).toBe(-1);

    const killed = await readState(fx.repo.path, runId);
    expect(killed.status).toBe('running');
    expect((await leftovers(runId)).containers.length).toBe(1); // what kill -9 leaves behind
    expect(server.chatRequests().length).toBe(1);

    // the model comes from the current configuration, never from the state file
    const outcome = await resume({
      repo: fx.repo.path,
      runId,
      env,
      flags: { model: { url: server.url, name: 'test-model' } },
    });
    expect(outcome.state.run_id).toBe(runId);
    expect(outcome.state.status).toBe('stable');
    expect(outcome.state.resumed).toBe(1);
    // iteration 1 continued after its recorded answer (no second model call for it), iteration 2 fixed the bug
    expect(outcome.state.iterations.map((i) => i.outcome)).toEqual(['applied', 'applied']);
    expect(server.chatRequests().length).toBe(2);
    expect(outcome.state.branch).not.toBeNull();
    expect(await leftovers(runId)).toEqual({ containers: [], volumes: [] });

    const refs = await refsOf(fx.repo);
    expect(refs.filter((r) => r.startsWith('refs/heads/EngineerExternal/'))).toHaveLength(1);
    const d = diffSnapshots(before, await snapshotRepo(fx.repo.path));
    expect(d.removed).toEqual([]);
    expect(d.changed).toEqual([]);
    const ours = (p: string): boolean => /^(\.hammer|\.git\/refs\/heads\/EngineerExternal)(\/|$)/.test(p);
    expect(d.added.filter((p) => !ours(p))).toEqual([]);

    // a finished run is not resumed again
    await expect(resume({ repo: fx.repo.path, runId, env })).rejects.toSatisfy(
      (e: unknown) => isHammerError(e, 'USAGE') && /already ended \(stable/.test((e as Error).message),
    );
  });
});
