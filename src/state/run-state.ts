// The run state file `.hammer/runs/<run_id>.json`: every fact about a run, rewritten atomically
// after each phase, validated with zod whenever it is read back.
import { z } from 'zod';
import { RUNGS } from './rungs.js';
import { MAX_FAILURES, MAX_KIND, MAX_NAME, TEST_RUNNERS } from '../test-output/index.js';

/** The schema version written into every state file; a reader refuses any other. */
export const RUN_STATE_SCHEMA_VERSION = 1;

/**
 * How a run stands: still going, or how it ended. A run that ended on its own has an outcome (see
 * src/verdict: `stable`, `partial`, `untested`, `unknown`, `failed`); `interrupted` and `error` did not
 * end on their own. Files written before the outcomes say only `stable` or `failed` for those.
 */
export const RUN_STATUSES = [
  'running',
  'stable',
  'partial',
  'untested',
  'unknown',
  'failed',
  'interrupted',
  'error',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The statuses of a run that ended on its own (its outcome). */
export const ENDED_STATUSES = ['stable', 'partial', 'untested', 'unknown', 'failed'] as const;
export type EndedStatus = (typeof ENDED_STATUSES)[number];

/** True when the run ended on its own (not running, not interrupted, no error). */
export function hasEnded(status: RunStatus): status is EndedStatus {
  return (ENDED_STATUSES as readonly string[]).includes(status);
}

/** Why a run ended (null while it runs). */
export const EXIT_REASONS = [
  'tests_pass',
  'tests_pass_baseline',
  'baseline_failures_remain',
  'no_tests',
  'max_iterations',
  'duplicate_patch',
  'no_usable_diff',
  'max_steps',
  'error',
  'interrupted',
] as const;
export type ExitReason = (typeof EXIT_REASONS)[number];

/** The seven phases of one iteration, in order. */
export const ITERATION_PHASES = [
  'read_state',
  'generate',
  'extract',
  'validate',
  'apply',
  'test',
  'update_state',
] as const;
export type IterationPhase = (typeof ITERATION_PHASES)[number];

/**
 * Phases of the run outside any iteration, in order: `setup` (the toolchain image and the
 * dependency setup into the env image), `prepare` (clone, sandbox, copy in), `baseline` (the first
 * test run), `report` (PR_SUMMARY.md and artifacts), `deliver` (the branch in the user's repository).
 */
export const RUN_PHASES = ['setup', 'prepare', 'baseline', 'report', 'deliver'] as const;
export type RunPhase = (typeof RUN_PHASES)[number];

/** What an iteration came to. */
export const ITERATION_OUTCOMES = ['applied', 'rejected', 'no_changes', 'unusable', 'duplicate'] as const;
export type IterationOutcome = (typeof ITERATION_OUTCOMES)[number];

const timestamp = z.iso.datetime({ offset: true });
const count = z.number().int().min(0);
const ms = z.number().min(0);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'not a sha256 hex digest');
/** An artifact file name inside the run's artifacts directory (never a path). */
export const ArtifactNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'not an artifact file name')
  .refine((s) => !s.includes('..'), 'not an artifact file name');

/** One phase's record: done, failed or skipped, when it started and how long it took. */
export const PhaseRecordSchema = z.strictObject({
  status: z.enum(['done', 'failed', 'skipped']),
  started_at: timestamp,
  duration_ms: ms,
  detail: z.string().optional(),
});
export type PhaseRecord = z.infer<typeof PhaseRecordSchema>;

const name = z.string().max(MAX_NAME);

/** A failing test as the output named it (see src/test-output). */
export const FailingTestSchema = z.strictObject({
  runner: z.enum(TEST_RUNNERS),
  scope: z.enum(['test', 'file', 'package']),
  id: name,
  name,
  package: name.nullable(),
  file: name.nullable(),
  line: count.nullable(),
  /** How it failed, in a word (e.g. "AssertionError"); absent when the output does not say, and in older files. */
  kind: z.string().max(MAX_KIND).optional(),
});

/** The longest reason kept for an output that could not be read. */
export const MAX_UNREAD_CHARS = 300;

/**
 * What hammer-box read from a test run's output: the runners, each failing test once, the counts
 * printed; whether the runner said there was no test to run; and, when the output could not be read,
 * why (see readTest in src/verdict: such a result is unknown, never a pass).
 */
