// A run whose branch name is taken between recording it and making its ref (a branch names its run,
// so only another process making that very name by hand can take it). The race is forced, not hoped
// for: run A freezes itself (SIGSTOP at `deliver:name`) after recording the name and before making
// its ref; the name is then made in the repository, as another process would. Continued, A finds the
// name taken at its create-only update-ref, records the next name and takes it: it ends stable with
// a branch of its own, the other branch is untouched, and nothing else changes.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { answerWith, createPythonFixture, FIX_PATCH, type PythonFixture } from '../helpers/python-fixture.js';
import { leftovers, readState, refsOf, runIdsIn, testEnv } from './run-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(ROOT, 'dist', 'cli', 'main.js');

let server: ModelServer;
let fx: PythonFixture;

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run 'make build' first`);
  server = await startModelServer({
    models: ['test-model'],
    script: [{ answer: answerWith(FIX_PATCH) }, { answer: answerWith(FIX_PATCH) }],
  });
  fx = await createPythonFixture();
});
afterAll(async () => {
  await server?.close();
  await fx?.cleanup();
});

/** Start the CLI's `run`; `done` resolves with its exit code (-1 for a signal) and stderr. */
function startRun(env: NodeJS.ProcessEnv) {
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
    ],
    { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<{ code: number; stderr: string }>((r) =>
    child.on('close', (code, sig) => r({ code: sig ? -1 : (code ?? -1), stderr })),
  );
  return { child, done };
}

/** True once process `pid` is stopped (state T in /proc/<pid>/stat). */
async function isStopped(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return /^\d+ \(.*\) T /.test(stat);
}

async function waitFor(cond: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a branch name taken while the run delivers', () => {
  it('the run that finds its name taken at update-ref records and takes the next; it ends stable', async () => {
    const env = testEnv();
    const a = startRun({ ...env, HAMMER_FAULT: 'SIGSTOP@deliver:name' });
    try {
      await waitFor(() => isStopped(a.child.pid!), 240_000, 'run A to stop at deliver:name');
      const [idA] = await runIdsIn(fx.repo.path);
      const NAME = `EngineerExternal/${idA!}`;
      const frozen = await readState(fx.repo.path, idA!);
      expect(frozen.delivering?.name, 'A recorded the name (its run id) before making it').toBe(NAME);
      expect(frozen.branch).toBeNull();

      // another process makes that very name
      await fx.repo.git(['branch', NAME, 'main']);
      const theirs = (await fx.repo.git(['rev-parse', NAME])).trim();

      a.child.kill('SIGCONT');
      const resultA = await a.done;
      expect(resultA.code, resultA.stderr.slice(-800)).toBe(0);
      const stateA = await readState(fx.repo.path, idA!);
      expect(stateA.status).toBe('stable');
      expect(stateA.branch?.name, 'A took the next free name').toBe(`${NAME}-2`);
      expect(stateA.delivering ?? null).toBeNull();
      // A met the taken name at its ref update (its log says so), not in a check beforehand
      const events = await readFile(join(fx.repo.path, '.hammer', 'runs', idA!, 'events.ndjson'), 'utf8');
      expect(events).toContain('branch name taken by another process');

      const ours = (await refsOf(fx.repo)).filter((r) => r.startsWith('refs/heads/EngineerExternal/'));
      expect(ours).toEqual([`refs/heads/${NAME}`, `refs/heads/${NAME}-2`]);
      expect((await fx.repo.git(['rev-parse', NAME])).trim(), 'the other branch is untouched').toBe(theirs);
      expect((await fx.repo.git(['rev-parse', `refs/heads/${stateA.branch!.name}`])).trim()).toBe(
        stateA.branch!.commit,
      );
      expect(await leftovers(stateA.run_id)).toEqual({ containers: [], volumes: [] });
    } finally {
      a.child.kill('SIGCONT');
      a.child.kill('SIGKILL');
    }
  }, 480_000);
});
