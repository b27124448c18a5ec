// The shape of hammer-box's configuration, validated with zod at every source.
import { z } from 'zod';
import { HOST_PATTERN } from './host-pattern.js';
import { parseSize } from './units.js';

const size = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = parseSize(v);
  if (n === undefined) {
    ctx.addIssue({ code: 'custom', message: `not a size: ${JSON.stringify(v)} (use bytes or e.g. "64m", "2g")` });
    return z.NEVER;
  }
  return n;
});
const seconds = z.number().positive();
const envName = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const SandboxConfigSchema = z.strictObject({
  image: z.string(),
  toolchain: z.string().min(1),
  /** The toolchain's version instead of the one the repository declares: "22", "1.25", "3.13"; empty: as declared. */
  toolchain_version: z.string().default(''),
  user: z
    .string()
    .regex(/^\d+:\d+$/, 'must be "uid:gid" with numeric ids')
    .refine((u) => !u.startsWith('0:'), 'the sandbox never runs as root (uid 0)'),
  memory: size,
  cpus: z.number().positive().max(512),
  pids_limit: z.number().int().min(16),
  tmp_size: size,
  workspace_size: size,
  nofile: z.number().int().min(64),
  runtime: z.string(),
  exec_timeout: seconds,
  output_cap: size,
  /** The most files a base tree may hold (a preflight refuses larger ones). */
  max_repo_files: z.number().int().min(1).default(100_000),
  env: z.record(z.string().regex(envName, 'not a variable name'), z.string()),
  /** Which backend runs the sandboxes: the Docker engine, or a Kubernetes cluster ([kubernetes]). */
  engine: z.enum(['docker', 'kubernetes']).default('docker'),
  /** The repository is the user's own: a backend that cannot prove the sandbox has no network is used anyway. */
  trusted_repo: z.boolean().default(false),
  /** Seconds a sandbox whose removal failed at a run's end is tried again (with backoff) before it is reported left behind. */
  remove_retry: z.number().min(0).default(60),
});

export const KubernetesConfigSchema = z.strictObject({
  /** A kubeconfig file; empty: KUBECONFIG, else ~/.kube/config (as kubectl). */
  kubeconfig: z.string().default(''),
  /** A context of the kubeconfig; empty: its current context. */
  context: z.string().default(''),
  /** The namespace of the sandboxes; empty: the context's, else "default". */
  namespace: z
    .string()
    .regex(/^([a-z0-9]([-a-z0-9]*[a-z0-9])?)?$/, 'a Kubernetes namespace name (lowercase letters, digits, -)')
    .max(63)
    .default(''),
  /** Where `images push --registry` put the images (host[:port][/prefix]); empty: the images are preloaded on the nodes. */
  registry: z
    .string()
    .regex(/^([A-Za-z0-9.-]+(:\d+)?(\/[a-z0-9._/-]+)?)?$/, 'a registry: host[:port][/prefix]')
    .default(''),
  image_pull_policy: z.enum(['IfNotPresent', 'Always', 'Never']).default('IfNotPresent'),
  /** Seconds a sandbox pod may take to run (scheduling, image pull, start). */
  start_timeout: seconds.default(300),
  /** Seconds after which the cluster stops a sandbox pod whatever happens (activeDeadlineSeconds). */
  pod_deadline: z.number().int().min(60).default(86_400),
  /** The sandbox pod's seccomp profile: RuntimeDefault, or `localhost/<path>` (a Localhost profile on the nodes). */
  seccomp_profile: z
    .string()
    .regex(
      /^(RuntimeDefault|localhost\/(?!(.*\/)?\.\.(\/|$))[A-Za-z0-9._-][A-Za-z0-9._/-]*)$/,
      '"RuntimeDefault" or "localhost/<path>" (a Localhost profile, relative to the kubelet\'s seccomp directory)',
    )
    .default('RuntimeDefault'),
  /** Seconds a call the API server did not answer is tried again (a restart, a failover) once it answered before. */
  outage_retry: z.number().min(0).default(60),
  /** The nodes' podPidsLimit (kubelet): the pids limit that applies in a sandbox pod, which the pod cannot read; 0: unknown. */
  pids_limit: z.number().int().min(0).default(1024),
  /** Seconds a network proof is reused by later runs and batch attempts (0: every run proves it). */
  proof_lifetime: z.number().min(0).default(3600),
});