export const ParsedTestOutputSchema = z.strictObject({
  runners: z.array(z.enum(TEST_RUNNERS)).max(TEST_RUNNERS.length),
  failing: z.array(FailingTestSchema).max(MAX_FAILURES),
  counts: z
    .array(z.strictObject({ runner: z.enum(TEST_RUNNERS), passed: count.nullable(), failed: count.nullable() }))
    .max(TEST_RUNNERS.length * 2),
  /** The runner said there was no test to run (pytest's exit 5, Jest's "No tests found", ...); absent otherwise. */
  no_tests: z.literal(true).optional(),
  /** Why the output could not be read (set by the test-output reader); absent when it was read. */
  unread: z.string().max(MAX_UNREAD_CHARS).optional(),
});
export type ParsedTestOutput = z.infer<typeof ParsedTestOutputSchema>;

/**
 * One test run. The output excerpts are sanitised and cut once: the head and tail lines, each failing
 * test's block (up to a cap) and the runner's summaries, with `[... N lines omitted ...]` between.
 */
export const TestRecordSchema = z.strictObject({
  command: z.string(),
  exit_code: z.number().int(),
  duration_ms: ms,
  timed_out: z.boolean(),
  stdout_tail: z.string(),
  stderr_tail: z.string(),
  /** Absent in records written before hammer-box read test output. */
  parsed: ParsedTestOutputSchema.optional(),
  /**
   * True when nothing in the output could be read: no runner's output, no count or result line
   * (see src/test-output). The exit code alone then says nothing of the tests, and an unread run
   * never counts as passing. Absent: the output was read (or the record predates the field).
   */
  unread: z.literal(true).optional(),
  /** Bytes the command wrote to stdout and stderr together. */
  total_bytes: count,
  /** Bytes of that not kept by the sandbox's capture. */
  dropped_bytes: count,
  artifact: ArtifactNameSchema.nullable(),
  /**
   * "focused": this is the run of the previous run's failing tests alone, and it failed, so the whole
   * suite did not run. Absent: the whole suite ran (a focused record never decides that tests pass).
   */
  scope: z.literal('focused').optional(),
  /** The focused run that came first, when the whole suite ran after it (it passed, or showed progress). */
  focus: z
    .strictObject({ command: z.string(), exit_code: z.number().int(), duration_ms: ms, timed_out: z.boolean() })
    .optional(),
});
export type TestRecord = z.infer<typeof TestRecordSchema>;

/** The most tests one re-run at the base takes. */
export const MAX_BASE_RERUN_TESTS = 20;

/**
 * Failing tests that did not fail at baseline, re-run once at the base commit before they count as
 * regressions (the baseline may not have run them: a chain stopped early, it timed out, a flaky
 * test): those that fail there too failed before the change.
 */
export const BaseRerunSchema = z.strictObject({
  /** The iteration whose test run named them. */
  iteration: z.number().int().min(1),
  command: z.string(),
  exit_code: z.number().int(),
  duration_ms: ms,
  timed_out: z.boolean(),
  /** The tests re-run. */
  tests: z.array(FailingTestSchema).max(MAX_BASE_RERUN_TESTS),
  /** Those of them that failed at the base too (none when the run could not be read). */
  failing: z.array(FailingTestSchema).max(MAX_BASE_RERUN_TESTS),
  artifact: ArtifactNameSchema.nullable(),
});
export type BaseRerun = z.infer<typeof BaseRerunSchema>;

/** A file a patch touches. */
export const PatchFileSchema = z.strictObject({
  path: z.string(),
  status: z.enum(['added', 'deleted', 'modified', 'renamed', 'copied']),
  /** The source path of a rename or copy. */
  from: z.string().optional(),
});
export type PatchFile = z.infer<typeof PatchFileSchema>;

/**
 * Why the prompt showed a file: named in the directive, named by (or holding) the failure, imported
 * by the failing code, changed so far, outlined in the repository map, asked for by the model, or
 * part of a small repository shown whole.
 */
export const SHOWN_REASONS = ['directive', 'failure', 'import', 'changed', 'map', 'asked', 'repository'] as const;

