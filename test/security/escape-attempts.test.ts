// Network and kernel escape attempts from the repository's tests, in a sandbox on the engine's
// default runtime (the shared-kernel case); see support/escape-attempts.ts for what is tried and
// gvisor.test.ts for the same attempts under gVisor.
import { describe, it } from 'vitest';
import { escapeAttempts } from './support/escape-attempts.js';
import { sceneRuntime } from './support/scene.js';
import { attackFileHooks } from './support/hooks.js';

const file = attackFileHooks();

describe('escape attempts from the tests', () => {
  it('network and kernel escape attempts from the tests all fail; each control works', async () => {
    // `make security RUNTIME=runsc` runs this on gVisor, whose own kernel answers the namespace attempts
    await escapeAttempts({ prefix: '', file, ownKernel: (await sceneRuntime()) === 'runsc' });
  });
});
