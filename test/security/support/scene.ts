// One hostile `hammer-box run` through the built CLI: a fixture repository, a scripted model
// server, a canary planted on the host, and everything the run left behind, ready to be checked.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import {
  diffSnapshots,
  snapshotRepo,
  tempDir,
  type FixtureFile,
  type RepoSnapshot,
} from '../../helpers/fixture-repo.js';
import { startModelServer, type ModelServer, type Script } from '../../helpers/model-server.js';
import { createPythonFixture, type PythonFixture } from '../../helpers/python-fixture.js';
import { leftovers, readState, runIdsIn, testEnv } from '../../integration/run-support.js';
import { createDockerClient } from '../../../src/sandbox/index.js';
import { RunStateSchema, type RunState } from '../../../src/state/run-state.js';
import { unsealedBody } from '../../../src/state/state-mac.js';
import { filesUnder, plantCanary, type Canary } from './canary.js';
import { runCli, startCli, type CliProcess, type CliResult } from './cli.js';

/** What a scene is built from. */
export interface SceneOptions {
  /** Files added to (or replacing) the Python fixture's first commit. */
  files?: Record<string, FixtureFile>;
  /** The model's answers, in order. */
  answers: Script[];
  /** The test command; the canary probe runs before it (its verdict on stderr). */
  testCommand?: string;
  /** Extra TOML for a --config file (the model URL and name are always set). */
  config?: string;
  /** Extra keys of the [model] table (e.g. timeouts). */
  modelConfig?: string;
  maxIterations?: number;
  testTimeout?: number;
  /** Extra environment for the CLI (HAMMER_* settings override the config file). */
  env?: Record<string, string>;
}

/** A prepared scene: start it with run() or start(). */
export interface Scene {
  fx: PythonFixture;
  server: ModelServer;
  canary: Canary;
  /** The repository before the run (retake it after planting things in the repository). */
  before: RepoSnapshot;
  args: string[];
  /** The --config file the run was started with (resume and replay take the model from it too). */
  configFile: string;
  env: NodeJS.ProcessEnv;
  run(): Promise<CliResult>;
  start(): CliProcess;
  cleanup(): Promise<void>;
}

/** What a finished run left. */
export interface Outcome {
  result: CliResult;
  runId: string;
  state: RunState;
  summary: string;
}

let defaultRuntime: Promise<string> | undefined;

/**
 * The OCI runtime every scene's sandbox uses: HAMMER_TEST_RUNTIME (`make security RUNTIME=runsc` runs
 * the suite under gVisor), else the engine's default runtime, named explicitly: the attacks meet the
 * weaker, shared-kernel sandbox even when the engine offers gVisor (which "auto" would pick).
 */
export function sceneRuntime(): Promise<string> {
  const named = process.env['HAMMER_TEST_RUNTIME'];
  if (named) return Promise.resolve(named);
  defaultRuntime ??= createDockerClient()
    .info()
    .then((info: { DefaultRuntime?: string }) => info.DefaultRuntime || 'runc');
  return defaultRuntime;
}

/** Build the fixture, the server and the canary. */
export async function createScene(opts: SceneOptions): Promise<Scene> {
  const canary = await plantCanary();
  const fx = await createPythonFixture(opts.files ?? {});
  const server = await startModelServer({ models: ['test-model'], script: opts.answers });
  const confDir = await tempDir('hb-config-');
  const config = join(confDir, 'config.toml');
  await writeFile(
    config,
    `[model]\nprovider = "ollama"\nurl = "${server.url}"\nname = "test-model"\nretries = 0\n${opts.modelConfig ?? ''}` +
      `[loop]\nmax_iterations = ${opts.maxIterations ?? 2}\nmax_unusable_answers = 50\n` +
      `[tools]\ntest_timeout = ${opts.testTimeout ?? 120}\n` +
      // a scene's test timeout holds from the first baseline on (a run gives that one more by default)
      (opts.testTimeout === undefined ? '' : `baseline_timeout = ${opts.testTimeout}\n`) +
      (opts.config ?? ''),
  );
  const command = `{ ${canary.probe()}; } >&2; ${opts.testCommand ?? 'python3 -m pytest -q'}`;
  const args = [
    'run',
    '--repo',
    fx.repo.path,
    '--directive',
    fx.directive,
    '--config',
    config,
    '--test-command',
    command,
  ];
  const env = testEnv({ HAMMER_RUNTIME: await sceneRuntime(), ...opts.env });
  const before = await snapshotRepo(fx.repo.path);
  return {
    fx,
    server,
    canary,
    before,
    args,
    configFile: config,
    env,
    run: () => runCli(args, env),
    start: () => startCli(args, env),
    cleanup: async () => {
      await server.close();
      await fx.cleanup();
      await canary.remove();
      await rm(confDir, { recursive: true, force: true });
    },
  };
}

