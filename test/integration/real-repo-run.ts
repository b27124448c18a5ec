// One real-repository shape (test/fixtures/real-repos*.ts) run through the real binary with a
// scripted model and no --toolchain or --test-command, and its outcome checked: shared by the
// suites of shapes.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { DEFAULT_NODE_MAJOR, npmForNodeMajor } from '../../src/images/versions/node-releases.js';
import { packageRoot } from '../../src/paths.js';
import type { RunState } from '../../src/state/run-state.js';
import type { RealRepoShape } from '../fixtures/real-repos.js';
import { createFixtureRepo } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { readState, runIdsIn, testEnv } from './run-support.js';

const exec = promisify(execFile);

/** The package-lock.json npm makes for `packageJson` (the registry is reachable wherever the node image builds). */
export async function npmLockfile(packageJson: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hb-lock-'));
  try {
    await writeFile(join(dir, 'package.json'), packageJson);
    // written by the npm the node image carries: a lockfile the host's own npm wrote may be one
    // another npm refuses, which a fixture of its own covers
    const npm = `npm@${npmForNodeMajor(DEFAULT_NODE_MAJOR)}`;
    await exec('npx', ['--yes', npm, 'install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: dir,
      env: testEnv(),
      maxBuffer: 16 * 1024 * 1024,
    });
    return await readFile(join(dir, 'package-lock.json'), 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The version of a package hammer-box itself installed (a shape's dependency the registry surely has). */
export async function installedVersion(name: string): Promise<string> {
  const text = await readFile(join(packageRoot(), 'node_modules', name, 'package.json'), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

/**
 * Run `shape` through the CLI and check what its expectations say; `made` collects the env images
 * its run built (the suite removes them after).
 */
export async function runShape(shape: RealRepoShape, stateHome: string, made: Set<string>): Promise<RunState> {
  if (shape.expect.toolchain) await toolchainImage(shape.expect.toolchain);
  const files = shape.files(randomBytes(6).toString('hex'));
  if (shape.generate === 'npm-lockfile') files['package-lock.json'] = await npmLockfile(files['package.json']!);
  const repo = await createFixtureRepo({ files });
  const dir = await mkdtemp(join(tmpdir(), 'hb-directive-'));
  // a server of its own: answers a run did not ask for never reach the next shape
  const server: ModelServer = await startModelServer({ models: ['test-model'], script: [] });
  try {
    const directive = join(dir, 'DIRECTIVE.md');
    const config = join(dir, 'config.toml');
    await writeFile(directive, shape.directive);
    await writeFile(
      config,
      `[model]\nprovider = "ollama"\nurl = "${server.url}"\nname = "test-model"\nretries = 0\n[loop]\nmax_iterations = ${shape.maxIterations ?? 2}\n${shape.config ?? ''}`,
    );
    for (const a of shape.answers) server.enqueue({ answer: a });
    const cli = join(packageRoot(), 'dist', 'cli', 'main.js');
    const result = await exec(
      process.execPath,
      [cli, 'run', '--repo', repo.path, '--directive', directive, '--config', config],
      { env: testEnv({ XDG_STATE_HOME: stateHome, ...shape.env }), maxBuffer: 64 * 1024 * 1024 },
    ).catch((err: { stdout: string; stderr: string; code: number }) => err);
    const [runId] = await runIdsIn(repo.path);
    expect(runId, result.stderr.slice(-3000)).toBeDefined();
    const state = await readState(repo.path, runId!);
    if (state.image?.env) made.add(state.image.env.id);
    const why = `${state.reason_detail}\n${state.baseline?.stdout_tail}\n${state.baseline?.stderr_tail}\n${result.stderr.slice(-4000)}`;
    expect(state.status, why).toBe(shape.expect.status);
    expect(state.reason, why).toBe(shape.expect.reason);
    if (shape.expect.code) expect(state.errors.map((e) => e.code)).toContain(shape.expect.code);
    if (shape.expect.toolchain) expect(state.environment?.toolchain, why).toBe(shape.expect.toolchain);
    if (shape.expect.testCommand) expect(state.baseline?.command, why).toBe(shape.expect.testCommand);
    if (shape.expect.iterations !== undefined) expect(state.iterations.length, why).toBe(shape.expect.iterations);
    const output = `${result.stdout}\n${result.stderr}`;
    for (const text of shape.expect.output ?? [])
      if (typeof text === 'string') expect(output, why).toContain(text);
      else expect(output, why).toMatch(text);
    if (shape.expect.summary) {
      const summary = await readFile(join(state.artifacts_dir, 'PR_SUMMARY.md'), 'utf8');
      for (const text of shape.expect.summary)
        if (typeof text === 'string') expect(summary).toContain(text);
        else expect(summary).toMatch(text);
    }
    shape.expect.state?.(state, why);
    // the model is asked once an iteration, never when setup fails
    expect(server.chatRequests().length).toBe(state.iterations.length);
    return state;
  } finally {
    await server.close();
    await repo.cleanup();
    await rm(dir, { recursive: true, force: true });
  }
}