/** One file the prompt showed: why, how (whole, regions, an outline in the map) and its size. */
export const ShownItemSchema = z.strictObject({
  path: z.string(),
  reason: z.enum(SHOWN_REASONS),
  /** Why, in a few words ("imported by tests/test_calc.py"). */
  detail: z.string().optional(),
  shown: z.enum(['whole', 'regions', 'outline']),
  /** The line ranges shown of a file shown as regions: "120-180,400-420". */
  lines: z.string().optional(),
  chars: count,
});
export type ShownItem = z.infer<typeof ShownItemSchema>;

/** What one prompt showed of the repository. */
export const PromptContextRecordSchema = z.strictObject({
  /** Every source file fitted the budget and was shown whole. */
  whole_repository: z.boolean(),
  items: z.array(ShownItemSchema),
});
export type PromptContextRecord = z.infer<typeof PromptContextRecordSchema>;

/** One request the model made to see more, and what came of it. */
export const AskItemSchema = z.strictObject({
  /** `invalid`: a tool call that could not be read (malformed arguments, an unknown tool). */
  kind: z.enum(['read', 'search', 'invalid']),
  /** The file (read), the fixed string searched for (search) or the tool's name (invalid), as asked. */
  target: z.string(),
  /** The request came as a provider tool call, not written in the answer's text. */
  via: z.literal('tool_call').optional(),
  outcome: z.enum(['shown', 'cut', 'missing', 'refused', 'no_hits', 'over_limit']),
  /** The lines shown of a read: "10-40". */
  lines: z.string().optional(),
  /** Matching lines shown of a search. */
  hits: count.optional(),
  chars: count,
});
export type AskItem = z.infer<typeof AskItemSchema>;

/** One time the model asked to see more before answering (counted apart from iterations). */
export const AskRecordSchema = z.strictObject({
  /** The model's answer that asked, byte for byte (replay plays it back). */
  answer_artifact: ArtifactNameSchema,
  /** What the runtime answered. */
  reply_artifact: ArtifactNameSchema,
  /** The tool calls of that answer (JSON: id, name, arguments as sent), when it asked with tool calls. */
  tool_calls_artifact: ArtifactNameSchema.optional(),
  items: z.array(AskItemSchema),
  chars: count,
});
export type AskRecord = z.infer<typeof AskRecordSchema>;

/** How an agent trajectory ended: submitted, or at a bound (its change so far is judged all the same). */
export const TRAJECTORY_ENDS = [
  'submitted',
  'max_steps',
  'max_run_steps',
  'max_seconds',
  'max_tokens',
  'stuck',
  'malformed',
] as const;
export type TrajectoryEnd = (typeof TRAJECTORY_ENDS)[number];

/** The most characters of a step's action and observation the state keeps (the trajectory artifact has them whole). */
export const STEP_ACTION_CHARS = 2000;
export const STEP_OBSERVATION_CHARS = 4000;

/** One model request of a trajectory: its answer as recorded (replay plays it back), counts and timing. */
export const AgentTurnSchema = z.strictObject({
  k: z.number().int().min(1),
  /** The answer's text, byte for byte. */
  answer_artifact: ArtifactNameSchema,
  /** Its native tool calls (JSON: id, name, arguments as sent), when it made any. */
  tool_calls_artifact: ArtifactNameSchema.optional(),
  model: z.string(),
  prompt_tokens: count.optional(),
  completion_tokens: count.optional(),
  duration_ms: ms,
  finish_reason: z.string().max(64).optional(),
  /** What the turn came to: tool calls, a call that could not be used, or no call at all. */
  parsed: z.enum(['actions', 'malformed', 'none']),
  /** Characters of the messages sent, and how many of them the previous request of this trajectory sent first. */
  prompt_chars: count,
  shared_prefix_chars: count.optional(),
  /** Old observations shown elided in this request (`(N lines of output omitted)`). */
  elided: count.optional(),
});
export type AgentTurn = z.infer<typeof AgentTurnSchema>;

