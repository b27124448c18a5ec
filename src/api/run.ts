// The programmatic API behind `hammer-box run` and `replay`: resolve config, wire dependencies once, run.
import type Dockerode from 'dockerode';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { resolveConfig } from '../config/resolve.js';
import type { Config } from '../config/schema.js';
import { HammerError } from '../errors.js';
import { resolveUserRepo, userIdentity } from '../git/index.js';
import { uncommittedLine, uncommittedWork } from '../git/uncommitted.js';
import { getToolchain } from '../images/index.js';
import { imageUsagePath, recordImageUsage } from '../images/usage.js';
import { packageRoot } from '../paths.js';
import type { ModelProvider, RecordedAnswer } from '../llm/index.js';
import { lazyProvider } from './lazy-provider.js';
import { limitedProvider, type ModelLimiter } from './limited-provider.js';
import { createLogger } from '../log.js';
import { ignoreEvents, type LoopEmitter } from '../loop/events.js';
import { assertResumable, resumeLoop, type ModelOverrides } from '../loop/resume.js';
import { onlyReportLeft } from '../loop/resumable.js';
import { faultClock } from '../loop/fault.js';
import { artifactNames } from '../state/artifact-names.js';
import type { ImageLock } from '../images/lock.js';
import { reportOnly, runLoop } from '../loop/run.js';
import type { RunOutcome } from '../loop/run-types.js';
// the engine client (dockerode and its gRPC stack, ~200 ms to load) is imported when a run starts,
// so loading it overlaps the git work that comes first instead of delaying everything
export const sandboxLib = (): Promise<typeof import('../sandbox/index.js')> => import('../sandbox/index.js');
import type { RunState } from '../state/run-state.js';
import type { RunStore } from '../state/store.js';
import { checkDirectiveSize, readDirective } from './directive.js';
import { readRepoEnvironment, type RepoEnvironment } from './repo-environment.js';
import { resolveResumeConfig } from './resume-config.js';
import { assertStateUntracked, openRunStore } from './run-store.js';
import { assertEngineArchitecture, resolveImage, type ImageProgress, type RunImages } from './resolve-image.js';
import { inspectImage } from '../images/engine.js';
import { describeRepoBase, withLaterNotice, withStartNotices } from './engine-notices.js';
import { checkGuarantees, openEngine } from './open-engine.js';
import type { ProofStore } from '../sandbox/kubernetes/network-proof.js';
import type { SetupStepRecord } from '../images/setup-failure.js';
import { prSummaryText } from '../report/summary-text.js';

/** Everything `run` takes; `flags` are config keys set on the command line. */
export interface RunOptions {
  repo: string;
  /** The directive file, read here; with `directiveText`, only a label for where that text came from, recorded as is. */
  directive?: string;
  configFile?: string;
  flags?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  emit?: LoopEmitter;
  signal?: AbortSignal;
  logLevel?: string;
  /** Say which engine the run uses and why (a notice after the run started). */
  verbose?: boolean;
  /** Image build progress (first run only). */
  onImageProgress?: (line: string) => void;
  /** Dependency setup: called when it starts (never when the env image exists) and with each line it prints (default: onImageProgress). */
  onSetupStart?: ImageProgress['onSetupStart'];
  onSetupOutput?: ImageProgress['onSetupOutput'];
  /** Replay: run with these recorded answers instead of a model server. */
  replayAnswers?: readonly RecordedAnswer[];
  /** Each model request waits for this (a batch caps the requests its runs have in flight). */
  limitModel?: ModelLimiter;
  /** Where Kubernetes network proofs are kept (a batch shares one store between its attempts: one probe at a time). */
  networkProofs?: ProofStore;
  /** The directive's text when it is not read from a file (-m, stdin; replay uses the recorded text). */
  directiveText?: string;
  /** The directive is a plan: `directive` is the plan file (read as a directive is), or `directiveText` its recorded text. */
  plan?: boolean;
  /**
   * Replay: the run being reproduced. Its reproducibility keys are kept (see resume-config.ts);
   * everything that decides trust comes from the current configuration.
   */
  recorded?: Pick<RunState, 'config' | 'run_id'>;
  /** Replay: use exactly this image (id), refusing when it is gone; the toolchain and env images it recorded are carried over. */
  pinnedImage?: {
    ref: string;
    id: string;
    toolchain?: { ref: string; id: string } | null;
    env?: { ref: string; id: string } | null;
    toolchain_version?: RunImages['toolchain_version'];
    locks?: RunImages['locks'];
  };
  /** False: deliver no branch (`verify`). */
  deliver?: boolean;
}

