// What a run needs (passed in, never global) and what it gives back.
import type { Config } from '../config/schema.js';
import type { Identity, UserRepo, Workbench } from '../git/index.js';
import type { ModelProvider } from '../llm/index.js';
import type { Logger } from '../log.js';
import type { SandboxEngine } from '../sandbox/types.js';
import type { Environment, RunState } from '../state/run-state.js';
import type { RunStore } from '../state/store.js';
import type { LoopEmitter } from './events.js';
import type { ReplayComparison } from './replay-compare.js';

/** The image a run's sandbox starts from, resolved (and built if needed) before the sandbox exists. */
export interface ResolvedImage {
  ref: string;
  id: string;
}

/**
 * Another project of the repository the run may switch to: when the chosen project's tests pass
 * at baseline on a directive that asks for a fix, each is set up and its tests run before the
 * model is asked; the first whose tests fail becomes the run's.
 */
export interface AlternativeEnvironment {
  toolchain: string;
  testCommand: string;
  environment: Environment;
  /** Resolve (build and set up, if needed) its image, with the images behind it (recorded in the state). */
  resolveImage: (signal?: AbortSignal) => Promise<ResolvedImage>;
}

/** Dependencies of a run, wired once at the top (see src/api). */
export interface RunDeps {
  /** The projects detection passed over (see AlternativeEnvironment); none when the environment was configured. */
  alternatives?: readonly AlternativeEnvironment[];
  engine: SandboxEngine;
  /** Resolve (and build if missing) the sandbox image. */
  resolveImage: (signal?: AbortSignal) => Promise<ResolvedImage>;
  /** The steps of the dependency setup the last resolveImage ran (recorded in the state's environment). */
  setupSteps?: () => { n: number; name: string; outcome: string; kind: string | null }[];
  provider: ModelProvider;
  store: RunStore;
  /** A logger writing to the run's events.ndjson, made once the run id exists. */
  loggerFor: (runId: string) => Logger;
  emit: LoopEmitter;
  now: () => Date;
  /** PR_SUMMARY.md's text for a run, its artifacts read through `readArtifact` (src/report's, wired by the API). */
  renderSummary: (state: RunState, readArtifact: (name: string) => Promise<string>) => Promise<string>;
  signal?: AbortSignal;
}

/** What to run. */
export interface RunRequest {
  repoPath: string;
  directivePath: string;
  directiveText: string;
  /** The directive is a plan (`run --plan`). */
  directiveKind?: 'plan';
  config: Config;
  /** The test command (from config or the toolchain's default). */
  testCommand: string;
  /** The user's repository, when the caller has already resolved it (at config.git.base). */
  userRepo?: UserRepo;
  /**
   * A workbench at the user repository's base commit, made already (the one detection read the
   * tree through, with its listing): prepare takes it over instead of making another.
   */
  workbench?: Workbench;
  /** What detection decided (recorded in the state and printed when the run starts). */
  environment?: Environment;
  /** The --config file the run was given (the resume hint repeats it: resume takes the current config). */
  configFile?: string;
  /** False: the run delivers no branch (`verify` re-runs a run only to compare its verdict). */
  deliver?: boolean;
  /** Who the commits are by ([git] author = "user": the user's git identity); hammer-box commits them. */
  author?: Identity;
}

/** The end of a run, for --json and the exit code. */
export interface RunOutcome {
  state: RunState;
  statePath: string;
  summaryPath: string | null;
  /** A replay: whether it reproduced the run it replays, and where it diverged. */
  replay?: ReplayComparison;
}
