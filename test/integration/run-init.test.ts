// The sandbox's repository is made after the baseline test (while the model answers). Tests that
// ran before it may create files and change tracked ones; the base commit must still be exactly
// the host's tree, or every later tree comparison would be off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/api/run.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { answerWith, createPythonFixture, FIX_PATCH, type PythonFixture } from '../helpers/python-fixture.js';
import { modelFlags, testEnv } from './run-support.js';

let server: ModelServer;
let fx: PythonFixture;

beforeAll(async () => {
  server = await startModelServer({ models: ['test-model'], script: [{ answer: answerWith(FIX_PATCH) }] });
  fx = await createPythonFixture();
});
afterAll(async () => {
  await server?.close();
  await fx?.cleanup();
});

describe('sandbox repository made after the baseline', () => {
  it('keeps the base exact when the baseline test litters the workspace and edits a tracked file', async () => {
    const flags = modelFlags(server);
    const outcome = await run({
      repo: fx.repo.path,
      directive: fx.directive,
      env: testEnv(),
      flags: {
        ...flags,
        tools: {
          test_command:
            'echo junk > junk.txt; mkdir -p out; echo x > out/log; echo "# touched" >> README.md; python3 -m pytest -q',
        },
      },
    });
    expect(outcome.state.status).toBe('stable');
    // the workspace was reset from the archive, so the base matched and every tree was compared
    expect(outcome.state.sandbox?.base_tree_matches).toBe(true);
    expect(outcome.state.iterations[0]?.apply?.tree).toMatch(/^[0-9a-f]{40}$/);
  });
});