/** Run the loop on a repository; resolves with the final state (stable or failed), throws typed errors. */
export async function run(options: RunOptions): Promise<RunOutcome> {
  const engineLib = sandboxLib();
  engineLib.catch(() => undefined);
  const env = options.env ?? process.env;
  const repo = resolve(options.repo);
  const sources = {
    repo,
    env,
    ...(options.configFile ? { configFile: options.configFile } : {}),
    ...(options.flags ? { flags: options.flags } : {}),
  };
  const resolved = options.recorded
    ? await resolveResumeConfig({ ...sources, recorded: options.recorded })
    : await resolveConfig(sources);
  // the engine is reached (ping, info) while the repository is read; its failure counts only once
  // the repository checks passed, so a bad repository is still reported as that (and stops it)
  const opening = new AbortController();
  const opened = openEngine(
    env,
    resolved.config,
    options.verbose === true,
    options.signal ? AbortSignal.any([options.signal, opening.signal]) : opening.signal,
    options.networkProofs,
  );
  opened.catch(() => undefined);
  try {
    return await runOpened(options, resolved, env, repo, opened);
  } finally {
    opening.abort();
  }
}

/** `run` once the configuration is resolved and the engine is being reached. */
async function runOpened(
  options: RunOptions,
  resolved: Awaited<ReturnType<typeof resolveConfig>>,
  env: NodeJS.ProcessEnv,
  repo: string,
  opened: ReturnType<typeof openEngine>,
): Promise<RunOutcome> {
  const { path: directivePath, text: directiveText } = await directiveOf(
    options,
    resolved.config.prompt.directive_max_bytes,
  );
  // the toolchain: named (flag, config file, environment, or the replayed run's config), else
  // detected from the base commit's tree; the recorded config carries the one used
  const toolchainExplicit =
    resolved.sources.get('sandbox.toolchain') !== join(packageRoot(), 'configs', 'default.toml');
  const repoEnv = await readRepoEnvironment(repo, resolved.config, {
    toolchainExplicit,
    directive: directiveText,
    keep: true,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  try {
    return await runWithEnvironment(options, resolved, env, repo, opened, directivePath, directiveText, repoEnv);
  } finally {
    // the run's prepare took it over (and disposes it); here only when the run stopped before that
    await repoEnv.workbench?.dispose();
  }
}

/** `run` once the repository's environment is read (its workbench kept for prepare). */
async function runWithEnvironment(
  options: RunOptions,
  resolved: Awaited<ReturnType<typeof resolveConfig>>,
  env: NodeJS.ProcessEnv,
  repo: string,
  opened: ReturnType<typeof openEngine>,
  directivePath: string,
  directiveText: string,
  repoEnv: RepoEnvironment,
): Promise<RunOutcome> {
  // the recorded config carries the toolchain and test command the run uses, so resume and replay
  // take the same (a project below the root runs its tests in its directory)
  const config: Config = {
    ...resolved.config,
    sandbox: { ...resolved.config.sandbox, toolchain: repoEnv.toolchain ?? resolved.config.sandbox.toolchain },
    tools: { ...resolved.config.tools, test_command: repoEnv.testCommand },
  };
  // refused before anything is written: runs are never taken from the repository's tree
  await assertStateUntracked(repo, repoEnv.userRepo, config, repoEnv.userRepo.baseCommit, options.signal);
  const store = await openRunStore(repo, config, env);
  const replayAnswers =
    options.replayAnswers ??
    (config.model.provider === 'replay' ? await loadReplayAnswers(store, config.model.replay_run, repo) : undefined);
  const lazy = lazyProvider(config.model, { env, ...(replayAnswers ? { replayAnswers } : {}) });
  const provider: ModelProvider = options.limitModel ? limitedProvider(lazy, options.limitModel) : lazy;
  const author = config.git.author === 'user' ? await userIdentity(env, options.signal) : null;
  // what of the checkout the run leaves out (a replay starts from its recorded commit: nothing to say)
  const leftOut = options.recorded
    ? Promise.resolve(null)
    : uncommittedWork(repoEnv.userRepo, options.signal, env).catch(() => null);
  try {
    const { docker, engine, info, notices } = await opened;
    const sig = options.signal ? { signal: options.signal } : {};
    let images: RunImages | undefined;
    let setupSteps: SetupStepRecord[] = [];
    let started: { id: string; at: string } | undefined;
    let usage: Promise<void> | undefined;
    const emit = withLaterNotice(
      withStartNotices(options.emit ?? ignoreEvents, notices),
      leftOut.then((work) => uncommittedLine(work, describeRepoBase(repoEnv.userRepo))),
    );
    const imageOptions = (signal: AbortSignal | undefined, forEnv: RepoEnvironment) => ({
      repoEnv: forEnv,
      env,
      ...(signal ? { signal } : {}),
      ...(options.onImageProgress ? { onProgress: options.onImageProgress } : {}),
      // setup's output goes where image build output goes (stderr in the CLI) unless asked otherwise
      onSetupStart: (tag: string) =>
        (
          options.onSetupStart ??
          ((t: string) => options.onImageProgress?.(`installing dependencies into ${t} (once; later runs reuse it)`))
        )(tag),
      onSetupSteps: (steps: SetupStepRecord[]) => void (setupSteps = steps),
      ...((options.onSetupOutput ?? options.onImageProgress)
        ? { onSetupOutput: options.onSetupOutput ?? options.onImageProgress }
        : {}),
      engineArchitecture: info.architecture,
      // what went into the images, beside the state that holds their digests
      onLocks: (locks: ImageLock[]) =>
        void (
          started &&
          store
            .writeArtifact(started.id, artifactNames.imageLocks(), `${JSON.stringify(locks, null, 2)}\n`)
            .catch(() => undefined)
        ),
      onWarning: (text: string) =>
        started &&
        emit({
          type: 'notice',
          run_id: started.id,
          at: clock(env)().toISOString(),
          level: 'warning',
          text,
        }),
    });
    const alternatives = options.pinnedImage
      ? []
      : repoEnv.alternatives.flatMap((alt) =>
          alt.toolchain === null
            ? []
            : [
                {
                  toolchain: alt.toolchain,
                  testCommand: alt.testCommand,
                  environment: alt.environment,
                  resolveImage: (signal?: AbortSignal) =>
                    resolveImage(
                      docker,
                      { ...config, sandbox: { ...config.sandbox, toolchain: alt.toolchain! } },
                      imageOptions(signal, alt),
                    ),
                },
              ],
        );
    try {
      return await runLoop(
        {
          repoPath: repo,
          directivePath,
          directiveText,
          ...(options.plan ? { directiveKind: 'plan' as const } : {}),
          config,
          testCommand: repoEnv.testCommand,
          userRepo: repoEnv.userRepo,
          ...(repoEnv.workbench ? { workbench: repoEnv.workbench } : {}),
          environment: repoEnv.environment,
          ...(options.configFile ? { configFile: resolve(options.configFile) } : {}),
          ...(options.deliver === false ? { deliver: false } : {}),
          ...(author ? { author } : {}),
        },
        {
          engine,
          resolveImage: async (signal) => {
            images = options.pinnedImage
              ? await pinned(docker, options.pinnedImage)
              : await resolveImage(docker, config, imageOptions(signal, repoEnv));
            // before the sandbox exists: a backend that cannot prove "no network" is refused here
            const warning = await checkGuarantees(engine, config, images.ref, signal);
            if (warning && started)
              emit({
                type: 'notice',
                run_id: started.id,
                at: clock(env)().toISOString(),
                level: 'warning',
                text: warning,
              });
            return images;
          },
          ...(alternatives.length > 0 ? { alternatives } : {}),
          setupSteps: () => setupSteps.map((s) => ({ n: s.n, name: s.name, outcome: s.outcome, kind: s.kind })),
          provider,
          store,
          loggerFor: (runId) =>
            createLogger({ file: join(store.artifactsDir(runId), 'events.ndjson'), level: options.logLevel ?? 'info' }),
          emit: (event) => {
            // which runs used which image: for `images list` and `images prune` (the image is known
            // once the setup phase is done, after the run started)
            if (event.type === 'run_started') started = { id: event.run_id, at: event.at };
            if (!usage && images && started) {
              const ids = [images.id, images.toolchain?.id, images.env?.id].filter((i): i is string => !!i);
              usage = recordImageUsage(imageUsagePath(env), {
                ids,
                runId: started.id,
                repo,
                at: new Date(started.at),
              }).catch(() => undefined);
            }
            emit(event);
          },
          now: clock(env),
          renderSummary: prSummaryText,
          ...sig,
        },
      );
    } finally {
      await usage;
    }
  } finally {
    await provider.close();
  }
}

/** What `resume` takes: the run, and the same configuration sources as `run` (see resume-config.ts). */
export interface ResumeOptions {
  repo: string;
  runId: string;
  configFile?: string;
  /** Config keys set on the command line (the highest layer). */
  flags?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  emit?: LoopEmitter;
  signal?: AbortSignal;
  logLevel?: string;
  /** A different model server, model or provider for the rest of the run (the highest layer; recorded in the state). */
  model?: ModelOverrides;
  /** Say which engine the run uses and why (a notice after the run started). */
  verbose?: boolean;
}

/**
 * Continue an interrupted or broken run of `repo` (see src/loop/resume.ts). Only a state file
 * sealed under the user's key is resumed, and its configuration is the current user's.
 */
export async function resume(options: ResumeOptions): Promise<RunOutcome> {
  const env = options.env ?? process.env;
  const repo = resolve(options.repo);
  const sources = {
    repo,
    env,
    ...(options.configFile ? { configFile: options.configFile } : {}),
    ...(options.flags ? { flags: options.flags } : {}),
  };
  const { config: current } = await resolveConfig(sources);
  const store = await openRunStore(repo, current, env);
  const found = await store.read(options.runId);
  // refuse before anything is started: an ended or live run needs no engine and no model
  assertResumable(found);
  const old: RunState = { ...found, artifacts_dir: store.artifactsDir(found.run_id) };
  const loggerFor = (runId: string) =>
    createLogger({ file: join(store.artifactsDir(runId), 'events.ndjson'), level: options.logLevel ?? 'info' });
  // a run that ended but was stopped before its report needs neither engine nor model
  if (onlyReportLeft(old)) {
    return reportOnly(old, {
      store,
      emit: options.emit ?? ignoreEvents,
      now: clock(env),
      loggerFor,
      renderSummary: prSummaryText,
    });
  }
  const overrides = options.model ?? {};
  const { config } = await resolveResumeConfig({ ...sources, recorded: old, model: overrides });
  checkDirectiveSize(old.directive.text, config.prompt.directive_max_bytes, `of run ${old.run_id}`);
  const sig = options.signal ? { signal: options.signal } : {};
  // the run continues in this repository, from its recorded base commit, and nothing is written
  // before the base is checked
  const userRepo = await resolveUserRepo(repo, old.repo.base_commit, sig);
  await assertStateUntracked(repo, userRepo, config, userRepo.baseCommit, options.signal);
  const answers =
    config.model.provider === 'replay' ? await loadReplayAnswers(store, config.model.replay_run, repo) : undefined;
  const provider = lazyProvider(config.model, { env, ...(answers ? { replayAnswers: answers } : {}) });
  const author = config.git.author === 'user' ? await userIdentity(env, options.signal) : null;
  try {
    const { docker, engine, notices } = await openEngine(env, config, options.verbose === true, options.signal);
    return await resumeLoop(
      old,
      {
        repoPath: repo,
        directivePath: old.directive.path,
        directiveText: old.directive.text,
        config,
        // the recorded test command (a project below the root runs its tests in its directory)
        testCommand: testCommandFor(config),
        userRepo,
        ...(options.configFile ? { configFile: resolve(options.configFile) } : {}),
        ...(author ? { author } : {}),
      },
      {
        engine,
        resolveImage: async (signal) => {
          const images = await pinned(docker, recordedImage(old));
          const warning = await checkGuarantees(engine, config, images.ref, signal);
          if (warning)
            (options.emit ?? ignoreEvents)({
              type: 'notice',
              run_id: old.run_id,
              at: clock(env)().toISOString(),
              level: 'warning',
              text: warning,
            });
          return images;
        },
        provider,
        store,
        loggerFor,
        emit: withStartNotices(options.emit ?? ignoreEvents, notices),
        now: clock(env),
        renderSummary: prSummaryText,
        ...sig,
      },
      overrides,
    );
  } finally {
    await provider.close();
  }
}

/** The run's clock: the real one, unless HAMMER_FAULT_CLOCK stops it for a test. */
export function clock(env: NodeJS.ProcessEnv): () => Date {
  return faultClock(env['HAMMER_FAULT_CLOCK']) ?? (() => new Date());
}

/** The test command: [tools] test_command, else the toolchain's default. */
export function testCommandFor(config: Config): string {
  if (config.tools.test_command) return config.tools.test_command;
  return getToolchain(config.sandbox.toolchain).defaultTestCommand;
}

/**
 * The directive's text, at most `maxBytes` (see directive.ts), and the label recorded for it; USAGE
 * when there is none or it is empty.
 */
async function directiveOf(options: RunOptions, maxBytes: number): Promise<{ path: string; text: string }> {
  if (options.directiveText !== undefined) {
    const path = options.directive ?? '';
    if (options.directiveText.trim() === '')
      throw new HammerError('USAGE', `the directive${path ? ` (${path})` : ''} is empty`, {
        hint: 'say what the model should do',
      });
    const where = options.recorded ? `of run ${options.recorded.run_id}` : path ? `(${path})` : 'text';
    return { path, text: checkDirectiveSize(options.directiveText, maxBytes, where) };
  }
  if (options.directive === undefined)
    throw new HammerError('USAGE', 'no directive', {
      hint: "pass --directive <file>, --directive - (read from stdin) or -m '<text>'",
    });
  const path = resolve(options.directive);
  return { path, text: await readDirective(path, maxBytes) };
}

/** Recorded answers: a run id of this repository, or a directory holding iter-NN-answer.md files. */
export async function loadReplayAnswers(store: RunStore, source: string, repo: string): Promise<RecordedAnswer[]> {
  if (!source) {
    throw new HammerError('USAGE', 'the replay provider needs recorded answers', {
      hint: "use 'hammer-box replay <run_id>', or set [model] replay_run to a run id or a directory of iter-NN-answer.md files",
    });
  }
  const dir = resolve(repo, source);
  const isDir = await stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) return store.readReplayAnswers(source);
  const names = (await readdir(dir))
    .filter((n) => /^iter-\d+-answer\.md$/.test(n))
    .sort((a, b) => parseInt(a.slice(5), 10) - parseInt(b.slice(5), 10));
  if (names.length === 0) throw new HammerError('USAGE', `no iter-NN-answer.md files in ${dir}`);
  return Promise.all(names.map(async (n) => ({ text: await readFile(join(dir, n), 'utf8') })));
}

/** The image a resumable run recorded (assertResumable refuses a run without one). */
function recordedImage(old: { run_id: string; image: NonNullable<RunOptions['pinnedImage']> | null }) {
  if (old.image === null) throw new HammerError('USAGE', `cannot resume: run ${old.run_id} has no image`);
  return old.image;
}

/** The recorded image, by id: IMAGE_MISSING saying why the run cannot be reproduced when it is gone. */
async function pinned(docker: Dockerode, img: NonNullable<RunOptions['pinnedImage']>): Promise<RunImages> {
  const facts = await inspectImage(docker, img.id);
  if (!facts) {
    const what = img.env ? 'env image (the toolchain image plus the dependencies setup installed)' : 'image';
    throw new HammerError(
      'IMAGE_MISSING',
      `the ${what} this run used (${img.ref}, ${img.id.slice(0, 19)}) is gone, so the run cannot be reproduced in the same environment`,
      {
        hint: img.env
          ? `'hammer-box images import' an archive that holds it ('images export' writes one), or 'hammer-box verify --rebuild' rebuilds it from its lock; a new run of the unchanged repository rebuilds an env image, but its dependencies may resolve differently; keep env images with 'hammer-box images prune --keep'`
          : `'hammer-box images import' an archive that holds it, or rebuild it with 'hammer-box images build' (an unchanged toolchain gets the same tag), or start a new run`,
      },
    );
  }
  await assertEngineArchitecture(docker, img.ref, facts.architecture, facts.os);
  return {
    ref: img.id,
    id: facts.id,
    toolchain: img.toolchain ?? null,
    env: img.env ?? null,
    ...(img.toolchain_version ? { toolchain_version: img.toolchain_version } : {}),
    ...(img.locks ? { locks: img.locks } : {}),
  };
}
