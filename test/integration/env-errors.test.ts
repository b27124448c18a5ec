// Environment errors with the real engine: a failing dependency setup is SETUP_FAILED (exit 3)
// quoting the output's end, with no env image committed and no container left; `hammer-box replay`
// of a run whose env image is gone refuses with IMAGE_MISSING naming the image and why (exit 3,
// through the real CLI binary); an --image built for another architecture than the engine's is
// IMAGE_CONTRACT naming both platforms before any container starts.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/api/run.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import { HammerError } from '../../src/errors.js';
import { packageRoot } from '../../src/paths.js';
import { LABELS } from '../../src/sandbox/labels.js';
import { createFixtureRepo } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { createToolchainFixture } from '../fixtures/toolchains/fixtures.js';
import { modelFlags, readStateFile, testEnv } from './run-support.js';

const docker = new Docker();
const madeImages = new Set<string>();
let stateHome: string;
let server: ModelServer;

/** The error a promise rejects with (undefined when it resolves). */
const rejection = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

const exists = (ref: string): Promise<boolean> =>
  docker
    .getImage(ref)
    .inspect()
    .then(
      () => true,
      () => false,
    );

beforeAll(async () => {
  stateHome = await mkdtemp(join(tmpdir(), 'hb-state-'));
  server = await startModelServer({ script: [] });
});

afterAll(async () => {
  await server?.close();
  for (const id of madeImages)
    await docker
      .getImage(id)
      .remove({ force: true })
      .catch(() => undefined);
  await rm(stateHome, { recursive: true, force: true });
});