/** One tool call of a trajectory, executed. */
export const AgentStepSchema = z.strictObject({
  k: z.number().int().min(1),
  /** The turn whose answer made the call. */
  turn: z.number().int().min(1),
  tool: z.enum(['bash', 'edit', 'submit']),
  /** The call in one line: the command, or the editor command and path (cut to STEP_ACTION_CHARS). */
  action: z.string().max(STEP_ACTION_CHARS),
  /** How the call came: a native tool call, qwen3-coder's XML, a fenced block, JSON in the text. */
  shape: z.enum(['native', 'qwen-xml', 'fenced', 'json']),
  /** An edit's path, relative to the repository. */
  path: z.string().max(4096).optional(),
  /** ok; failed (a non-zero exit, a timeout, an editor error); refused (a gate said no: nothing was written). */
  outcome: z.enum(['ok', 'failed', 'refused']),
  exit_code: z.number().int().optional(),
  timed_out: z.boolean().optional(),
  /** What the model was shown (cut to STEP_OBSERVATION_CHARS), and its whole length. */
  observation: z.string().max(STEP_OBSERVATION_CHARS + 100),
  observation_chars: count,
  started_at: timestamp,
  duration_ms: ms,
  /** The command's own time in the sandbox (bash), of duration_ms. */
  command_ms: ms.optional(),
});
export type AgentStep = z.infer<typeof AgentStepSchema>;

/** An agent iteration's trajectory: every model turn and tool call, and how it ended. */
export const TrajectorySchema = z.strictObject({
  /** The whole conversation, readable (iter-NN-trajectory.md). */
  artifact: ArtifactNameSchema,
  turns: z.array(AgentTurnSchema),
  steps: z.array(AgentStepSchema),
  /** The stuck patterns the model was nudged about, in order. */
  nudges: z.array(z.string().max(64)).optional(),
  /** Null while it runs. */
  end: z.strictObject({ reason: z.enum(TRAJECTORY_ENDS), detail: z.string().max(500) }).nullable(),
});
export type Trajectory = z.infer<typeof TrajectorySchema>;

/** One turn of the loop. Fields are null until their phase has run (or when it was skipped). */
export const IterationSchema = z.strictObject({
  n: z.number().int().min(1),
  started_at: timestamp,
  phases: z.partialRecord(z.enum(ITERATION_PHASES), PhaseRecordSchema),
  prompt: z
    .strictObject({
      chars: count,
      artifact: ArtifactNameSchema,
      /** Characters this prompt shares from its start with the previous iteration's (absent for the first). */
      shared_prefix_chars: count.optional(),
    })
    .nullable(),
  /** What the prompt showed of the repository and why (absent in files written before it was recorded). */
  context: PromptContextRecordSchema.optional(),
  answer: z
    .strictObject({
      model: z.string(),
      prompt_tokens: count.optional(),
      completion_tokens: count.optional(),
      duration_ms: ms,
      first_token_ms: ms.nullable(),
      artifact: ArtifactNameSchema,
      /** Why the model stopped, as the server said ("stop", "length": the token limit); absent when it did not say. */
      finish_reason: z.string().max(64).optional(),
    })
    .nullable(),
  /** The model's requests to see more before its answer, in order (absent when it made none). */
  asks: z.array(AskRecordSchema).optional(),
  /** Agent mode: the trajectory that made the candidate (absent in diff mode). */
  trajectory: TrajectorySchema.optional(),
  extraction: z
    .strictObject({
      kind: z.enum(['diff', 'no_changes', 'unusable']),
      reason: z.string().optional(),
      lines: count.optional(),
      files: count.optional(),
      /** Repairs made to the model's diff while extracting it (e.g. a/ b/ prefixes added). */
      fixes: z.array(z.string()).optional(),
      /** The answer was cut off at the token limit (the server said so, or its last edit never ends): nothing of it was used. */
      cut_off: z.strictObject({ by: z.enum(['server', 'text']), where: z.string() }).optional(),
    })
    .nullable(),
  patch: z
    .strictObject({
      /** sha256 of the normalised patch (see patchHash). */
      hash: sha256,
      artifact: ArtifactNameSchema,
      files: z.array(PatchFileSchema),
      /** Lines of the patch text. */
      lines: count,
      added: count.optional(),
      removed: count.optional(),
      /** The apply ladder's rung that applied it (as_is, recount, whitespace, relocated, search_replace). */
      rung: z.enum(RUNGS).optional(),
      /** The patch git applied, when the rung rewrote it (relocated, search_replace). */
      applied_artifact: ArtifactNameSchema.optional(),
    })
    .nullable(),
  /** `git apply --check` in the sandbox. */
  validation: z.strictObject({ ok: z.boolean(), message: z.string().optional() }).nullable(),
  apply: z.strictObject({ commit: z.string(), tree: z.string() }).nullable(),
  test: TestRecordSchema.nullable(),
  /** Null while the iteration is in progress. */
  outcome: z.enum(ITERATION_OUTCOMES).nullable(),
  /** One line saying what happened (also the commit message's tail when applied). */
  summary: z.string(),
  /** Sensitive paths the patch edits, allowed by [policy] and flagged for review ("path: why"). */
  review: z.array(z.string()).optional(),
  /**
   * The syntax gate ([edits] syntax_gate): whether it ran, the touched files it parsed, and the
   * candidates it left out because they added a syntax error (rung, file, first new error).
   */
  syntax_gate: z
    .strictObject({
      on: z.boolean(),
      files: z.array(z.string()),
      skipped: z.array(
        z.strictObject({ rung: z.enum(RUNGS), path: z.string(), line: z.number().int().min(1), message: z.string() }),
      ),
    })
    .optional(),
});
export type Iteration = z.infer<typeof IterationSchema>;

