// The programmatic API behind `hammer-box replay <run_id>`: the same directive, base commit and image,
// with the model's recorded answers, under the current user's configuration.
import { resolve } from 'node:path';
import { resolveConfig } from '../config/resolve.js';
import { HammerError, isHammerError } from '../errors.js';
import type { RunState } from '../state/run-state.js';
import type { RunStore } from '../state/store.js';
import { compareReplay, replayLine } from '../loop/replay-compare.js';
import type { RunOutcome } from '../loop/run-types.js';
import { openRunStore } from './run-store.js';
import { run, type RunOptions } from './run.js';

/** What `replay` takes: the run, and the same configuration sources as `run`. */
export interface ReplayOptions extends Pick<
  RunOptions,
  'configFile' | 'env' | 'emit' | 'signal' | 'logLevel' | 'onImageProgress' | 'onSetupOutput'
> {
  repo: string;
  runId: string;
  /** Config keys set on the command line (the highest layer). */
  flags?: Record<string, unknown>;
}

/**
 * Run a recorded run again from its sealed state: its directive, base commit, image and answers,
 * its reproducibility settings (see resume-config.ts), and everything else from the current
 * configuration (a state file never widens trust).
 */
export async function replay(options: ReplayOptions): Promise<RunOutcome> {
  const { repo, env, store } = await openRecordedRuns(options);
  const original = await store.read(options.runId);
  if (original.image === null)
    throw new HammerError(
      'USAGE',
      `run ${options.runId} ended before its environment was ready, so there is nothing to replay`,
      { hint: 'start a new run' },
    );
  const replaying = runAgain(original, store, { ...options, repo, env });
  let replayed: RunOutcome;
  try {
    replayed = await replaying;
  } catch (err) {
    throw await withDivergence(err, original, store);
  }
  return { ...replayed, replay: compareReplay(original, replayed.state) };
}

/** The repository's run store under the current configuration, for running a recorded run again (replay, verify). */
export async function openRecordedRuns(
  options: Pick<ReplayOptions, 'repo' | 'env' | 'configFile' | 'flags'>,
): Promise<{ repo: string; env: NodeJS.ProcessEnv; store: RunStore }> {
  const env = options.env ?? process.env;
  const repo = resolve(options.repo);
  const { config } = await resolveConfig({
    repo,
    env,
    ...(options.configFile ? { configFile: options.configFile } : {}),
    ...(options.flags ? { flags: options.flags } : {}),
  });
  return { repo, env, store: await openRunStore(repo, config, env) };
}

/**
 * `original` done again from its sealed state: its directive, base commit and recorded answers, its
 * reproducibility settings, and everything else from the current configuration; in the image it
 * recorded unless `pinnedImage` names another (verify --rebuild), delivering a branch unless
 * `deliver` is false (verify).
 */
export async function runAgain(
  original: RunState,
  store: RunStore,
  options: Omit<ReplayOptions, 'runId'> &
    Pick<RunOptions, 'env'> & { pinnedImage?: RunOptions['pinnedImage']; deliver?: boolean },
): Promise<RunOutcome> {
  if (original.image === null) throw new HammerError('USAGE', `run ${original.run_id} has no image`);
  const answers = await store.readReplayAnswers(original.run_id);
  const flags = options.flags ?? {};
  const table = (name: string): Record<string, unknown> => (flags[name] ?? {}) as Record<string, unknown>;
  return run({
    ...options,
    directive: original.directive.path,
    directiveText: original.directive.text,
    ...(original.directive.kind === 'plan' ? { plan: true } : {}),
    flags: {
      ...flags,
      model: { ...table('model'), provider: 'replay', replay_run: original.run_id },
      git: { ...table('git'), base: original.repo.base_commit },
    },
    recorded: original,
    replayAnswers: answers,
    pinnedImage: options.pinnedImage ?? original.image,
  });
}

/**
 * A replay that stopped on an error (one that went another way soon runs out of recorded answers)
 * says where it diverged from the run, when its state shows that it did.
 */
async function withDivergence(err: unknown, original: RunState, store: RunStore): Promise<unknown> {
  if (!isHammerError(err) || err.run === undefined) return err;
  const replayed = await store.read(err.run.id).catch(() => null);
  if (replayed === null) return err;
  const c = compareReplay(original, replayed);
  if (c.divergence === null || c.divergence.phase === 'the end') return err;
  return new HammerError(err.code, err.message, {
    hint: `the replay ${replayLine(c)}; ${err.hint ?? 'start a new run'}`,
    cause: err.cause,
    run: err.run,
  });
}
