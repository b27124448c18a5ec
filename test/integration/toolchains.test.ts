// Every toolchain end to end (real engine, real git, scripted model server): python with a local
// package from requirements.txt installed into the env image's venv, go after `go mod download`
// (GOPROXY=off, -mod=readonly; the env image's warmed build cache serves a fresh sandbox) and rust
// after `cargo fetch` (offline, CARGO_HOME in the env image) each reach tests-pass in the
// network-less sandbox; a wrong --toolchain and an undetectable repository are clear USAGE errors.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/api/run.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { sandboxSpec } from '../../src/loop/sandbox-spec.js';
import { isHammerError } from '../../src/errors.js';
import { toolchainImage } from '../helpers/images.js';
import { createFixtureRepo } from '../helpers/fixture-repo.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { createToolchainFixture } from '../fixtures/toolchains/fixtures.js';
import { modelFlags, testEnv } from './run-support.js';
import { testEngine } from './sandbox-fixtures.js';

const docker = new Docker();
const { engine } = testEngine();
const made = new Set<string>();
let stateHome: string;
let server: ModelServer;

beforeAll(async () => {
  stateHome = await mkdtemp(join(tmpdir(), 'hb-state-'));
  server = await startModelServer({ script: [] });
});

afterAll(async () => {
  await server?.close();
  await rm(stateHome, { recursive: true, force: true });
  for (const id of made)
    await docker
      .getImage(id)
      .remove()
      .catch(() => undefined);
});

describe.each([
  ['python', 'python3 -m pytest -q', 'hammer-box/python-env:'],
  ['go', 'go test ./...', 'hammer-box/go-env:'],
  // the crate has no dependencies: setup installs nothing, so no env image is made
  ['rust', 'cargo test', null],
] as const)('%s: detected, set up once, fixed offline', (toolchain, testCommand, envPrefix) => {
  it(`reaches tests-pass with ${testCommand} in the env image`, async () => {
    await toolchainImage(toolchain);
    const fx = await createToolchainFixture(toolchain);
    const lines: string[] = [];
    try {
      server.enqueue({ answer: fx.fixAnswer });
      const outcome = await run({
        repo: fx.repo.path,
        directive: fx.directive,
        env: testEnv({ XDG_STATE_HOME: stateHome }),
        flags: modelFlags(server),
        onSetupOutput: (l) => lines.push(l),
      });
      const { state } = outcome;
      if (state.image?.env) made.add(state.image?.env.id);
      expect(
        state.status,
        `${state.reason_detail}\n${state.baseline?.stdout_tail}\n${state.baseline?.stderr_tail}\n${lines.join('\n')}`,
      ).toBe('stable');
      expect(state.reason).toBe('tests_pass');
      expect(state.baseline?.command).toBe(testCommand);
      expect(state.baseline?.exit_code).not.toBe(0);
      expect(state.iterations.at(-1)?.test?.exit_code).toBe(0);
      if (envPrefix === null) expect(state.image?.env).toBeNull();
      else expect(state.image?.env?.ref.startsWith(envPrefix)).toBe(true);
      if (toolchain === 'python') {
        // the local package came from requirements.txt into the venv, not from the repo's path
        expect(state.baseline?.stdout_tail).toContain('1 failed, 1 passed');
      }
      if (toolchain === 'go') await expectWarmGoBuildCache(state.image!.env!.id, fx.repo.path);
      if (toolchain === 'rust') {
        // CARGO_HOME is where `cargo fetch` puts crates, and cargo stays offline
        const env = (await docker.getImage(state.image!.id).inspect()).Config.Env;
        expect(env).toEqual(expect.arrayContaining(['CARGO_HOME=/opt/hammer/cargo', 'CARGO_NET_OFFLINE=true']));
      }
    } finally {
      await fx.cleanup();
    }
  }, 600_000);
});

/**
 * In a fresh hardened sandbox from the go env image (empty tmpfs GOCACHE), `go test` at the base
 * commit compiles only the repository's own package and its test main: the standard library comes
 * from the build cache setup warmed (never the repository's own packages), copied into GOCACHE by
 * the env image's go wrapper. A cold cache compiles the standard library too.
 */
async function expectWarmGoBuildCache(envImageId: string, repoPath: string): Promise<void> {
  const { config } = await resolveConfig({ env: {} });
  const sandbox = await engine.create(sandboxSpec(config, `test-gocache-${process.pid}`, envImageId));
  try {
    const files = await Promise.all(
      ['go.mod', 'calc.go', 'calc_test.go'].map(async (path) => ({
        path,
        content: await readFile(join(repoPath, path)),
      })),
    );
    await sandbox.putFiles(sandbox.workdir, files);
    // TMPDIR as the runner sets it (an exec-allowed directory in the workspace); the test output is the cache's verdict
    const r = await sandbox.exec(
      [
        'sh',
        '-c',
        'mkdir -p .git/t && TMPDIR=$PWD/.git/t go test -x ./... 2>&1; echo "entries=$(ls "$GOCACHE" | wc -l)"; command -v go',
      ],
      { timeoutMs: 120_000 },
    );
    const out = r.stdout.text;
    expect(out, out).toContain('Total([1 2 3]) = -6, want 6');
    // only the repository's own package and the test main compile: the standard library comes from the seed
    const compiles = out.split('\n').filter((l) => /\/compile /.test(l));
    expect(compiles.length, out).toBeLessThanOrEqual(2);
    for (const line of compiles) expect(line, out).toMatch(/ -p (example\.com\/calc|main) /);
    expect(Number(/entries=(\d+)/.exec(out)?.[1])).toBeGreaterThan(1);
    expect(out.trim().split('\n').at(-1)).toBe('/opt/hammer/bin/go');
  } finally {
    await sandbox.destroy();
  }
}

describe('toolchain errors', () => {
  it('an explicit --toolchain overrides detection (and the test command follows it)', async () => {
    await toolchainImage('python');
    const fx = await createToolchainFixture('go');
    try {
      server.enqueue({ answer: fx.fixAnswer });
      const outcome = await run({
        repo: fx.repo.path,
        directive: fx.directive,
        env: testEnv({ XDG_STATE_HOME: stateHome }),
        flags: { ...modelFlags(server, { maxIterations: 1 }), sandbox: { toolchain: 'python' } },
      });
      expect(outcome.state.baseline?.command).toBe('python3 -m pytest -q');
      expect(outcome.state.image?.toolchain?.ref).toMatch(/^hammer-box\/python:/);
      expect(outcome.state.image?.env).toBeNull();
    } finally {
      await fx.cleanup();
    }
  });

  it('a repository matching several toolchains is a USAGE error naming the files and the overrides', async () => {
    const repo = await createFixtureRepo({ files: { 'package.json': '{}\n', 'go.mod': 'module x\n' } });
    try {
      const err: unknown = await run({
        repo: repo.path,
        directive: __filename,
        env: testEnv({ XDG_STATE_HOME: stateHome }),
        flags: modelFlags(server),
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isHammerError(err, 'USAGE')).toBe(true);
      expect((err as Error).message).toContain('go (go.mod; no tests found)');
      expect((err as Error).message).toContain('node (package.json; no tests found)');
      expect((err as { hint: string }).hint).toContain('--toolchain');
    } finally {
      await repo.cleanup();
    }
  });
});
