// The whitelisted tools the loop may run inside the sandbox, each with a JSON contract.
import { z } from 'zod';
import { HammerError } from '../errors.js';
import type { ExecResult, Sandbox } from '../sandbox/types.js';

/** What every tool returns: the command's outcome as data. */
export const ToolOutputSchema = z.object({
  ok: z.boolean().describe('exit code was 0'),
  exit_code: z.number().int(),
  timed_out: z.boolean(),
  stdout: z.string().describe('capped (head and tail kept)'),
  stderr: z.string().describe('capped (head and tail kept)'),
  duration_ms: z.number(),
});
export type ToolOutput = z.infer<typeof ToolOutputSchema>;

/** A tool: a named, validated input turned into an argv run in /workspace. */
export interface Tool<I = unknown> {
  name: string;
  description: string;
  input: z.ZodType<I>;
  /** The command inside the sandbox (argv, no shell unless the tool says so). */
  argv(input: I): string[];
  timeoutSec: number;
}

const relPath = z
  .string()
  .min(1)
  .refine(
    (p) => !p.startsWith('/') && !p.split('/').includes('..') && !p.startsWith('-'),
    'a path relative to the repo, no "..", not starting with "-"',
  );
const patchFile = z.string().regex(/^\.git\/hammer\/[A-Za-z0-9._-]+$/, 'a patch placed by the host under .git/hammer/');

/** A tool of any input type: a registry holds tools of every input, and each one parses its own. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Tool<unknown> would reject tools with a typed argv
export type AnyTool = Tool<any>;

function tool<I>(t: Tool<I>): Tool<I> {
  return t;
}

/** The built-in tools. */
export const BUILTIN_TOOLS: AnyTool[] = [
  tool({
    name: 'git_status',
    description: 'working tree status (porcelain)',
    input: z.object({}).strict(),
    argv: () => ['git', 'status', '--porcelain=v1'],
    timeoutSec: 30,
  }),
  tool({
    name: 'git_diff',
    description: 'diff of the working tree against a revision (default HEAD)',
    input: z
      .object({
        rev: z
          .string()
          .regex(/^[A-Za-z0-9._/^~-]+$/)
          .optional(),
      })
      .strict(),
    argv: (i) => ['git', '--no-pager', 'diff', '--no-ext-diff', '--no-textconv', i.rev ?? 'HEAD'],
    timeoutSec: 30,
  }),
  tool({
    name: 'git_apply_check',
    description: 'check that a patch applies (git apply --check)',
    input: z.object({ patch: patchFile }).strict(),
    argv: (i) => ['git', 'apply', '--check', '--verbose', i.patch],
    timeoutSec: 30,
  }),
  tool({
    name: 'git_apply',
    description: 'apply a patch to the working tree (git apply)',
    input: z.object({ patch: patchFile }).strict(),
    argv: (i) => ['git', 'apply', i.patch],
    timeoutSec: 30,
  }),
  tool({
    name: 'git_log',
    description: 'one line per commit, newest first',
    input: z.object({ max: z.number().int().min(1).max(1000).default(20) }).strict(),
    argv: (i) => ['git', '--no-pager', 'log', '--oneline', `-n${i.max}`],
    timeoutSec: 30,
  }),
  tool({
    name: 'pytest',
    description: 'run pytest (quiet), optionally on some paths',
    input: z.object({ paths: z.array(relPath).default([]) }).strict(),
    argv: (i) => ['python3', '-m', 'pytest', '-q', ...i.paths],
    timeoutSec: 300,
  }),
  tool({
    name: 'compileall',
    description: 'byte-compile every Python file (syntax check)',
    input: z.object({}).strict(),
    argv: () => ['python3', '-m', 'compileall', '-q', '.'],
    timeoutSec: 120,
  }),
  tool({
    name: 'npm_build',
    description: 'npm run build (offline)',
    input: z.object({}).strict(),
    argv: () => ['npm', 'run', '--offline', 'build'],
    timeoutSec: 600,
  }),
  tool({
    name: 'lint',
    description: 'a lint command chosen by the repo config, run with sh -c',
    input: z.object({ command: z.string().min(1) }).strict(),
    argv: (i) => ['sh', '-c', i.command],
    timeoutSec: 300,
  }),
];

/** A set of tools; plugins register more. */
export class ToolRegistry {
  readonly #tools = new Map<string, AnyTool>();

  constructor(tools: AnyTool[] = BUILTIN_TOOLS) {
    for (const t of tools) this.register(t);
  }

  /** Add a tool; names are unique and snake_case. */
  register<I>(t: Tool<I>): void {
    if (!/^[a-z][a-z0-9_]*$/.test(t.name)) throw new HammerError('USAGE', `tool name must be snake_case: ${t.name}`);
    if (this.#tools.has(t.name)) throw new HammerError('USAGE', `a tool named ${t.name} is already registered`);
    this.#tools.set(t.name, t);
  }

  list(): AnyTool[] {
    return [...this.#tools.values()];
  }

  /** JSON contracts of every tool, for `tools list`. */
  contracts(): { name: string; description: string; timeout_sec: number; input: unknown; output: unknown }[] {
    const output = z.toJSONSchema(ToolOutputSchema);
    return this.list().map((t) => ({
      name: t.name,
      description: t.description,
      timeout_sec: t.timeoutSec,
      input: z.toJSONSchema(t.input, { io: 'input' }),
      output,
    }));
  }

  /** Validate the input and run the tool in the sandbox; a failing command is a result. */
  async run(
    sandbox: Sandbox,
    name: string,
    rawInput: unknown,
    options: { signal?: AbortSignal; maxOutputBytes?: number } = {},
  ): Promise<ToolOutput> {
    const t = this.#tools.get(name);
    if (!t) throw new HammerError('USAGE', `no tool named ${name}`, { hint: "see 'hammer-box tools list'" });
    const parsed = t.input.safeParse(rawInput);
    if (!parsed.success)
      throw new HammerError(
        'USAGE',
        `bad input for ${name}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    const r = await sandbox.exec(t.argv(parsed.data), { timeoutMs: t.timeoutSec * 1000, ...options });
    return toToolOutput(r);
  }
}

function toToolOutput(r: ExecResult): ToolOutput {
  return {
    ok: r.exitCode === 0 && !r.timedOut,
    exit_code: r.exitCode,
    timed_out: r.timedOut,
    stdout: r.stdout.text,
    stderr: r.stderr.text,
    duration_ms: Math.round(r.durationMs),
  };
}
