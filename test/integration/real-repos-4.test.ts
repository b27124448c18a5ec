// Real repository shapes, round 4 (test/fixtures/real-repos-4.ts), each run through the real binary
// with a scripted model (a patch that changes nothing, then the fix) and no --toolchain or
// --test-command: a home-made runner that exits 0 with a failure, a manifest-less Python directory
// chosen by the directive, a pnpm workspace member, vitest --typecheck on a read-only image, an
// npm-run-all chain judged against a whole baseline, and a suite longer than the test timeout.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { RealRepoShape } from '../fixtures/real-repos.js';
import { realRepoShapesRound4 } from '../fixtures/real-repos-4.js';
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

const versions = {
  vitest: await installedVersion('vitest'),
  vite: await installedVersion('vite'),
  typescript: await installedVersion('typescript'),
  // the pnpm major valibot's workspace names
  pnpm: '9.15.9',
};

describe.each(realRepoShapesRound4(randomBytes(6).toString('hex'), versions).map((s) => [s.name, s] as const))(
  '%s',
  (_name, shape: RealRepoShape) => {
    it(`ends ${shape.expect.status} (${shape.expect.reason}) through the CLI, and not on the patch that changes nothing`, async () => {
      await runShape(shape, stateHome, made);
    }, 900_000);
  },
);
