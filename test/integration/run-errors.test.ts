// `hammer-box run` when the model cannot answer: a server that is down, a model it does not have,
// an error chunk in the middle of the stream. Each is a typed error with its exit code and hint;
// the state file records the error; no patch, no branch, and no container or volume survive; the
// hint ends with the `hammer-box resume` command that continues the run.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/api/run.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import { HammerError, isHammerError } from '../../src/errors.js';
import type { RunState } from '../../src/state/run-state.js';
import { diffSnapshots, snapshotRepo } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer, type Script } from '../helpers/model-server.js';
import { createPythonFixture, type PythonFixture } from '../helpers/python-fixture.js';
import { leftovers, modelFlags, readState, refsOf, runIdsIn, testEnv } from './run-support.js';

let fx: PythonFixture | undefined;
let server: ModelServer | undefined;

beforeAll(async () => {
  await toolchainImage('python');
});

afterEach(async () => {
  await server?.close();
  await fx?.cleanup();
  server = undefined;
  fx = undefined;
});

/** Run against `url` and return the error it must throw, the run's state, and what changed in the repo. */
async function failingRun(
  url: string,
  provider?: 'openai',
): Promise<{ error: HammerError; state: RunState; changed: string[] }> {
  fx = await createPythonFixture();
  const before = await snapshotRepo(fx.repo.path);
  const error: unknown = await run({
    repo: fx.repo.path,
    directive: fx.directive,
    env: testEnv(),
    flags: modelFlags({ url }, provider ? { provider } : {}),
  }).then(
    () => new Error('the run resolved; it should have thrown'),
    (err: unknown) => err,
  );
  if (!isHammerError(error)) throw error;
  const ids = await runIdsIn(fx.repo.path);
  expect(ids).toHaveLength(1);
  const state = await readState(fx.repo.path, ids[0]!);
  const d = diffSnapshots(before, await snapshotRepo(fx.repo.path));
  return {
    error,
    state,
    changed: [...d.added, ...d.removed, ...d.changed].filter((p) => p !== '.hammer' && !p.startsWith('.hammer/')),
  };
}

/** What every model failure leaves: state `error` with the code, no branch, no sandbox left. */
async function expectCleanFailure(error: HammerError, state: RunState, changed: string[]): Promise<void> {
  expect(state.status).toBe('error');
  expect(state.reason).toBe('error');
  expect(state.errors.map((e) => e.code)).toContain(error.code);
  expect(state.branch).toBeNull();
  expect(await refsOf(fx!.repo)).toEqual(['refs/heads/main']);
  expect(changed).toEqual([]);
  expect(await leftovers(state.run_id)).toEqual({ containers: [], volumes: [] });
  // the error says how to continue once the cause is fixed: resume, or (stopped in setup by the
  // model check, before there was anything to resume) start again
  if (state.image === null) expect(error.hint).toMatch(/; then start the run again \(it stopped in setup\)$/);
  else expect(error.hint).toContain(`hammer-box resume ${state.run_id} --repo ${fx!.repo.path}`);
}

/** A failure the model check found beside the sandbox work: no iteration was started. */
function expectCaughtByCheck(state: RunState): void {
  expect(state.iterations).toEqual([]);
}

/** A failure of the first model request: the baseline ran in a sandbox, the first iteration failed in generate. */
function expectFailedInGenerate(state: RunState): void {
  expect(state.baseline?.exit_code).not.toBe(0);
  expect(state.iterations[0]?.phases.generate?.status).toBe('failed');
  expect(state.iterations[0]?.patch ?? null).toBeNull();
  expect(state.iterations[0]?.apply ?? null).toBeNull();
  expect(state.sandbox?.container_id).toBeTruthy();
}

describe('run: the model cannot answer', () => {
  it('fails with MODEL_NOT_FOUND from the OpenAI listing before any chat request', async () => {
    server = await startModelServer({ models: ['other-model'], script: [] });
    const { error, state, changed } = await failingRun(server.url, 'openai');
    expect(error.code).toBe('MODEL_NOT_FOUND');
    expect(error.message).toMatch(/; it has: other-model$/);
    expect(error.hint).toMatch(/^pass --model naming one it serves/);
    expect(server.chatRequests()).toHaveLength(0);
    expectCaughtByCheck(state);
    await expectCleanFailure(error, state, changed);
  });

  it('fails with MODEL_UNREACHABLE (exit 3) when nothing listens at the model URL', async () => {
    const closed = await startModelServer({ script: [] });
    const url = closed.url;
    await closed.close();
    const { error, state, changed } = await failingRun(url);
    expect(error.code).toBe('MODEL_UNREACHABLE');
    expect(exitCodeFor(error.code)).toBe(3);
    expect(error.hint).toContain('ollama serve');
    expectCaughtByCheck(state);
    await expectCleanFailure(error, state, changed);
  });

  it('fails with MODEL_NOT_FOUND and the `ollama pull` hint when the server lacks the model', async () => {
    server = await startModelServer({ models: ['other-model'], script: [] });
    const { error, state, changed } = await failingRun(server.url);
    expect(error.code).toBe('MODEL_NOT_FOUND');
    expect(exitCodeFor(error.code)).toBe(3);
    expect(error.message).toContain('; it has: other-model:latest');
    expect(error.hint).toMatch(
      /^pull it with: ollama pull test-model, or pass --model naming one it has; then (continue with: hammer-box resume |start)/,
    );
    // found by the check of /api/tags, before any chat request
    expect(server.chatRequests()).toHaveLength(0);
    expectCaughtByCheck(state);
    await expectCleanFailure(error, state, changed);
  });

  it('fails with MODEL_ERROR on an error chunk mid-stream, applying nothing of the partial answer', async () => {
    const partial =
      'Here is the fix:\n\n```diff\ndiff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -5,6 +5,6 @@\n';
    const script: Script[] = [{ errorAfter: partial, error: 'llama runner process has terminated: signal: killed' }];
    server = await startModelServer({ script });
    const { error, state, changed } = await failingRun(server.url);
    expect(error.code).toBe('MODEL_ERROR');
    expect(error.message).toContain('llama runner process has terminated');
    expect(exitCodeFor(error.code)).toBe(3);
    expect(state.iterations[0]?.answer ?? null).toBeNull();
    expectFailedInGenerate(state);
    await expectCleanFailure(error, state, changed);
  });
});