export const ToolsConfigSchema = z.strictObject({
  test_command: z.string(),
  /** Seconds any test run after the baseline gets at least (later runs get test_timeout_factor × the baseline's time when more). */
  test_timeout: seconds,
  /** Seconds the first baseline run gets (generous: how long the suite takes is not known yet). */
  baseline_timeout: seconds.default(1800),
  /** Later test runs get this many times the baseline's measured time, when that is more than test_timeout. */
  test_timeout_factor: z.number().min(1).max(100).default(3),
  /** Failing tests first: after a failing run, run the tests it named before the whole suite. */
  focus: z.boolean().default(true),
  /** Module paths (absolute, or relative to the working directory) that register more tools. */
  plugins: z.array(z.string().min(1)),
});

/** The most patterns [tests] known_failures may hold, and the longest one. */
export const MAX_KNOWN_FAILURES = 500;
export const MAX_KNOWN_FAILURE_CHARS = 500;

export const TestsConfigSchema = z.strictObject({
  /**
   * Failing tests a run ignores when it judges its tests: globs (`*` any characters, `?` one) over
   * a test's id, its printed name, or `package id` (go, cargo).
   */
  known_failures: z.array(z.string().min(1).max(MAX_KNOWN_FAILURE_CHARS)).max(MAX_KNOWN_FAILURES).default([]),
  /**
   * Run the baseline's failing tests again at once (only them when the runner can be filtered, else
   * the whole suite): a test that passes then is flaky, said so, and not a target of the run.
   */
  rerun_baseline_failures: z.boolean().default(true),
});

