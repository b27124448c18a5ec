// Agent mode stopped mid-command, through the real CLI: a kill -9 while a command runs, then a
// Ctrl-C while the resumed run's next command runs. Each time the run can be resumed; resume plays
// the recorded turns back (their calls run again in a fresh sandbox to rebuild the work tree) and
// asks the model only for what comes after the last recorded turn.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resume } from '../../src/api/run.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, trajectoryScript, type ModelServer } from '../helpers/model-server.js';
import { createToolchainFixture, type ToolchainFixture } from '../fixtures/toolchains/fixtures.js';
import { leftovers, readState, runIdsIn, testEnv } from './run-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(ROOT, 'dist', 'cli', 'main.js');

let server: ModelServer;
let fx: ToolchainFixture;

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run 'make build' first`);
  server = await startModelServer({ script: [] });
  await toolchainImage('python');
  fx = await createToolchainFixture('python', 'agent-mode');
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

/** Spawn the CLI; resolves with its exit code (-1 for a signal) once it ends. */
function cli(args: string[]): { exited: Promise<number>; kill: (s: NodeJS.Signals) => void } {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env: testEnv(), stdio: 'ignore' });
  const exited = new Promise<number>((r) => child.on('exit', (code, sig) => r(sig ? -1 : (code ?? -2))));
  return { exited, kill: (s) => child.kill(s) };
}

/** True once the state file records turn k of iteration 1 (its call is then running). */
const turnRecorded = (runId: string, k: number) => async (): Promise<boolean> => {
  const text = await readFile(join(fx.repo.path, '.hammer', 'runs', `${runId}.json`), 'utf8').catch(() => '');
  return text.includes(`"iter-01-turn-${k}-answer.md"`);
};

describe('agent mode stopped mid-command', () => {
  it('resumes after a kill -9 and after a Ctrl-C, each time after the last recorded turn', async () => {
    const model = ['--llm-url', server.url, '--model', 'test-model'];
    server.enqueue(
      ...trajectoryScript([{ bash: 'grep -n result calc.py' }, { bash: 'sleep 4; echo slept' }], 'native'),
    );
    const first = cli(['run', '--repo', fx.repo.path, '--directive', fx.directive, '--mode', 'agent', ...model]);
    let runId = '';
    await waitFor(async () => {
      [runId = ''] = await runIdsIn(fx.repo.path);
      return runId !== '' && (await turnRecorded(runId, 2)());
    }, 300_000);
    first.kill('SIGKILL');
    expect(await first.exited).toBe(-1);
    const killed = await readState(fx.repo.path, runId);
    expect(killed.status).toBe('running');
    expect(killed.iterations[0]!.trajectory!.turns).toHaveLength(2);
    expect(server.chatRequests()).toHaveLength(2);

    // resumed: turns 1 and 2 are played back (no requests), turn 3 is asked for; Ctrl-C during its command
    server.enqueue(...trajectoryScript([{ bash: 'sleep 4; echo again' }], 'native'));
    const second = cli(['resume', runId, '--repo', fx.repo.path, ...model]);
    await waitFor(turnRecorded(runId, 3), 300_000);
    second.kill('SIGINT');
    expect(await second.exited).toBe(130);
    const interrupted = await readState(fx.repo.path, runId);
    expect(interrupted.status).toBe('interrupted');
    expect(interrupted.resumed).toBe(1);
    expect(server.chatRequests()).toHaveLength(3);
    expect(await leftovers(runId)).toEqual({ containers: [], volumes: [] });

    // resumed again: three turns played back, then the fix and the submit from the model
    server.enqueue(
      ...trajectoryScript(
        [
          { edit: { command: 'str_replace', path: 'calc.py', old_str: 'result -= item', new_str: 'result += item' } },
          { submit: true },
        ],
        'native',
      ),
    );
    const outcome = await resume({
      repo: fx.repo.path,
      runId,
      env: testEnv(),
      flags: { model: { url: server.url, name: 'test-model' } },
    });
    expect(outcome.state.status).toBe('stable');
    expect(outcome.state.resumed).toBe(2);
    expect(server.chatRequests()).toHaveLength(5);
    const t = outcome.state.iterations[0]!.trajectory!;
    expect(t.turns).toHaveLength(5);
    expect(t.steps.map((s) => s.action)).toEqual([
      'grep -n result calc.py',
      'sleep 4; echo slept',
      'sleep 4; echo again',
      'str_replace calc.py',
      'submit',
    ]);
    // the commands played back ran again: their output is the real one
    expect(t.steps[1]!.observation).toContain('slept');
    expect(await leftovers(runId)).toEqual({ containers: [], volumes: [] });
  }, 900_000);
});
