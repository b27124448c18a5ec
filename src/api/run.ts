// The programmatic API behind `hammer-box run` and `replay`: resolve config, wire dependencies once, run.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { resolveConfig } from '../config/resolve.js';
import { type Config, ConfigSchema } from '../config/schema.js';
import { HammerError } from '../errors.js';
import { getToolchain } from '../images/index.js';
import { createProvider, type ModelProvider } from '../llm/index.js';
import { createLogger } from '../log.js';
import { ignoreEvents, type LoopEmitter } from '../loop/events.js';
import { resumeLoop } from '../loop/resume.js';
import { runLoop } from '../loop/run.js';
import type { RunOutcome } from '../loop/run-types.js';
import { createDockerClient, DockerSandboxEngine, pingEngine } from '../sandbox/index.js';
import { RunStore } from '../state/store.js';
import { imageId, resolveImage } from './resolve-image.js';

/** Everything `run` takes; `flags` are config keys set on the command line. */
export interface RunOptions {
  repo: string;
  directive: string;
  configFile?: string;
  flags?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  emit?: LoopEmitter;
  signal?: AbortSignal;
  logLevel?: string;
  /** Image build progress (first run only). */
  onImageProgress?: (line: string) => void;
  /** Replay: run with these recorded answers instead of a model server. */
  replayAnswers?: string[];
  /** The directive's text when it is not read from `directive` (replay uses the recorded text). */
  directiveText?: string;
  /** Replay: use exactly this image (id), refusing when it is gone. */
  pinnedImage?: { ref: string; id: string };
}

/** Run the loop on a repository; resolves with the final state (stable or failed), throws typed errors. */
export async function run(options: RunOptions): Promise<RunOutcome> {
  const env = options.env ?? process.env;
  const repo = resolve(options.repo);
  const directivePath = resolve(options.directive);
  const directiveText = options.directiveText ?? (await readDirective(directivePath));
  const { config } = await resolveConfig({ repo, env, ...(options.configFile ? { configFile: options.configFile } : {}), ...(options.flags ? { flags: options.flags } : {}) });
  const store = new RunStore({ dir: join(repo, config.state.dir) });
  const replayAnswers = options.replayAnswers ?? (config.model.provider === 'replay' ? await loadReplayAnswers(store, config.model.replay_run, repo) : undefined);
  const provider: ModelProvider = createProvider(config.model, { env, ...(replayAnswers ? { replayAnswers } : {}) });
  try {
    const docker = createDockerClient(env);
    await pingEngine(docker, options.signal);
    const engine = new DockerSandboxEngine({ docker });
    const sig = options.signal ? { signal: options.signal } : {};
    return await runLoop(
      { repoPath: repo, directivePath, directiveText, config, testCommand: testCommandFor(config) },
      {
        engine,
        resolveImage: async (signal) => {
          if (options.pinnedImage) return pinned(docker, options.pinnedImage);
          return resolveImage(docker, config, { ...(signal ? { signal } : {}), ...(options.onImageProgress ? { onProgress: options.onImageProgress } : {}) });
        },
        provider,
        store,
        loggerFor: (runId) => createLogger({ file: join(store.artifactsDir(runId), 'events.ndjson'), level: options.logLevel ?? 'info' }),
        emit: options.emit ?? ignoreEvents,
        now: () => new Date(),
        ...sig,
      },
    );
  } finally {
    await provider.close();
  }
}

/** Continue an interrupted or broken run of `repo` (see src/loop/resume.ts). */
export async function resume(options: { repo: string; runId: string; env?: NodeJS.ProcessEnv; emit?: LoopEmitter; signal?: AbortSignal; logLevel?: string }): Promise<RunOutcome> {
  const env = options.env ?? process.env;
  const repo = resolve(options.repo);
  const { config: current } = await resolveConfig({ repo, env });
  const store = new RunStore({ dir: join(repo, current.state.dir) });
  const old = await store.read(options.runId);
  const parsed = ConfigSchema.safeParse(old.config);
  if (!parsed.success) throw new HammerError('STATE_INVALID', `run ${options.runId}'s recorded config does not validate`);
  const config = parsed.data;
  const answers = config.model.provider === 'replay' ? await loadReplayAnswers(store, config.model.replay_run, repo) : undefined;
  const provider = createProvider(config.model, { env, ...(answers ? { replayAnswers: answers } : {}) });
  try {
    const docker = createDockerClient(env);
    await pingEngine(docker, options.signal);
    return await resumeLoop(
      options.runId,
      {
        engine: new DockerSandboxEngine({ docker }),
        resolveImage: () => pinned(docker, old.image),
        provider,
        store,
        loggerFor: (runId) => createLogger({ file: join(store.artifactsDir(runId), 'events.ndjson'), level: options.logLevel ?? 'info' }),
        emit: options.emit ?? ignoreEvents,
        now: () => new Date(),
        ...(options.signal ? { signal: options.signal } : {}),
      },
      testCommandFor,
    );
  } finally {
    await provider.close();
  }
}

/** The test command: [tools] test_command, else the toolchain's default. */
export function testCommandFor(config: Config): string {
  if (config.tools.test_command) return config.tools.test_command;
  return getToolchain(config.sandbox.toolchain).defaultTestCommand;
}

async function readDirective(path: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new HammerError('USAGE', `cannot read the directive file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, {
      hint: 'pass --directive <file> with a text file saying what to do',
    });
  }
  if (text.trim() === '') throw new HammerError('USAGE', `the directive file ${path} is empty`, { hint: 'write what the model should do into it' });
  return text;
}

/** Recorded answers: a run id of this repository, or a directory holding iter-NN-answer.md files. */
export async function loadReplayAnswers(store: RunStore, source: string, repo: string): Promise<string[]> {
  if (!source) {
    throw new HammerError('USAGE', 'the replay provider needs recorded answers', { hint: "use 'hammer-box replay <run_id>', or set [model] replay_run to a run id or a directory of iter-NN-answer.md files" });
  }
  const dir = resolve(repo, source);
  const isDir = await stat(dir).then((s) => s.isDirectory(), () => false);
  if (!isDir) return store.readReplayAnswers(source);
  const names = (await readdir(dir)).filter((n) => /^iter-\d+-answer\.md$/.test(n)).sort((a, b) => parseInt(a.slice(5), 10) - parseInt(b.slice(5), 10));
  if (names.length === 0) throw new HammerError('USAGE', `no iter-NN-answer.md files in ${dir}`);
  return Promise.all(names.map((n) => readFile(join(dir, n), 'utf8')));
}

async function pinned(docker: ReturnType<typeof createDockerClient>, img: { ref: string; id: string }): Promise<{ ref: string; id: string }> {
  const id = await imageId(docker, img.id);
  if (!id) {
    throw new HammerError('IMAGE_MISSING', `the image this run used (${img.ref}, ${img.id.slice(0, 19)}) is gone, so the run cannot be reproduced in the same environment`, {
      hint: `rebuild it with 'hammer-box images build' (an unchanged toolchain gets the same tag), or start a new run`,
    });
  }
  return { ref: img.id, id };
}
