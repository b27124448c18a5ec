// Shapes of real repositories that used to end wrongly (test/fixtures/real-repos.ts), each run
// through the real binary with a scripted model and no --toolchain or --test-command: tests on
// `localhost` pass in the sandbox, a failure from before the change does not block stable, offline
// setup skips the tools it cannot have (and says what the tests miss), a Python package beside a
// root package.json is found when the root's tests pass, and a runner that exits 0 on a failing
// test does not pass. The Vitest shape's lockfile is made on the host at test time, by the npm the
// node image carries.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { realRepoShapes, type RealRepoShape } from '../fixtures/real-repos.js';
import { installedVersion, runShape } from './real-repo-run.js';

const docker = new Docker();
const made = new Set<string>();
let stateHome: string;

beforeAll(async () => {
  stateHome = await mkdtemp(join(tmpdir(), 'hb-state-'));
});

afterAll(async () => {
  await rm(stateHome, { recursive: true, force: true });
  for (const id of made)
    await docker
      .getImage(id)
      .remove({ force: true })
      .catch(() => undefined);
});

const vitestVersion = await installedVersion('vitest');

describe.each(realRepoShapes(randomBytes(6).toString('hex'), vitestVersion).map((s) => [s.name, s] as const))(
  '%s',
  (_name, shape: RealRepoShape) => {
    it(`ends ${shape.expect.status} (${shape.expect.reason}) through the CLI`, async () => {
      await runShape(shape, stateHome, made);
    }, 600_000);
  },
);