/** An unrecoverable error, recorded before the run stops with status `error`. */
export const RunErrorSchema = z.strictObject({
  at: timestamp,
  code: z.string(),
  message: z.string(),
  phase: z.string().optional(),
  iteration: z.number().int().min(1).optional(),
  /** What to do about it, as the error said (absent in files written before it was recorded). */
  hint: z.string().optional(),
});
export type RunError = z.infer<typeof RunErrorSchema>;

/** What detection decided, from which evidence, and how the dependency setup went. */
export const EnvironmentSchema = z.strictObject({
  /** The toolchain, or null for a user's own image with its own test command. */
  toolchain: z.string().nullable(),
  /** The files and facts that decided it (e.g. "pyproject.toml", "tests/"). */
  evidence: z.array(z.string()),
  /** How it was decided: named by the user, by markers and tests, or by source extensions. */
  decided_by: z.enum(['named', 'evidence', 'sources', 'image']),
  test_command: z.string(),
  /** The one line printed on stderr at the start of the run. */
  line: z.string(),
  /**
   * The other projects detection found, each as "python (python/test.py, no manifest)": tried in
   * turn when this one's tests pass at baseline on a directive that asks for a fix. Absent: none.
   */
  alternatives: z.array(z.string()).optional(),
  /** The dependency setup's command ('' when there is nothing to install). */
  setup_command: z.string(),
  /** The setup steps, when setup ran in this run: how each ended and why. */
  setup_steps: z
    .array(z.strictObject({ n: z.number().int(), name: z.string(), outcome: z.string(), kind: z.string().nullable() }))
    .optional(),
});
export type Environment = z.infer<typeof EnvironmentSchema>;

