// One line of a batch's tasks file (JSONL): what to run, on which repository and commit, and the
// settings that differ from the batch's own. Validated with zod; versioned per line.
import { z } from 'zod';

/** The task schema version this hammer-box reads (a line may say so in `schema_version`). */
export const TASK_SCHEMA_VERSION = 1;

/** A task id: a directory name under the batch's tasks/ (letters, digits, `.`, `_`, `-`; not only dots). */
export const TASK_ID_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/** The most attempts one task may ask for. */
export const MAX_ATTEMPTS = 100;

const envName = /^[A-Za-z_][A-Za-z0-9_]*$/;
const seconds = z
  .number()
  .positive()
  .max(7 * 24 * 3600);
const text = z.string().min(1).max(4096);

/** One task as written in the file (before the directive file is read and paths resolved). */
export const TaskLineSchema = z
  .strictObject({
    schema_version: z.literal(TASK_SCHEMA_VERSION).optional(),
    id: z
      .string()
      .regex(TASK_ID_PATTERN, 'letters, digits, ".", "_" and "-" only (at most 128), not starting with "." or "-"'),
    /** A local path (absolute, or relative to the tasks file) or an http(s) URL the host fetches. */
    repo: text,
    /** The commit to start from: a full commit id (a branch or tag is accepted for a local repository). */
    commit: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,254}$/, 'a commit id, or a branch or tag name'),
    /** What to do, as text; or `directive_file`, a file (relative to the tasks file). */
    directive: z.string().min(1).optional(),
    directive_file: text.optional(),
    toolchain: z.string().min(1).max(64).optional(),
    toolchain_version: z.string().min(1).max(64).optional(),
    test_command: z.string().min(1).max(16_384).optional(),
    test_timeout: seconds.optional(),
    /** The task's wall-clock limit in seconds (default: --task-timeout). */
    timeout: seconds.optional(),
    max_iterations: z.number().int().min(1).max(1000).optional(),
    /** Variables for the sandbox, over [sandbox] env of the configuration. */
    env: z.record(z.string().regex(envName, 'not a variable name'), z.string().max(65_536)).optional(),
    /** How the model works (config [loop] mode). */
    mode: z.enum(['diff', 'agent']).optional(),
    /** The model's name on the configured server (config [model] name). */
    model: z.string().min(1).max(256).optional(),
    /** How many independent attempts (samples, for pass@k); default 1. */
    attempts: z.number().int().min(1).max(MAX_ATTEMPTS).optional(),
  })
  .refine((t) => (t.directive === undefined) !== (t.directive_file === undefined), {
    message: 'give exactly one of directive (text) and directive_file (a path)',
    path: ['directive'],
  });
export type TaskLine = z.infer<typeof TaskLineSchema>;

/** Where a task's repository comes from. */
export type TaskSource = { kind: 'path'; path: string } | { kind: 'url'; url: string };

/** A task ready to run: the directive read, the repository resolved, where it was written. */
export interface Task {
  id: string;
  source: TaskSource;
  commit: string;
  directive: string;
  /** What the run records as the directive's path: the file, or `<tasks file>:<line>`. */
  directiveLabel: string;
  toolchain?: string;
  toolchainVersion?: string;
  testCommand?: string;
  testTimeout?: number;
  timeout?: number;
  maxIterations?: number;
  env?: Record<string, string>;
  mode?: 'diff' | 'agent';
  model?: string;
  attempts: number;
  /** The tasks file's line. */
  line: number;
  /** sha256 of what defines the task (all but attempts and timeout): attempts of another definition are stale. */
  hash: string;
}
