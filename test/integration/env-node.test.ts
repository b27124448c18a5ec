// Env images end to end for node (real engine, real npm registry through the host's TLS
// interception, real git, a scripted model server): setup installs is-number once with network,
// iterations pass offline from the committed env image, a second run of the unchanged repository
// reuses it without running setup, and a changed lockfile makes a new one.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type RunOptions } from '../../src/api/run.js';
import { imageUsagePath, readImageUsage } from '../../src/images/usage.js';
import type { RunOutcome } from '../../src/loop/run-types.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { createToolchainFixture, nodeLockfile, type ToolchainFixture } from '../fixtures/toolchains/fixtures.js';
import { modelFlags, testEnv } from './run-support.js';

const docker = new Docker();
const made = new Set<string>();

describe('node env image: setup once with network, iterations offline, reused until the lockfile changes', () => {
  let fx: ToolchainFixture;
  let server: ModelServer;
  let stateHome: string;
  const setups: string[] = [];
  const setupLines: string[] = [];
  const outcomes: RunOutcome[] = [];

  const runOnce = async (): Promise<RunOutcome> => {
    server.enqueue({ answer: fx.fixAnswer });
    const opts: RunOptions = {
      repo: fx.repo.path,
      directive: fx.directive,
      env: testEnv({ XDG_STATE_HOME: stateHome }),
      flags: modelFlags(server),
      onSetupStart: (tag) => setups.push(tag),
      onSetupOutput: (line) => setupLines.push(line),
    };
    const outcome = await run(opts);
    if (outcome.state.image?.env) made.add(outcome.state.image?.env.id);
    return outcome;
  };

  beforeAll(async () => {
    await toolchainImage('node');
    stateHome = await mkdtemp(join(tmpdir(), 'hb-state-'));
    fx = await createToolchainFixture('node');
    server = await startModelServer({ script: [] });
    outcomes.push(await runOnce());
    outcomes.push(await runOnce());
    await fx.repo.write({ 'package-lock.json': nodeLockfile('changed', 'MIT') });
    await fx.repo.git(['commit', '-q', '-am', 'change the lockfile']);
    outcomes.push(await runOnce());
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    await fx?.cleanup();
    await rm(stateHome, { recursive: true, force: true });
    for (const id of made)
      await docker
        .getImage(id)
        .remove()
        .catch(() => undefined);
  });

  it('detects node from package.json and reaches tests-pass with the scripted fix (npm test, offline)', () => {
    const [first] = outcomes;
    expect(first!.state.status).toBe('stable');
    expect(first!.state.reason).toBe('tests_pass');
    expect(first!.state.baseline?.exit_code).not.toBe(0);
    expect(first!.state.iterations.at(-1)?.test?.exit_code).toBe(0);
    expect((first!.state.config as { sandbox: { toolchain: string } }).sandbox.toolchain).toBe('node');
  });

  it('installed is-number from the registry during setup (npm ci through the CA bundle)', () => {
    expect(setups[0]).toMatch(/^hammer-box\/node-env:[0-9a-f]{12}$/);
    expect(setupLines.join('\n')).toMatch(/added 1 package/);
    // the baseline failed on the sum, not on a missing module: the dependency was there offline
    expect(outcomes[0]!.state.baseline?.stderr_tail).toContain('total([1, 2, 3]) must be 6');
    expect(outcomes[0]!.state.baseline?.stderr_tail).not.toContain('Cannot find module');
  });

  it('records the toolchain and env image ids in the state and PR_SUMMARY.md', async () => {
    const image = outcomes[0]!.state.image!;
    expect(image.env).not.toBeNull();
    expect(image.toolchain?.ref).toMatch(/^hammer-box\/node:[0-9a-f]{12}$/);
    expect(image.id).toBe(image.env!.id);
    const inspected = await docker.getImage(image.env!.id).inspect();
    expect(inspected.Config.Labels['hammer-box.toolchain-image']).toBe(image.toolchain!.id);
    expect(inspected.Config.Labels['hammer-box.dependency-files']).toBe('package-lock.json,package.json');
    expect(inspected.Config.Env.join('\n')).not.toMatch(/SSL_CERT_FILE|HTTPS?_PROXY/);
    const summary = await readFile(outcomes[0]!.summaryPath!, 'utf8');
    // PR_SUMMARY.md names each image by its short id (12 hex digits)
    const shortId = (id: string): string => id.replace(/^sha256:/, '').slice(0, 12);
    expect(summary).toContain(shortId(image.env!.id));
    expect(summary).toContain(shortId(image.toolchain!.id));
  });

  it('a second run of the unchanged repository reuses the env image and never runs setup', () => {
    expect(outcomes[1]!.state.status).toBe('stable');
    expect(outcomes[1]!.state.image?.env?.id).toBe(outcomes[0]!.state.image?.env?.id);
    expect(setups).toHaveLength(2); // first run and the changed lockfile, not the second run
  });

  it('a changed lockfile gives a new env image, built by a new setup', () => {
    expect(outcomes[2]!.state.status).toBe('stable');
    expect(outcomes[2]!.state.image?.env?.id).not.toBe(outcomes[0]!.state.image?.env?.id);
    expect(outcomes[2]!.state.image?.toolchain?.id).toBe(outcomes[0]!.state.image?.toolchain?.id);
    expect(setups[1]).not.toBe(setups[0]);
  });

  it('records which runs used the env image for images list and prune', async () => {
    const usage = await readImageUsage(imageUsagePath({ XDG_STATE_HOME: stateHome }));
    const runs = usage[outcomes[0]!.state.image!.env!.id]?.runs.map((r) => r.run_id);
    expect(runs).toEqual([outcomes[1]!.state.run_id, outcomes[0]!.state.run_id]);
  });
});