export const PROVIDERS = ['ollama', 'openai', 'replay'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export const ModelConfigSchema = z.strictObject({
  provider: z.enum(PROVIDERS),
  name: z.string().min(1),
  url: z.string().url(),
  api_key_env: z.string().regex(envName),
  temperature: z.number().min(0).max(2),
  num_predict: z.number().int().positive(),
  num_ctx: z.number().int().positive(),
  keep_alive: z.string(),
  connect_timeout: seconds,
  first_token_timeout: seconds,
  idle_timeout: seconds,
  timeout: seconds,
  retries: z.number().int().min(0).max(10),
  replay_run: z.string(),
  edit_format: z.enum(['udiff', 'search-replace', 'auto']),
  /** Offer the ask requests as provider tools (`auto`: when asking is on, falling back to text if refused). */
  tools: z.enum(['auto', 'off']).default('auto'),
});

/** The ways an iteration makes its candidate. */
export const LOOP_MODES = ['diff', 'agent'] as const;
export type LoopMode = (typeof LOOP_MODES)[number];

export const LoopConfigSchema = z.strictObject({
  max_iterations: z.number().int().min(1).max(1000),
  max_diff_lines: z.number().int().min(1),
  max_unusable_answers: z.number().int().min(1),
  /** Requests to see more (files, line ranges, searches) the model may make in one iteration before it must answer. */
  max_asks: z.number().int().min(0).max(20).default(3),
  /** How an iteration makes its candidate: one diff answer, or an agent's trajectory of tool calls in the sandbox. */
  mode: z.enum(LOOP_MODES).default('diff'),
});

/** Agent mode's bounds (`[agent]`): each trajectory ends at the first one reached. */
export const AgentConfigSchema = z.strictObject({
  /** Tool calls in one iteration's trajectory. */
  max_steps: z.number().int().min(1).max(1000).default(40),
  /** Tool calls in the whole run, over every trajectory. */
  max_run_steps: z.number().int().min(1).max(10_000).default(150),
  /** Wall time of one trajectory, in seconds (the model's answers and the commands together). */
  max_seconds: seconds.default(1800),
  /** Tokens of one trajectory (prompt and completion of every request, as the server counted them). */
  max_tokens: z.number().int().min(1000).default(2_000_000),
  /** Tokens the conversation sent with each request may take before old observations are elided. */
  history_tokens: z.number().int().min(2000).default(24_000),
  /** Seconds one bash command may run before its whole process tree is killed. */
  command_timeout: seconds.default(120),
  /** Lines and characters of one observation the model sees (the head and the tail are kept). */
  observation_lines: z.number().int().min(10).default(200),
  observation_chars: z.number().int().min(500).default(12_000),
});

export const EditsConfigSchema = z.strictObject({
  strict: z.boolean(),
  /** Parse the touched files before and after each candidate and skip one that adds syntax errors (absent in older state files: on). */
  syntax_gate: z.boolean().default(true),
});

export const EnvConfigSchema = z.strictObject({
  setup_command: z.string(),
  setup_timeout: seconds,
  ca_bundle: z.string(),
  /** The npm registry Node.js, npm and the package managers come from. */
  npm_registry: z.string().url().default('https://registry.npmjs.org/'),
  /** Hosts setup may reach through its proxy besides the toolchain's registries (`host` or `*.domain`). */
  allow_hosts: z.array(z.string().regex(HOST_PATTERN, 'not a host name or *.domain pattern')).max(100).default([]),
  /**
   * The most setup may write in each of its writable places (/workspace, /tmp, the dependency
   * directories), each a tmpfs of this size held in memory besides sandbox.memory; 0: disk volumes
   * without a cap.
   */
  setup_write_size: size.default(2 * 1024 * 1024 * 1024),
  /** The most bytes of files setup's dependency directories may carry into the env image. */
  max_image_size: size.pipe(z.number().int().min(1)).default(2 * 1024 * 1024 * 1024),
});

export const PromptConfigSchema = z.strictObject({
  budget_chars: z.number().int().min(1000),
  tree_max_entries: z.number().int().min(0),
  file_max_bytes: z.number().int().min(256),
  output_head_lines: z.number().int().min(0),
  output_tail_lines: z.number().int().min(0),
  /** The largest directive accepted, in bytes (it goes into every prompt and the state file). */
  directive_max_bytes: size
    .pipe(
      z
        .number()
        .int()
        .min(1)
        .max(16 * 1024 * 1024),
    )
    .default(64 * 1024),
  output_failure_lines: z.number().int().min(0),
  output_max_failures: z.number().int().min(0),
  /** Characters of the repository map (an outline of relevant files not shown); 0 leaves it out. */
  map_chars: z.number().int().min(0).default(6000),
});

export const GitConfigSchema = z.strictObject({
  /** The branch, tag or commit to start from; empty: HEAD's branch, else HEAD's commit (a detached CI checkout). */
  base: z.string(),
  /** Make the branch even when no patch was applied (it then points at the base). */
  keep_empty_branch: z.boolean(),
  branch_prefix: z.string().regex(/^[A-Za-z0-9._\-/]*$/, 'letters, digits, . _ - / only'),
  author_name: z.string().min(1),
  author_email: z.string().min(1),
  /**
   * Who the commits are by: "user", the user's own git identity (GIT_AUTHOR_NAME/EMAIL, else user.name
   * and user.email of their global git config) when they have one, with author_name/author_email as
   * committer; "hammer-box": author_name/author_email as both.
   */
  author: z.enum(['user', 'hammer-box']).default('user'),
});

/**
 * Which edits need a human: CI and deploy-preview configuration, hook managers, install triggers
 * (package managers' settings, toolchain wrappers), what runs when a tree is opened or checked out
 * (dev containers, Gitpod, IDE workspaces, tasks and run configurations, coding agents' hooks and
 * MCP servers, direnv and its kin), hammer-box's own directory and git's own files. State files written before
 * [policy] existed carry no policy: they get these defaults (the same as configs/default.toml and
 * docs/security.md's list; a unit test compares the three).
 */
export const DEFAULT_SENSITIVE_PATHS = [
  '.github/**',
  '.gitlab-ci.yml',
  '.gitlab/**',
  '.circleci/**',
  '.travis.yml',
  'azure-pipelines.yml',
  'azure-pipelines.yaml',
  '.azure-pipelines/**',
  'Jenkinsfile',
  '.buildkite/**',
  '.drone.yml',
  'bitbucket-pipelines.yml',
  '.woodpecker.yml',
  '.woodpecker.yaml',
  '.woodpecker/**',
  '.forgejo/**',
  '.gitea/**',
  '.cirrus.yml',
  '.cirrus.yaml',
  '.cirrus.star',
  'appveyor.yml',
  '.appveyor.yml',
  '.semaphore/**',
  '.teamcity/**',
  '.builds/**',
  '.build.yml',
  '.tekton/**',
  '.zuul.yaml',
  'zuul.yaml',
  '.zuul.d/**',
  'zuul.d/**',
  'codemagic.yaml',
  'bitrise.yml',
  'cloudbuild.yaml',
  'cloudbuild.yml',
  'buildspec.yml',
  'netlify.toml',
  'vercel.json',
  '.readthedocs.yaml',
  '.readthedocs.yml',
  '.pre-commit-config.yaml',
  '.pre-commit-config.yml',
  '**/.husky/**',
  '**/.githooks/**',
  '**/lefthook.*',
  '**/.lefthook.*',
  '**/lefthook-local.*',
  '**/.lefthook-local.*',
  '**/.lefthook/**',
  '**/.lintstagedrc*',
  '**/lint-staged.config.*',
  '**/.simple-git-hooks.*',
  '**/simple-git-hooks.*',
  '**/.overcommit.yml',
  '**/binding.gyp',
  '**/.npmrc',
  '**/.yarnrc',
  '**/.yarnrc.yml',
  '**/.yarn/releases/**',
  '**/.yarn/plugins/**',
  '**/.pnpmfile.cjs',
  '**/.pnpmfile.mjs',
  '**/pnpm-workspace.yaml',
  '**/bunfig.toml',
  '**/.cargo/config',
  '**/.cargo/config.toml',
  '**/rust-toolchain',
  '**/rust-toolchain.toml',
  '**/gradle/wrapper/**',
  '**/.mvn/**',
  '**/.devcontainer/**',
  '**/.devcontainer.json',
  '.gitpod.yml',
  '.gitpod.Dockerfile',
  '.gitpod/**',
  '**/*.code-workspace',
  '**/.vscode/tasks.json',
  '**/.vscode/settings.json',
  '**/.vscode/launch.json',
  '**/.vscode/mcp.json',
  '**/.idea/runConfigurations/**',
  '**/.idea/workspace.xml',
  '**/.run/**',
  '**/.zed/settings.json',
  '**/.zed/tasks.json',
  '**/.claude/settings*.json',
  '**/.mcp.json',
  '**/.cursor/mcp.json',
  '**/.gemini/settings.json',
  '**/.envrc',
  '**/devbox.json',
  '**/mise.toml',
  '**/.mise.toml',
  '.hammer/**',
  '**/.gitattributes',
  '**/.gitmodules',
  '**/.lfsconfig',
] as const;

export const PolicyConfigSchema = z.strictObject({
  sensitive_paths: z.array(z.string().min(1)).default([...DEFAULT_SENSITIVE_PATHS]),
  allow_sensitive: z.boolean().default(false),
  /** The largest patch accepted, in bytes: every later prompt carries the diff so far. */
  max_patch_bytes: size.default(512 * 1024),
});

export const StateConfigSchema = z.strictObject({
  /** Relative to the repository, inside it (never absolute, never climbing out with ..). */
  dir: z
    .string()
    .min(1)
    .refine(
      (d) => !d.startsWith('/') && !d.split(/[\\/]/).includes('..'),
      'must be a relative path inside the repository',
    ),
});

/** The full, resolved configuration. */
export const ConfigSchema = z
  .strictObject({
    sandbox: SandboxConfigSchema,
    tools: ToolsConfigSchema,
    /** Absent in state files written before [tests] existed: no known failures. */
    tests: TestsConfigSchema.prefault({}),
    model: ModelConfigSchema,
    loop: LoopConfigSchema,
    edits: EditsConfigSchema,
    env: EnvConfigSchema,
    prompt: PromptConfigSchema,
    git: GitConfigSchema,
    state: StateConfigSchema,
    policy: PolicyConfigSchema.prefault({}),
    agent: AgentConfigSchema.prefault({}),
    kubernetes: KubernetesConfigSchema.prefault({}),
  })
  .superRefine((c, ctx) => {
    // a pod's emptyDir without a size limit grows on the node: Kubernetes sandboxes always have one
    if (c.sandbox.engine === 'kubernetes' && c.sandbox.workspace_size <= 0)
      ctx.addIssue({
        code: 'custom',
        path: ['sandbox', 'workspace_size'],
        message:
          'must be above 0 with engine = "kubernetes" (an uncapped workspace is for Docker only; every emptyDir of a sandbox pod has a size limit)',
      });
  });

export type Config = z.output<typeof ConfigSchema>;
export type SandboxConfig = Config['sandbox'];
export type KubernetesConfig = Config['kubernetes'];
export type ModelConfig = Config['model'];
export type AgentConfig = Config['agent'];