/** The whole run state file. */
export const RunStateSchema = z.strictObject({
  schema_version: z.literal(RUN_STATE_SCHEMA_VERSION),
  run_id: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
  status: z.enum(RUN_STATUSES),
  reason: z.enum(EXIT_REASONS).nullable(),
  reason_detail: z.string().nullable(),
  repo: z.strictObject({ path: z.string(), base_ref: z.string(), base_commit: z.string(), base_tree: z.string() }),
  /** What the run was asked to do; `kind: "plan"` when it was a plan (`run --plan`, written by `hammer-box plan`). */
  directive: z.strictObject({ path: z.string(), text: z.string(), sha256, kind: z.literal('plan').optional() }),
  /** The resolved Config, as it was when the run started. */
  config: z.record(z.string(), z.unknown()),
  model: z.strictObject({ provider: z.string(), name: z.string(), url: z.string() }),
  /**
   * The image the sandbox started from (ref as used, exact id), and the images behind it: the
   * toolchain image, and the env image (toolchain + dependencies) when setup ran; null for a
   * user's own image or a repository without dependencies. Absent in files written before env images.
   * Null until the setup phase is done (a run that failed in setup has none).
   */
  image: z
    .strictObject({
      ref: z.string(),
      id: z.string(),
      toolchain: z.strictObject({ ref: z.string(), id: z.string() }).nullable().optional(),
      env: z.strictObject({ ref: z.string(), id: z.string() }).nullable().optional(),
      /** The toolchain's version in the toolchain image and what chose it. Absent in older files and for a user's image. */
      toolchain_version: z
        .strictObject({
          toolchain: z.string(),
          version: z.string(),
          /** Where it comes from: "Debian 13", "Debian 13 backports", "npm registry". */
          origin: z.string(),
          source: z.enum(['declared', 'override', 'default']),
          /** The declaring file and its words, e.g. ".nvmrc: 22". */
          declared: z.string().optional(),
          /** Node: the package manager and what chose it, e.g. "pnpm 10 (pnpm-lock.yaml (lockfileVersion 9.0))". */
          package_manager: z.string().optional(),
        })
        .optional(),
      /**
       * What the env image's setup installed differently from the repository's lockfile, and why
       * (e.g. npm ci refused a lockfile another npm wrote, and npm install resolved from it).
       */
      setup_drift: z.array(z.string().max(1000)).max(10).optional(),
      /**
       * The digests of the toolchain and env images' locks: what went into them (the locks are the
       * run's image-locks.json artifact, trusted when their digests are these).
       */
      locks: z
        .strictObject({
          toolchain: z
            .string()
            .regex(/^sha256:[0-9a-f]{64}$/)
            .optional(),
          env: z
            .string()
            .regex(/^sha256:[0-9a-f]{64}$/)
            .optional(),
        })
        .optional(),
      /** How an image rebuilt under a key this machine knew differs from the lock first seen for it. */
      lock_drift: z.array(z.string().max(1000)).max(20).optional(),
    })
    .nullable(),
  /** The environment the run decided on, and from what (see EnvironmentSchema). */
  environment: EnvironmentSchema.optional(),
  sandbox: z
    .strictObject({
      container_id: z.string(),
      /** The sandbox's base commit has exactly the host's tree (then every patch's tree is compared too). */
      base_tree_matches: z.boolean().optional(),
    })
    .nullable(),
  branch: z
    .strictObject({
      name: z.string(),
      commit: z.string(),
      /** Lines added and removed per file between the base and the branch (null counts: binary). */
      diffstat: z
        .array(
          z.strictObject({
            path: z.string(),
            from: z.string().optional(),
            added: count.nullable(),
            removed: count.nullable(),
          }),
        )
        .optional(),
    })
    .nullable(),
  /**
   * The branch being delivered: its name and commit are recorded before the ref is made, so a run
   * killed between making the ref and recording `branch` is resumed onto that same branch.
   */
  delivering: z.strictObject({ name: z.string(), commit: z.string() }).nullable().optional(),
  phases: z.partialRecord(z.enum(RUN_PHASES), PhaseRecordSchema),
  baseline: TestRecordSchema.nullable(),
  /**
   * The baseline's failing tests run again at once, on the same tree (`scope: "focused"` when only they
   * ran, else the whole suite): a test that passes here is flaky, not a target. Absent when the
   * baseline passed, named no failing test, or was recorded before reruns.
   */
  baseline_rerun: TestRecordSchema.optional(),
  /** Re-runs at the base of tests that failed after a change and not at baseline (see BaseRerunSchema); absent: none. */
  base_reruns: z.array(BaseRerunSchema).max(100).optional(),
  iterations: z.array(IterationSchema),
  /** Absolute path of the run's artifacts directory; artifact names in this file are relative to it. */
  artifacts_dir: z.string(),
  errors: z.array(RunErrorSchema),
  /**
   * Sandboxes the run could not remove at its end (tried again with backoff first): which, why, and
   * the command that removes them. Absent when everything was removed.
   */
  left_behind: z
    .array(z.strictObject({ sandbox: z.string(), error: z.string(), at: timestamp, gc: z.string() }))
    .optional(),
  /** The process driving the run (resume refuses while it is alive), and how often it was resumed. */
  owner: z.strictObject({ pid: z.number().int().positive(), host: z.string() }).optional(),
  resumed: z.number().int().min(0).optional(),
  /** The model settings a resume changed (`resume --provider/--model/--llm-url`), in order. */
  model_overrides: z
    .array(
      z.strictObject({
        at: z.string(),
        provider: z.string().optional(),
        name: z.string().optional(),
        url: z.string().optional(),
      }),
    )
    .optional(),
});
export type RunState = z.infer<typeof RunStateSchema>;

/** The toolchain version a run recorded. */
export type ToolchainVersionRecord = NonNullable<NonNullable<RunState['image']>['toolchain_version']>;
