// The runner's machine-readable result: the last `HAMMER_RESULT {...}` line of its stdout, parsed
// with zod. Everything else it prints is untrusted text.
import { z } from 'zod';
import { HammerError } from '../errors.js';
import { RUNNER_OPS } from './argv.js';

const hash = z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/);

/** The schema of a runner result line. */
export const runnerResultSchema = z.strictObject({
  op: z.enum([...RUNNER_OPS, 'unknown']),
  /** The op succeeded (for `test`: the command exited 0). */
  ok: z.boolean(),
  /** The op's exit status (for `test`: the command's). */
  exit: z.number().int().min(0).max(255),
  commit: hash.optional(),
  tree: hash.optional(),
  from: hash.optional(),
  to: hash.optional(),
  clean: z.boolean().optional(),
  /** `step`: the patch was applied and committed (the exit is then the test command's). */
  applied: z.boolean().optional(),
  /** `step`: which candidate (1-based, in the order given) passed its check and was applied. */
  candidate: z.number().int().min(1).max(64).optional(),
  /** `test`, `step`: every process the tests left is gone (false: some outlived the runner's wait). */
  settled: z.boolean().optional(),
  /** `candidate`: the size of .git/hammer/candidate.patch in bytes. */
  bytes: z.number().int().min(0).optional(),
  /** `inspect`: a component of the path is a symlink. */
  link: z.boolean().optional(),
  /** `inspect`: a component above the path is not a directory. */
  blocked: z.boolean().optional(),
  /** `inspect`: the path exists; it is a regular file; its permission bits (octal digits, e.g. 755); its size. */
  exists: z.boolean().optional(),
  regular: z.boolean().optional(),
  mode: z.number().int().min(0).max(7777).optional(),
  size: z.number().int().min(0).optional(),
  /** The runner could not start a process: every pid of the sandbox's limit was taken. */
  fork: z.literal(false).optional(),
});

/** A parsed runner result. */
export type RunnerResult = z.infer<typeof runnerResultSchema>;

const MARKER = 'HAMMER_RESULT ';

/** Runner stdout split into the op's own output and its result. */
export interface RunnerOutput {
  /** What the op printed before its result (a diff, status entries, test output). Untrusted. */
  output: string;
  result: RunnerResult | undefined;
}

/** Split stdout at its last HAMMER_RESULT line; `result` is undefined when that line is missing or invalid. */
export function splitRunnerOutput(stdout: string): RunnerOutput {
  const nl = stdout.lastIndexOf(`\n${MARKER}`);
  const at = nl >= 0 ? nl + 1 : stdout.startsWith(MARKER) ? 0 : -1;
  if (at < 0) return { output: stdout, result: undefined };
  const end = stdout.indexOf('\n', at);
  const line = stdout.slice(at + MARKER.length, end === -1 ? undefined : end);
  // The runner prints a newline of its own before the result line; it is not part of the output.
  const output = stdout.slice(0, Math.max(0, at - 1));
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { output, result: undefined };
  }
  const parsed = runnerResultSchema.safeParse(json);
  return { output, result: parsed.success ? parsed.data : undefined };
}

/** The error for a runner that could not start a process (its result says "fork":false). */
export function runnerCannotFork(op: string): HammerError {
  return new HammerError(
    'SANDBOX_PIDS_FULL',
    `the sandbox runner (${op}) could not start a process: every pid of the sandbox's limit is taken`,
    {
      hint: 'processes the tests started hold sandbox.pids_limit and did not go away when killed; raise sandbox.pids_limit if the tests need more processes',
    },
  );
}

/**
 * The result of a runner exec; SANDBOX_PIDS_FULL when the runner could not start a process,
 * SANDBOX_BROKEN when there is no result or it contradicts the exec's exit code.
 */
export function parseRunnerResult(stdout: string, options: { exitCode?: number } = {}): RunnerResult {
  const { result } = splitRunnerOutput(stdout);
  if (result?.fork === false) throw runnerCannotFork(result.op);
  if (result === undefined) {
    throw new HammerError('SANDBOX_BROKEN', 'the sandbox runner printed no valid result line', {
      hint: 'the image must provide sh, git, tar and coreutils (see docs/environments.md, "Bring your own image")',
    });
  }
  if (options.exitCode !== undefined && options.exitCode !== result.exit) {
    throw new HammerError(
      'SANDBOX_BROKEN',
      `the sandbox runner's result says exit ${result.exit} but the command exited ${options.exitCode}`,
    );
  }
  return result;
}