/** The newest run's state as the file holds it now, or null (it must parse whenever it exists). */
export async function stateNow(scene: Scene): Promise<RunState | null> {
  const id = (await runIdsIn(scene.fx.repo.path)).sort().at(-1);
  if (!id) return null;
  const text = await readFile(join(scene.fx.repo.path, '.hammer', 'runs', `${id}.json`), 'utf8').catch(() => null);
  return text === null ? null : RunStateSchema.parse(JSON.parse(unsealedBody(text)));
}

/** Read what the (only or newest) run of the scene left. */
export async function outcomeOf(scene: Scene, result: CliResult): Promise<Outcome> {
  const ids = (await runIdsIn(scene.fx.repo.path)).sort();
  const runId = ids.at(-1);
  if (!runId) throw new Error(`no run state was written; the CLI said: ${result.stderr.slice(-2000)}`);
  const state = await readState(scene.fx.repo.path, runId);
  const summary = await readFile(join(scene.fx.repo.path, '.hammer', 'runs', runId, 'PR_SUMMARY.md'), 'utf8').catch(
    () => '',
  );
  return { result, runId, state, summary };
}

/** Run the scene to its end and read what it left. */
export async function runScene(scene: Scene): Promise<Outcome> {
  return outcomeOf(scene, await scene.run());
}

/**
 * The canary checks every attack ends with: the file untouched; neither value in the run's files,
 * the prompts the model was sent, or the terminal; the in-sandbox probe ran and found nothing.
 * Returns a short note for the table.
 */
export async function expectCanarySafe(
  scene: Scene,
  out: Outcome | { result: CliResult },
  probes: 'ran' | 'not-run' = 'ran',
): Promise<string> {
  expect(await scene.canary.untouched(), 'the host canary file changed').toBe(true);
  const runFiles = await filesUnder(join(scene.fx.repo.path, '.hammer'));
  const hits = scene.canary.hits({
    ...Object.fromEntries(Object.entries(runFiles).map(([k, v]) => [`run file ${k}`, v])),
    prompts: JSON.stringify(scene.server.requests),
    'terminal stdout': out.result.stdout,
    'terminal stderr': out.result.stderr,
  });
  expect(hits).toEqual([]);
  if (probes === 'ran') {
    const texts = Object.values(runFiles)
      .map((b) => b.toString('utf8'))
      .join('\n');
    expect(texts, 'the in-sandbox canary probe never reported').toContain('CANARY_ABSENT');
    expect(texts).not.toContain('CANARY_FOUND');
  }
  return 'canary untouched, absent from sandbox, prompts, run files and terminal';
}

/** The user's repository is byte-identical except for .hammer and new EngineerExternal/ branches; returns the new branches. */
export async function expectRepoIntact(scene: Scene): Promise<string[]> {
  const d = diffSnapshots(scene.before, await snapshotRepo(scene.fx.repo.path));
  const ours = (p: string): boolean => /^(\.hammer|\.git\/refs\/heads\/EngineerExternal)(\/|$)/.test(p);
  expect(d.removed).toEqual([]);
  expect(d.changed.filter((p) => !ours(p) && p !== '.git/refs/heads' && p !== '.git/refs')).toEqual([]);
  expect(d.added.filter((p) => !ours(p))).toEqual([]);
  return d.added.filter(
    (p) => p.startsWith('.git/refs/heads/EngineerExternal/') && !d.added.some((q) => q.startsWith(`${p}/`)),
  );
}

/** No container or volume of the run is left on the engine. */
export async function expectNoLeftovers(runId: string): Promise<void> {
  expect(await leftovers(runId)).toEqual({ containers: [], volumes: [] });
}
