// The repository inside the sandbox, driven through the runner: the loop's only way to run git
// and tests there. Everything that comes back is untrusted; only hashes and exit codes are used.
import { HammerError } from '../errors.js';
import { PATCH_DIR, parseRunnerResult, patchPath, runnerArgv, splitRunnerOutput } from '../runner/index.js';
import type { RunnerOp } from '../runner/index.js';
import type { ExecOptions, ExecResult, Sandbox } from '../sandbox/types.js';

/** Result of `git apply --check` in the sandbox: git's own message when it refuses. */
export type ApplyCheck = { ok: true } | { ok: false; message: string };

export interface SandboxRepoOptions {
  /** Timeout of every runner op but the tests, in ms. */
  execTimeoutMs: number;
  /** Bytes kept per stream and command. */
  maxOutputBytes: number;
}

/** Runner operations on the sandbox's /workspace repository. */
export class SandboxRepo {
  constructor(
    readonly sandbox: Sandbox,
    private readonly options: SandboxRepoOptions,
  ) {}

  /** Make the copied-in files a repository with one base commit; returns its tree hash. */
  async init(signal?: AbortSignal): Promise<string> {
    const r = await this.op('init', [], signal);
    return requireHash(r.tree, 'init');
  }

  /** Place the patch under .git/hammer and check it with `git apply --check`. */
  async applyCheck(name: string, patch: string, signal?: AbortSignal): Promise<ApplyCheck> {
    await this.sandbox.putFiles(`${this.sandbox.workdir}/${PATCH_DIR}`, [{ path: name, content: patch }], signal ? { signal } : {});
    const exec = await this.exec(runnerArgv('apply-check', patchPath(name)), signal);
    const result = parseRunnerResult(exec.stdout.text, { exitCode: exec.exitCode });
    if (result.ok) return { ok: true };
    const message = exec.stderr.text.trim() || splitRunnerOutput(exec.stdout.text).output.trim() || `git apply --check exited ${result.exit}`;
    return { ok: false, message };
  }

  /** Apply a checked patch and commit it; returns the sandbox's commit and tree hashes. */
  async applyAndCommit(name: string, message: string, signal?: AbortSignal): Promise<{ commit: string; tree: string }> {
    const applied = await this.op('apply', [patchPath(name)], signal);
    if (!applied.ok) throw new HammerError('SANDBOX_BROKEN', `git apply failed in the sandbox after its check passed (exit ${applied.exit})`);
    const c = await this.op('commit', [message], signal);
    return { commit: requireHash(c.commit, 'commit'), tree: requireHash(c.tree, 'commit') };
  }

  /** Throw away anything left in the working tree (by tests or a failed apply) back to HEAD. */
  async reset(signal?: AbortSignal): Promise<void> {
    await this.op('reset', [], signal);
  }

  /** Run the test command (sh -c in /workspace); a failing or timed-out test is a result. */
  async test(command: string, timeoutMs: number, onOutput?: ExecOptions['onOutput'], signal?: AbortSignal): Promise<ExecResult> {
    const seconds = String(Math.ceil(timeoutMs / 1000));
    const r = await this.sandbox.exec(runnerArgv('test', seconds, command), {
      // the host's timer is the real limit; the runner's own `timeout` is a backstop a second later
      timeoutMs,
      maxOutputBytes: this.options.maxOutputBytes,
      ...(onOutput ? { onOutput } : {}),
      ...(signal ? { signal } : {}),
    });
    // The runner's result line is not test output.
    const { output } = splitRunnerOutput(r.stdout.text);
    return { ...r, stdout: { ...r.stdout, text: output } };
  }

  private async op(op: RunnerOp, args: string[], signal?: AbortSignal) {
    const exec = await this.exec(runnerArgv(op, ...args), signal);
    if (exec.timedOut) throw new HammerError('SANDBOX_BROKEN', `runner ${op} timed out after ${this.options.execTimeoutMs} ms`);
    return parseRunnerResult(exec.stdout.text, { exitCode: exec.exitCode });
  }

  private exec(argv: string[], signal?: AbortSignal): Promise<ExecResult> {
    return this.sandbox.exec(argv, { timeoutMs: this.options.execTimeoutMs, maxOutputBytes: this.options.maxOutputBytes, ...(signal ? { signal } : {}) });
  }
}

function requireHash(value: string | undefined, op: string): string {
  if (!value || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(value)) throw new HammerError('SANDBOX_BROKEN', `runner ${op} returned no valid object id`);
  return value;
}
