// Network and kernel escape attempts from the repository's tests, in a sandbox on the engine's
// default runtime (the shared-kernel case); see support/escape-attempts.ts for what is tried and
// gvisor.test.ts for the same attempts under gVisor.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { toolchainImage } from '../helpers/images.js';
import { requireBuiltCli } from './support/cli.js';
import { escapeAttempts } from './support/escape-attempts.js';
import { sceneRuntime } from './support/scene.js';

const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => {
  requireBuiltCli();
  await toolchainImage('python');
});
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('escape attempts from the tests', () => {
  it('network and kernel escape attempts from the tests all fail; each control works', async () => {
    // `make security RUNTIME=runsc` runs this on gVisor, whose own kernel answers the namespace attempts
    await escapeAttempts({ prefix: '', cleanups, ownKernel: (await sceneRuntime()) === 'runsc' });
  });
});
