// Reproducible environments over time, on the real engine: a built image carries its lock (what went
// into it) and a rebuild from that lock yields the same lock, or fails naming a version the archive no
// longer serves; an env image exported, removed and imported is the one the next run uses, with no
// setup; and `verify` reproduces a run's verdict in its recorded image, or says what changed when a
// test behaves differently now.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoImages } from '../../src/api/repo-images.js';
import { run } from '../../src/api/run.js';
import { verify } from '../../src/api/verify.js';
import { HammerError } from '../../src/errors.js';
import { exportImages, exportSet, importImages } from '../../src/images/archive.js';
import { bootstrapBase, ensureToolchainImage } from '../../src/images/index.js';
import { lockDigest, type ImageLock } from '../../src/images/lock.js';
import { lockOfLabels } from '../../src/images/lock-label.js';
import { packageRoot } from '../../src/paths.js';
import { createFixtureRepo } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { answerWith, createPythonFixture, FIX_PATCH } from '../helpers/python-fixture.js';
import { modelFlags, testEnv } from './run-support.js';

const exec = promisify(execFile);
const docker = new Docker();
const made = new Set<string>();
let dir: string;
let server: ModelServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hb-locks-'));
  server = await startModelServer({ script: [] });
});

afterAll(async () => {
  await server?.close();
  for (const ref of made)
    await docker
      .getImage(ref)
      .remove({ force: true })
      .catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const rejection = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('a toolchain image and its lock', () => {
  // a small build context of the toolchain image's shape (the pins step included), so the test
  // builds, removes and rebuilds an image of its own, never one another test uses
  const context = async (): Promise<string> => {
    const ctx = join(dir, 'context');
    await rm(ctx, { recursive: true, force: true });
    await exec('mkdir', ['-p', ctx]);
    await writeFile(
      join(ctx, 'Dockerfile'),
      `ARG BASE=hammer-box/base:trixie\nFROM \${BASE}\nARG HAMMER_APT_PINS=""\n# ${randomBytes(6).toString('hex')}\nRUN export DEBIAN_FRONTEND=noninteractive && apt-get update -qq && apt-get install -y -qq --no-install-recommends tree \\\n && if [ -n "$HAMMER_APT_PINS" ]; then apt-get install -y -qq --no-install-recommends --allow-downgrades $HAMMER_APT_PINS; fi \\\n && apt-get clean && rm -rf /var/lib/apt/lists/*\nUSER 10001:10001\n`,
    );
    return ctx;
  };

  it('is recorded when built; a rebuild from it yields the same lock; a version no longer served is named', async () => {
    await bootstrapBase(docker);
    const contextDir = await context();
    const lockStore = join(dir, 'locks');
    const first = await ensureToolchainImage(docker, 'python', { contextDir, lockStore });
    made.add(first.tag);
    expect(first.built).toBe(true);
    const lock = first.lock!;
    expect(lock).toMatchObject({
      kind: 'toolchain',
      key: first.tag.split(':')[1],
      from: { ref: 'hammer-box/base:trixie' },
    });
    expect(lock.debian.some((d) => d.startsWith('tree='))).toBe(true);
    expect(lock.debian.some((d) => d.startsWith('base-files='))).toBe(true);
    // the lock is in the image's labels, as `images show` reads it
    const cli = join(packageRoot(), 'dist', 'cli', 'main.js');
    const shown = JSON.parse(
      (
        await exec(process.execPath, [cli, 'images', 'show', first.tag, '--json'], {
          env: testEnv({ XDG_STATE_HOME: dir }),
        })
      ).stdout,
    ) as { digest: string; recorded: boolean };
    expect(shown).toMatchObject({ digest: lockDigest(lock), recorded: true });

    // gone from the engine, built again from its lock: the same lock
    await docker.getImage(first.tag).remove({ force: true });
    const again = await ensureToolchainImage(docker, 'python', { contextDir, lockStore, fromLock: lock });
    expect(again.built).toBe(true);
    expect(lockDigest(again.lock!)).toBe(lockDigest(lock));
    expect(again.drift).toEqual([]);

    // a lock naming a version the archive does not serve fails, naming it, and makes nothing
    await docker.getImage(first.tag).remove({ force: true });
    const stale = { ...lock, debian: lock.debian.map((d) => (d.startsWith('tree=') ? 'tree=0.0-hammer-gone' : d)) };
    const err = await rejection(ensureToolchainImage(docker, 'python', { contextDir, lockStore, fromLock: stale }));
    expect(err).toBeInstanceOf(HammerError);
    expect((err as HammerError).code).toBe('IMAGE_BUILD_FAILED');
    expect((err as HammerError).message).toContain('no longer serves tree=0.0-hammer-gone');
    expect(
      await docker
        .getImage(first.tag)
        .inspect()
        .catch(() => null),
    ).toBe(null);
  }, 600_000);
});

describe('an env image rebuilt from its lock', () => {
  it("holds pip to the lock's versions: the same lock, or SETUP_FAILED naming a version that is not there", async () => {
    await toolchainImage('python');
    const nonce = randomBytes(6).toString('hex');
    const repo = await createFixtureRepo({
      files: {
        'vendor/localpkg/pyproject.toml': `[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "localpkg"\nversion = "1.0"\ndescription = "${nonce}"\n`,
        'vendor/localpkg/localpkg/__init__.py': 'VALUE = 1\n',
        'test_value.py': 'import localpkg\n\n\ndef test_value():\n    assert localpkg.VALUE == 1\n',
      },
    });
    const configFile = join(dir, 'pip-pins.toml');
    // no index here: the package comes from the repository, as pip installs a path
    await writeFile(
      configFile,
      '[env]\nsetup_command = "python3 -m pip install --no-index --no-build-isolation ./vendor/localpkg"\n',
    );
    const env = testEnv({ XDG_STATE_HOME: dir });
    try {
      const first = await repoImages(docker, { repo: repo.path, configFile, env });
      expect(first.env, 'setup made an env image').not.toBeNull();
      made.add(first.env!.ref);
      const lock = first.lockObjects!.env!;
      expect(lock.packages).toContain('pypi localpkg 1.0');

      // gone, and set up again from its lock: the same lock
      await docker.getImage(first.env!.ref).remove({ force: true });
      const again = await repoImages(docker, { repo: repo.path, configFile, env, envLock: lock });
      expect(again.env?.ref).toBe(first.env!.ref);
      expect(lockDigest(again.lockObjects!.env!)).toBe(lockDigest(lock));

      // a lock holding a version that is not there: setup fails naming it, and makes nothing
      await docker.getImage(first.env!.ref).remove({ force: true });
      const stale: ImageLock = {
        ...lock,
        packages: lock.packages.map((p) => (p === 'pypi localpkg 1.0' ? 'pypi localpkg 2.0' : p)),
      };
      const err = await rejection(repoImages(docker, { repo: repo.path, configFile, env, envLock: stale }));
      expect(err).toBeInstanceOf(HammerError);
      expect((err as HammerError).code).toBe('SETUP_FAILED');
      expect((err as HammerError).message).toContain('localpkg');
      expect(
        await docker
          .getImage(first.env!.ref)
          .inspect()
          .catch(() => null),
      ).toBe(null);
    } finally {
      await repo.cleanup();
    }
  }, 600_000);
});

describe('an env image as an artifact', () => {
  it('exported, removed and imported, it is what the next run uses: no setup, the same image and lock', async () => {
    await toolchainImage('node');
    const repo = await createFixtureRepo({
      files: {
        'package.json': `${JSON.stringify({ name: 'calc', version: '1.0.0', private: true, description: randomBytes(6).toString('hex'), scripts: { test: 'node --test' }, dependencies: { 'is-number': '7.0.0' } }, null, 2)}\n`,
        'package-lock.json': `${JSON.stringify({ name: 'calc', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'calc', version: '1.0.0', dependencies: { 'is-number': '7.0.0' } }, 'node_modules/is-number': { version: '7.0.0', integrity: 'sha512-41Cifkg6e8TylSpdtTpeLVMqvSBEVzTttHvERD741+pnZ8ANv0004MRL43QKPDlK9cGvNp6NZWZUBlbGXYxxng==', license: 'MIT', engines: { node: '>=0.12.0' } } } }, null, 2)}\n`,
        'calc.js': "const isNumber = require('is-number');\nexports.ok = () => isNumber(1);\n",
        'calc.test.js':
          "const test = require('node:test');\nconst assert = require('node:assert');\ntest('ok', () => assert.ok(require('./calc').ok()));\n",
      },
    });
    const env = testEnv({ XDG_STATE_HOME: dir });
    try {
      const go = async (): Promise<{ setups: number; state: Awaited<ReturnType<typeof run>>['state'] }> => {
        let setups = 0;
        const outcome = await run({
          repo: repo.path,
          directiveText: 'Keep the tests passing.\n',
          env,
          flags: modelFlags(server, { maxIterations: 1 }),
          onSetupStart: () => void setups++,
        });
        return { setups, state: outcome.state };
      };
      server.enqueue({ answer: 'NO_CHANGES' });
      const first = await go();
      expect(first.setups).toBe(1);
      const envImage = first.state.image!.env!;
      made.add(envImage.ref);
      const lock = lockOfLabels((await docker.getImage(envImage.id).inspect()).Config.Labels ?? {});
      expect(lock?.packages).toContain('npm is-number 7.0.0');
      expect(first.state.image!.locks?.env).toBe(lockDigest(lock!));

      const archive = join(dir, 'images.tar');
      const set = await exportSet(docker, [envImage.ref]);
      expect(set.map((i) => i.tag)).toEqual([
        envImage.ref,
        first.state.image!.toolchain!.ref,
        'hammer-box/base:trixie',
      ]);
      await exportImages(docker, set, archive);
      await docker.getImage(envImage.ref).remove({ force: true });
      const report = await importImages(docker, archive, { lockStore: join(dir, 'locks') });
      expect(report.images.map((i) => i.tag)).toContain(envImage.ref);
      expect(report.drift).toEqual([]);

      server.enqueue({ answer: 'NO_CHANGES' });
      const second = await go();
      expect(second.setups).toBe(0);
      expect(second.state.image!.env!.id).toBe(envImage.id);
      expect(second.state.image!.locks?.env).toBe(lockDigest(lock!));
    } finally {
      await repo.cleanup();
    }
  }, 600_000);

  it('refuses an archive that is not a consistent set of hammer-box images, loading nothing', async () => {
    // an image under a tag that is not hammer-box's (what a poisoned cache could carry)
    const foreign = `hammer-box-test/foreign:${randomBytes(4).toString('hex')}`;
    await docker.getImage('hammer-box/base:trixie').tag({ repo: foreign.split(':')[0]!, tag: foreign.split(':')[1]! });
    made.add(foreign);
    const archive = join(dir, 'foreign.tar');
    await exportImages(docker, [{ tag: foreign, id: '', lock: null }], archive);
    await docker.getImage(foreign).remove();
    const err = await rejection(importImages(docker, archive));
    expect((err as HammerError).code).toBe('IMAGE_IMPORT');
    expect((err as HammerError).message).toContain(`${foreign} is not a hammer-box image`);
    expect(
      await docker
        .getImage(foreign)
        .inspect()
        .catch(() => null),
    ).toBe(null);
    const junk = join(dir, 'junk.tar');
    await writeFile(junk, 'not an archive');
    expect(((await rejection(importImages(docker, junk))) as HammerError).code).toBe('IMAGE_IMPORT');
  }, 300_000);
});

describe('verify', () => {
  it("reproduces a run's verdict, and says what changed when a test behaves differently now", async () => {
    const fx = await createPythonFixture({
      // a test that fails when the sandbox's environment says so: flaky from one run to the next
      'test_env.py': 'import os\n\n\ndef test_steady():\n    assert os.environ.get("HAMMER_TEST_FLAKY") != "1"\n',
    });
    const env = testEnv({ XDG_STATE_HOME: dir });
    try {
      server.enqueue({ answer: answerWith(FIX_PATCH) });
      const outcome = await run({ repo: fx.repo.path, directive: fx.directive, env, flags: modelFlags(server) });
      expect(outcome.state.status).toBe('stable');
      const chats = server.chatRequests().length;

      const same = await verify({ repo: fx.repo.path, target: outcome.state.run_id, env, flags: modelFlags(server) });
      expect(same).toMatchObject({ run_id: outcome.state.run_id, reproduced: true, differences: [] });
      expect(same.image).toMatchObject({ id: outcome.state.image!.id, how: 'recorded' });
      // the recorded answers, never the model; and no branch besides the run's own
      expect(server.chatRequests()).toHaveLength(chats);
      const branches = await fx.repo.git(['branch', '--list', '--format=%(refname:short)']);
      expect(branches.split('\n').filter((b) => b !== 'main' && b !== '')).toEqual([outcome.state.branch!.name]);

      // by the branch it delivered, through the CLI: exit 1 and the test named when it changed
      const config = join(dir, 'flaky.toml');
      await writeFile(
        config,
        `[model]\nprovider = "ollama"\nurl = "${server.url}"\nname = "test-model"\nretries = 0\n[sandbox]\nenv = { HAMMER_TEST_FLAKY = "1" }\n`,
      );
      const cli = join(packageRoot(), 'dist', 'cli', 'main.js');
      const changed = await exec(
        process.execPath,
        [cli, 'verify', outcome.state.branch!.name, '--repo', fx.repo.path, '--config', config, '--json', '--quiet'],
        { env },
      ).then(
        (r) => ({ code: 0, stdout: r.stdout }),
        (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
      );
      expect(changed.code).toBe(1);
      const report = JSON.parse(changed.stdout) as { reproduced: boolean; differences: string[] };
      expect(report.reproduced).toBe(false);
      expect(report.differences.join('\n')).toContain('test_env.py::test_steady');
      // the summary names the command
      const summary = await readFile(outcome.summaryPath!, 'utf8');
      expect(summary).toContain(`hammer-box verify ${outcome.state.run_id}`);
    } finally {
      await fx.cleanup();
    }
  }, 600_000);
});