describe('a failing dependency setup', () => {
  it('is SETUP_FAILED (exit code 3) with the output tail; nothing is committed and no container is left', async () => {
    const nodeTag = await toolchainImage('node');
    const nodeId = (await docker.getImage(nodeTag).inspect()).Id;
    const fx = await createToolchainFixture('node');
    const started: string[] = [];
    const since = Math.floor(Date.now() / 1000) - 1;
    const chatsBefore = server.chatRequests().length;
    try {
      const err = await rejection(
        run({
          repo: fx.repo.path,
          directive: fx.directive,
          env: testEnv({ XDG_STATE_HOME: stateHome }),
          flags: { ...modelFlags(server), env: { setup_command: 'echo about to fail; exit 7' } },
          onSetupStart: (tag) => started.push(tag),
        }),
      );
      expect(err).toBeInstanceOf(HammerError);
      const e = err as HammerError;
      expect(e.code).toBe('SETUP_FAILED');
      expect(exitCodeFor(e.code)).toBe(3);
      expect(e.message).toContain('(echo about to fail; exit 7) exited with 7');
      expect(e.message.split('\n')).toContain('about to fail');
      expect(e.hint).toContain('[env] setup_command');
      // setup started for a new env image, and that image was never committed
      expect(started).toHaveLength(1);
      expect(started[0]).toMatch(/^hammer-box\/node-env:[0-9a-f]{12}$/);
      expect(await exists(started[0]!)).toBe(false);
      // the setup container (with network) is gone, and no sandbox was started
      const left = await docker.listContainers({ all: true, filters: { label: ['hammer-box.purpose=env-setup'] } });
      expect(left.filter((c) => c.ImageID === nodeId && c.Created >= since)).toEqual([]);
      // the model was checked beside setup (GET /api/tags) but never asked to answer
      expect(server.chatRequests()).toHaveLength(chatsBefore);
      // the setup network and its proxy are gone too (this process's: other test files set up beside it)
      const nets = await docker.listNetworks({
        filters: { label: ['hammer-box.purpose=env-setup', `${LABELS.ownerPid}=${process.pid}`] },
      });
      expect(nets).toEqual([]);
      // the run still left its state file: failed in the setup phase, no image, the error recorded
      expect(e.run?.statePath).toBeTruthy();
      const state = await readStateFile(e.run!.statePath);
      expect(state).toMatchObject({ status: 'error', image: null });
      expect(state.phases.setup?.status).toBe('failed');
      expect(state.errors[0]?.code).toBe('SETUP_FAILED');
      expect(state.environment?.line).toMatch(
        /^toolchain node \d+\.\d+\.\d+ \(package\.json, package\.json test script\), test command: npm test$/,
      );
    } finally {
      await fx.cleanup();
    }
  }, 300_000);

  it("quotes the package manager's own reason, not the usage text npm prints after it", async () => {
    const fx = await createToolchainFixture('node');
    // what npm 11.21 printed refusing a lockfile npm 11.19 wrote (98 lines, the reason at the top)
    const npmOutput = await readFile(
      join(packageRoot(), 'test', 'fixtures', 'setup-output', 'npm-11-ci-out-of-sync.txt'),
      'utf8',
    );
    const command = `cat >&2 <<'NPM'\n${npmOutput}NPM\nexit 1`;
    try {
      const err = await rejection(
        run({
          repo: fx.repo.path,
          directive: fx.directive,
          env: testEnv({ XDG_STATE_HOME: stateHome }),
          flags: { ...modelFlags(server), env: { setup_command: command } },
        }),
      );
      expect(err).toBeInstanceOf(HammerError);
      const e = err as HammerError;
      expect(e.code).toBe('SETUP_FAILED');
      expect(e.message).toContain(
        'the package manager said: `npm ci` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync. Please update your lock file with `npm install` before continuing. | Missing: napi-windows-process-start-time@ from lock file',
      );
      // what the message says beside the command it names
      const said = e.message.replace(command, '');
      expect(said).toContain('Missing: napi-windows-process-start-time@ from lock file');
      expect(said).not.toMatch(/--allow-scripts|aliases: clean-install|Clean install a project/);
      expect(e.hint).toMatch(/the lockfile does not match package\.json/);
    } finally {
      await fx.cleanup();
    }
  }, 300_000);

  it('with --json prints one JSON document naming the error and the state file the run left', async () => {
    const fx = await createToolchainFixture('node');
    const dir = await mkdtemp(join(tmpdir(), 'hb-conf-'));
    try {
      const config = join(dir, 'config.toml');
      await writeFile(
        config,
        `[model]\nprovider = "ollama"\nurl = "${server.url}"\nname = "test-model"\nretries = 0\n[env]\nsetup_command = "echo broken; exit 3"\n`,
      );
      const cli = join(packageRoot(), 'dist', 'cli', 'main.js');
      const result = await promisify(execFile)(
        process.execPath,
        [cli, 'run', '--repo', fx.repo.path, '--directive', fx.directive, '--config', config, '--json'],
        { env: testEnv({ XDG_STATE_HOME: stateHome }) },
      ).then(
        () => {
          throw new Error('the run should have failed');
        },
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
      expect(result.code).toBe(3);
      const doc = JSON.parse(result.stdout) as {
        error: { code: string; message: string; hint: string };
        state_path: string;
        run_id: string;
      };
      expect(doc.error.code).toBe('SETUP_FAILED');
      expect(doc.error.message).toContain('exited with 3');
      expect(doc.run_id).toMatch(/^\d{8}T\d{6}Z-/);
      const state = await readStateFile(doc.state_path);
      expect(state.run_id).toBe(doc.run_id);
      expect(result.stderr).toMatch(/hammer-box: toolchain node \d+\.\d+\.\d+ \(package\.json/);
    } finally {
      await fx.cleanup();
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

describe('replay of a run whose env image is gone', () => {
  it('refuses with IMAGE_MISSING naming the env image and why, exit code 3', async () => {
    await toolchainImage('python');
    const fx = await createToolchainFixture('python');
    try {
      server.enqueue({ answer: fx.fixAnswer });
      const outcome = await run({
        repo: fx.repo.path,
        directive: fx.directive,
        env: testEnv({ XDG_STATE_HOME: stateHome }),
        flags: modelFlags(server),
      });
      const { state } = outcome;
      expect(state.status).toBe('stable');
      const env = state.image!.env!;
      expect(env.ref).toMatch(/^hammer-box\/python-env:[0-9a-f]{12}$/);
      madeImages.add(env.id);
      await docker.getImage(env.id).remove();

      const cli = join(packageRoot(), 'dist', 'cli', 'main.js');
      const result = await promisify(execFile)(
        process.execPath,
        [cli, 'replay', state.run_id, '--repo', fx.repo.path],
        { env: testEnv({ XDG_STATE_HOME: stateHome }) },
      ).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
      );
      expect(result.code, result.stderr).toBe(3);
      expect(result.stderr).toContain('IMAGE_MISSING');
      expect(result.stderr).toContain(
        `the env image (the toolchain image plus the dependencies setup installed) this run used (${env.ref}, ${env.id.slice(0, 19)}) is gone`,
      );
      expect(result.stderr).toContain('cannot be reproduced in the same environment');
      expect(result.stderr).toMatch(/dependencies may resolve differently/);
      // the refusal ran no setup: the env image was not made again
      expect(await exists(env.ref)).toBe(false);
    } finally {
      await fx.cleanup();
    }
  }, 300_000);
});

describe('an --image built for another architecture', () => {
  it('is IMAGE_CONTRACT naming the image platform and the engine platform', async () => {
    const version = await docker.version();
    const foreign = version.Arch === 'arm64' ? 'amd64' : 'arm64';
    const ref = `hammer-box-test/foreign-arch:${randomBytes(4).toString('hex')}`;
    // no registry: build one for the foreign platform FROM scratch (one file, nothing to execute)
    const pack = tar.pack();
    pack.entry({ name: 'Dockerfile' }, 'FROM scratch\nCOPY hello.txt /hello.txt\n');
    pack.entry({ name: 'hello.txt' }, 'hello\n');
    pack.finalize();
    const stream = await docker.buildImage(Readable.from(pack, { objectMode: false }), {
      t: ref,
      platform: `linux/${foreign}`,
    });
    await new Promise<void>((resolve, reject) =>
      docker.modem.followProgress(stream, (err) => (err ? reject(err) : resolve())),
    );
    madeImages.add(ref);
    expect((await docker.getImage(ref).inspect()).Architecture).toBe(foreign);

    const repo = await createFixtureRepo({ files: { 'notes.txt': 'nothing to detect\n' } });
    const chatsBefore = server.chatRequests().length;
    try {
      const err = await rejection(
        run({
          repo: repo.path,
          directive: __filename,
          env: testEnv({ XDG_STATE_HOME: stateHome }),
          flags: { ...modelFlags(server), sandbox: { image: ref }, tools: { test_command: 'true' } },
        }),
      );
      expect(err).toBeInstanceOf(HammerError);
      const e = err as HammerError;
      expect(e.code).toBe('IMAGE_CONTRACT');
      expect(exitCodeFor(e.code)).toBe(3);
      expect(e.message).toBe(
        `the image ${ref} is built for linux/${foreign}, but the engine runs ${version.Os}/${version.Arch}`,
      );
      expect(e.hint).toContain(`--platform ${version.Os}/${version.Arch}`);
      expect(server.chatRequests()).toHaveLength(chatsBefore);
    } finally {
      await repo.cleanup();
    }
  }, 120_000);
});
