// The repository inside the sandbox, driven through the runner: the loop's only way to run git
// and tests there. Everything that comes back is untrusted; only hashes and exit codes are used.
import { HammerError } from '../errors.js';
import { parseRunnerResult, patchPath, runnerArgv, runnerCannotFork, splitRunnerOutput } from '../runner/index.js';
import type { RunnerOp, RunnerResult } from '../runner/index.js';
import type { ExecOptions, ExecResult, Sandbox, WorkspaceFileOp, WorkspaceFileResult } from '../sandbox/types.js';

/** One iteration's sandbox work (see the runner's `step` op), with each stage's wall time. */
export type StepResult =
  | {
      kind: 'rejected';
      /** git's messages, every candidate's. */
      message: string;
      /** git's message for each candidate, in order. */
      messages: string[];
      validateMs: number;
    }
  | {
      kind: 'applied';
      /** Which candidate (0-based) passed its check and was applied. */
      candidate: number;
      commit: string;
      /** The commit's tree, when the sandbox named it (else its commit is checked against the host's tree: see sandboxCommitId). */
      tree?: string;
      /** The test run alone: output without the runner's lines, duration from the commit on. */
      test: ExecResult;
      validateMs: number;
      applyMs: number;
    };

/** Grace the runner's timeout(1) gives a test after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 5_000;
const RESULT_LINE = /\n?HAMMER_RESULT \{[^\n]*\}\n?$/;
const STAGE = /^HAMMER_STAGE (checked (\d{1,2})|applied ([0-9a-f]{40,64})(?: ([0-9a-f]{40,64}))?)\n/;
const CHECK_LINE = /^hammer-runner: check (\d{1,2})$/m;

/** What a workspace path is, as the runner found it (untrusted; see `inspect`). */
export type PathFacts =
  | { kind: 'file'; mode: number; size: number }
  | { kind: 'missing' }
  /** A component of the path is a symlink. */
  | { kind: 'link' }
  /** A component above the path is not a directory. */
  | { kind: 'blocked' }
  /** A directory or another non-regular file. */
  | { kind: 'other' };

/** Where the runner's `candidate` writes the change, relative to the workspace. */
const CANDIDATE_PATCH = '.git/hammer/candidate.patch';

/**
 * The shell an agent command runs in: into the directory the last one ended in (the workspace when
 * that is gone), the command evaluated with stdin closed and no positional parameters, then the
 * directory it ended in on a line of its own.
 */
const AGENT_SHELL = [
  'cd -- "$1" 2>/dev/null || cd /workspace || exit 125',
  '[ -d "$TMPDIR" ] || mkdir -p -- "$TMPDIR" 2>/dev/null',
  'hammer_command=$2',
  'set --',
  'eval "$hammer_command" </dev/null',
  'hammer_exit=$?',
  'printf \'\\nHAMMER_CWD %s\\n\' "$PWD"',
  'exit "$hammer_exit"',
].join('\n');
const CWD_LINE = /\nHAMMER_CWD ([^\n]{1,4096})\n$/;

/** One patch the step may apply: `git apply` flags from the runner's whitelist, and the patch text. */
export interface StepCandidate {
  flags: readonly string[];
  patch: string;
}

/** At most this many candidates go into one step (the runner refuses more). */
export const MAX_STEP_CANDIDATES = 8;

export interface SandboxRepoOptions {
  /** Timeout of every runner op but the tests, in ms. */
  execTimeoutMs: number;
  /** Bytes kept per stream and command. */
  maxOutputBytes: number;
}

/**
 * Runner operations on the sandbox's /workspace repository. Once it is made, the loop reaches that
 * repository only through here: a reset sent ahead (`resetAhead`) counts on it.
 */
export class SandboxRepo {
  /** A reset sent ahead of the next step; any other command here makes it stale. */
  private ahead: { commit: string; done: Promise<boolean> } | undefined;
  /** A step or a test ran (repository code, or a refused patch) since the last reset. */
  private used = false;

  constructor(
    readonly sandbox: Sandbox,
    private readonly options: SandboxRepoOptions,
  ) {}

  /**
   * When a step or a test ran since the last reset, put the sandbox's tree back at `commit` now,
   * while the model answers, instead of at the start of the next step. That step, if it starts at
   * `commit` and no command ran here in between (so no repository code ran since), skips its own
   * reset. A reset that fails only means the step resets as it always did; it never fails on its own.
   */
  resetAhead(commit: string): void {
    if (!this.used) return;
    this.used = false;
    const done = this.op('reset', [commit]).then(
      (r) => r.ok && r.commit === commit,
      () => false,
    );
    this.ahead = { commit, done };
  }

  /** Wait for a reset sent ahead (commands stay in order); true when it left the tree at `head`. */
  private async takeAhead(head?: string): Promise<boolean> {
    const ahead = this.ahead;
    if (!ahead) return false;
    this.ahead = undefined;
    return (await ahead.done) && ahead.commit === head;
  }

  /** Make the copied-in files a repository with one base commit; returns its commit and tree. */
  async init(signal?: AbortSignal): Promise<{ commit: string; tree: string }> {
    const r = await this.op('init', [], signal);
    return { commit: requireHash(r.commit, 'init'), tree: requireHash(r.tree, 'init') };
  }

  /**
   * One iteration in one exec: reset, check each candidate in turn, apply and commit the first that
   * passes, run the tests, kill what they left. All refused is a result (git's messages); the host
   * times each stage as its marker line arrives, and `onChecked` hears which candidate passed as
   * soon as the sandbox says so (before the tests run).
   */
  async step(
    head: string,
    name: string,
    candidates: readonly StepCandidate[],
    message: string,
    test: { command: string; timeoutMs: number; onOutput?: ExecOptions['onOutput'] },
    options: { signal?: AbortSignal; onChecked?: (candidate: number) => void } = {},
  ): Promise<StepResult> {
    if (candidates.length === 0 || candidates.length > MAX_STEP_CANDIDATES) {
      throw new HammerError(
        'INTERNAL',
        `a step takes 1 to ${MAX_STEP_CANDIDATES} candidates, not ${candidates.length}`,
      );
    }
    const { signal } = options;
    const t0 = performance.now();
    const clean = await this.takeAhead(head);
    this.used = true;
    let checked: { at: number; k: number } | undefined;
    let applied: { at: number; commit: string; tree: string | undefined } | undefined;
    let scanned = '';
    const args = candidates.flatMap((c) => [c.flags.join(' '), c.patch]);
    const sent = performance.now();
    const exec = await this.sandbox.exec(
      runnerArgv(
        'step',
        head,
        clean ? 'clean' : 'reset',
        name,
        message,
        String(Math.ceil(test.timeoutMs / 1000)),
        test.command,
        ...args,
      ),
      {
        // outer backstop only: the runner's timeout(1) ends the tests, then the grace, then this
        timeoutMs: this.options.execTimeoutMs + test.timeoutMs + KILL_GRACE_MS + 5_000,
        maxOutputBytes: this.options.maxOutputBytes,
        ...(signal ? { signal } : {}),
        onOutput: (stream, chunk) => {
          if (stream === 'stdout' && !applied) {
            // the stage lines come first, before any test output; scan only until both are seen
            scanned += chunk.toString('latin1');
            let m: RegExpExecArray | null;
            while (!applied && (m = STAGE.exec(scanned))) {
              if (m[2] !== undefined) {
                const k = Number(m[2]) - 1;
                if (checked === undefined && k >= 0 && k < candidates.length) {
                  checked = { at: performance.now(), k };
                  options.onChecked?.(k);
                }
              } else applied = { at: performance.now(), commit: m[3]!, tree: m[4] };
              scanned = scanned.slice(m[0].length);
            }
            if (applied && scanned && test.onOutput) test.onOutput('stdout', Buffer.from(scanned, 'latin1'));
            if (scanned.length > 4096 && !applied) scanned = scanned.slice(-4096);
            return;
          }
          if (applied && test.onOutput) {
            // the runner's own result line is not test output (the final capture is split exactly)
            const text = stream === 'stdout' ? chunk.toString('latin1').replace(RESULT_LINE, '') : undefined;
            if (text === undefined) test.onOutput(stream, chunk);
            else if (text) test.onOutput(stream, Buffer.from(text, 'latin1'));
          }
        },
      },
    );
    const end = performance.now();
    const result = exec.timedOut ? undefined : splitRunnerOutput(exec.stdout.text).result;
    if (result?.fork === false) throw runnerCannotFork('step');
    if (!applied) {
      if (result?.op === 'step' && result.settled === false)
        throw new HammerError(
          'SANDBOX_PIDS_FULL',
          'processes the earlier tests left in the sandbox were still there after being killed',
          { hint: 'a process the tests started cannot be killed; the sandbox is not usable any more' },
        );
      if (result && result.op === 'step' && result.applied === false && exec.exitCode === 1 && checked === undefined) {
        const messages = splitChecks(exec.stderr.text, candidates.length);
        const msg = messages.filter((m) => m !== '').join('\n') || `git apply --check exited ${result.exit}`;
        return { kind: 'rejected', message: msg, messages, validateMs: end - t0 };
      }
      throw new HammerError(
        'SANDBOX_BROKEN',
        `runner step ended before applying the patch (exit ${exec.exitCode}${exec.timedOut ? ', timed out' : ''}): ${exec.stderr.text.trim().slice(-300)}`,
      );
    }
    if (
      checked === undefined ||
      (result !== undefined && result.candidate !== undefined && result.candidate !== checked.k + 1)
    ) {
      throw new HammerError(
        'SANDBOX_BROKEN',
        'the runner applied a patch without saying which candidate passed its check',
      );
    }
    await this.settleAfterTests(exec, result, signal);
    const testMs = end - applied.at;
    // timeout(1)'s 124 (or its KILL's 137) is a timeout when the exec as a whole ran as long as the
    // limit: the tests ran inside it, so its time is never less than theirs. The applied line's
    // arrival is no start to measure from: under load it reaches the host late, and a test stopped
    // at its limit would then read as one that exited 124 early.
    const timedOut =
      exec.timedOut || ((exec.exitCode === 124 || exec.exitCode === 137) && end - sent >= test.timeoutMs);
    const stdout = stripStageLines(exec.stdout.text);
    const stderr = afterCheckLine(exec.stderr.text, checked.k);
    return {
      kind: 'applied',
      candidate: checked.k,
      commit: applied.commit,
      ...(applied.tree === undefined ? {} : { tree: applied.tree }),
      validateMs: checked.at - t0,
      applyMs: applied.at - checked.at,
      test: {
        ...exec,
        stdout: { ...exec.stdout, text: stdout },
        stderr: { ...exec.stderr, text: stderr },
        durationMs: testMs,
        timedOut,
      },
    };
  }

  /** Put the sandbox's tree back at `commit` (untracked files removed). */
  async reset(commit: string, signal?: AbortSignal): Promise<{ commit: string }> {
    const r = await this.op('reset', [commit], signal);
    this.used = false;
    if (!r.ok || r.commit !== commit)
      throw new HammerError('SANDBOX_BROKEN', `runner reset to ${commit.slice(0, 12)} failed (exit ${r.exit})`);
    return { commit };
  }

  /**
   * One agent command: a fresh `sh` in `cwd` evaluates it, as the sandbox user, with the tests' TMPDIR
   * (the /tmp tmpfs is noexec); returns its result and the directory it ended in (the next command
   * starts there). A failing or timed-out command is a result.
   */
  async shell(
    command: string,
    cwd: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ result: ExecResult; cwd: string }> {
    await this.takeAhead();
    this.used = true;
    const r = await this.sandbox.exec(['sh', '-c', AGENT_SHELL, 'hammer-agent', cwd, command], {
      timeoutMs,
      maxOutputBytes: this.options.maxOutputBytes,
      env: { TMPDIR: `${this.sandbox.workdir}/.git/hammer-tmp` },
      ...(signal ? { signal } : {}),
    });
    const m = CWD_LINE.exec(r.stdout.text);
    const next = m && m[1]!.startsWith('/') && !m[1]!.split('/').includes('..') ? m[1]! : cwd;
    return { result: m ? { ...r, stdout: { ...r.stdout, text: r.stdout.text.slice(0, m.index) } } : r, cwd: next };
  }

  /**
   * Kill whatever the sandbox user still runs and wait until it is gone: before the host checks a
   * path and writes through it, nothing in the sandbox may be left to change it in between.
   */
  async settle(signal?: AbortSignal): Promise<void> {
    await this.takeAhead();
    await this.sandbox.killAll(signal ? { signal } : {});
  }

  /** What a workspace-relative path is (see the runner's `inspect`): untrusted, checked just before the host reads or writes it. */
  async inspect(path: string, signal?: AbortSignal): Promise<PathFacts> {
    const r = await this.op('inspect', [path], signal);
    if (!r.ok) throw new HammerError('INTERNAL', `runner inspect refused ${JSON.stringify(path)} (exit ${r.exit})`);
    if (r.link) return { kind: 'link' };
    if (r.blocked) return { kind: 'blocked' };
    if (!r.exists) return { kind: 'missing' };
    if (!r.regular) return { kind: 'other' };
    return { kind: 'file', mode: parseInt(String(r.mode ?? 644), 8) & 0o777, size: r.size ?? 0 };
  }

  /** A regular file of the workspace, byte for byte (links and non-regular files refused, at most `maxBytes`). */
  async readFile(path: string, maxBytes: number, signal?: AbortSignal): Promise<Buffer> {
    await this.takeAhead();
    const read = await this.fileOp({ op: 'read', path, maxBytes }, signal);
    if (read === null)
      return this.sandbox.readFile(`${this.sandbox.workdir}/${path}`, { maxBytes, ...(signal ? { signal } : {}) });
    if (read.kind === 'file' && read.content !== null) return read.content;
    throw new HammerError(
      'SANDBOX_BROKEN',
      `refused to read ${path} from the sandbox: ${read.kind === 'file' ? `${read.size} bytes is over the ${maxBytes}-byte cap` : read.kind === 'failed' ? read.reason : `it is ${read.kind === 'link' ? 'a symbolic link or goes through one' : read.kind === 'other' ? 'not a regular file' : 'not there'}`}`,
    );
  }

  /**
   * A workspace path for the editor: what it is and, for a regular file of at most `maxBytes`, its
   * bytes (null over the cap). Every process of the sandbox user is gone first, so nothing changes
   * the path between this and a write; no link is followed. Through the resident runner, one
   * message; without one, the runner's `inspect` and the engine's archive read.
   */
  async openFile(path: string, maxBytes: number, signal?: AbortSignal): Promise<WorkspaceFileResult> {
    await this.takeAhead();
    const read = await this.fileOp({ op: 'read', path, maxBytes }, signal);
    if (read !== null) return read;
    await this.settle(signal);
    const facts = await this.inspect(path, signal);
    if (facts.kind !== 'file') return facts;
    const content =
      facts.size > maxBytes
        ? null
        : await this.sandbox.readFile(`${this.sandbox.workdir}/${path}`, { maxBytes, ...(signal ? { signal } : {}) });
    return { ...facts, content };
  }

  /**
   * Write one regular file of the workspace (owned by the sandbox user, with `mode`), making the
   * directories above it; a link on the way, or a non-regular file there, is refused as such.
   */
  async writeFile(path: string, content: Buffer, mode: number, signal?: AbortSignal): Promise<WorkspaceFileResult> {
    await this.takeAhead();
    this.used = true;
    const written = await this.fileOp({ op: 'write', path, content, mode }, signal);
    if (written !== null) return written;
    await this.sandbox.putFiles(this.sandbox.workdir, [{ path, content, mode }], signal ? { signal } : {});
    return { kind: 'done' };
  }

  /** Remove one regular file of the workspace (missing: nothing to do); a link or a directory is refused as such. */
  async removeFile(path: string, signal?: AbortSignal): Promise<WorkspaceFileResult> {
    await this.takeAhead();
    this.used = true;
    const removed = await this.fileOp({ op: 'remove', path }, signal);
    if (removed !== null) return removed;
    const quoted = `'${path.replace(/'/g, `'\\''`)}'`;
    await this.shell(`rm -f -- ${quoted}`, this.sandbox.workdir, this.options.execTimeoutMs, signal);
    return { kind: 'done' };
  }

  /** A file operation through the sandbox's resident runner; null when it has none. */
  private fileOp(op: WorkspaceFileOp, signal?: AbortSignal): Promise<WorkspaceFileResult | null> {
    if (!this.sandbox.workspaceFile) return Promise.resolve(null);
    return this.sandbox.workspaceFile(op, signal ? { signal } : {});
  }

  /**
   * The work tree's change against `commit` (see the runner's `candidate`), as untrusted bytes: null
   * when nothing changed, `{ tooLarge }` when it is over `maxBytes`.
   */
  async candidate(
    commit: string,
    maxBytes: number,
    signal?: AbortSignal,
  ): Promise<Buffer | null | { tooLarge: number }> {
    const r = await this.op('candidate', [commit], signal);
    if (!r.ok || r.bytes === undefined)
      throw new HammerError('SANDBOX_BROKEN', `runner candidate failed (exit ${r.exit})`);
    if (r.bytes === 0) return null;
    if (r.bytes > maxBytes) return { tooLarge: r.bytes };
    return this.readFile(CANDIDATE_PATCH, maxBytes, signal);
  }

  /**
   * The work tree back to exactly `commit` plus `change` (a diff against it; null for none), HEAD
   * and the index left at `commit` (see the runner's `restore`). Whatever the sandbox user runs is
   * killed first. False when the change does not apply (the tree is then at `commit`).
   */
  async restore(commit: string, change: Buffer | null, signal?: AbortSignal): Promise<boolean> {
    await this.settle(signal);
    const args = [commit];
    if (change !== null && change.length > 0) {
      const path = patchPath('restore.patch');
      await this.sandbox.putFiles(this.sandbox.workdir, [{ path, content: change }], signal ? { signal } : {});
      args.push(path);
    }
    const r = await this.op('restore', args, signal);
    this.used = true;
    if (r.ok) return true;
    if (r.exit === 1 && args.length === 2) return false;
    throw new HammerError('SANDBOX_BROKEN', `runner restore to ${commit.slice(0, 12)} failed (exit ${r.exit})`);
  }

  /** Run the test command (sh -c in /workspace); a failing or timed-out test is a result. */
  async test(
    command: string,
    timeoutMs: number,
    onOutput?: ExecOptions['onOutput'],
    signal?: AbortSignal,
  ): Promise<ExecResult> {
    await this.takeAhead();
    this.used = true;
    const seconds = String(Math.ceil(timeoutMs / 1000));
    const r = await this.sandbox.exec(runnerArgv('test', seconds, command), {
      // the host's timer is the real limit; the runner's own `timeout` is a backstop a second later
      timeoutMs,
      maxOutputBytes: this.options.maxOutputBytes,
      ...(onOutput ? { onOutput } : {}),
      ...(signal ? { signal } : {}),
    });
    // The runner's result line is not test output.
    const { output, result } = splitRunnerOutput(r.stdout.text);
    await this.settleAfterTests(r, r.timedOut ? undefined : result, signal);
    return { ...r, stdout: { ...r.stdout, text: output } };
  }

  /**
   * Before the next command, every process of the tests must be gone and the pids limit free. The
   * runner waits for that itself ("settled": true); a timed-out exec was killed and waited for by
   * the exec. Otherwise (the runner died, or gave up waiting) kill and wait from the host:
   * SANDBOX_PIDS_FULL when the processes never go.
   */
  private async settleAfterTests(exec: ExecResult, result: RunnerResult | undefined, signal?: AbortSignal) {
    if (result?.fork === false) throw runnerCannotFork(result.op);
    if (exec.timedOut || (result?.settled === true && result.exit === exec.exitCode)) return;
    await this.sandbox.killAll(signal ? { signal } : {});
  }

  private async op(op: RunnerOp, args: string[], signal?: AbortSignal) {
    await this.takeAhead();
    const exec = await this.exec(runnerArgv(op, ...args), signal);
    if (exec.timedOut)
      throw new HammerError('SANDBOX_BROKEN', `runner ${op} timed out after ${this.options.execTimeoutMs} ms`);
    return parseRunnerResult(exec.stdout.text, { exitCode: exec.exitCode });
  }

  private exec(argv: string[], signal?: AbortSignal): Promise<ExecResult> {
    return this.sandbox.exec(argv, {
      timeoutMs: this.options.execTimeoutMs,
      maxOutputBytes: this.options.maxOutputBytes,
      ...(signal ? { signal } : {}),
    });
  }
}

/** Test output without the runner's stage lines before it and its result line after it. */
function stripStageLines(stdout: string): string {
  let text = splitRunnerOutput(stdout).output;
  for (let m = STAGE.exec(text); m; m = STAGE.exec(text)) text = text.slice(m[0].length);
  return text;
}

/**
 * The test's stderr of an applied step: what follows the runner's "check <k>" line of the candidate
 * that applied (the runner's lines and git's messages about the candidates before it are not test
 * output). The runner prints that line before any test runs, so its first occurrence is the runner's.
 */
function afterCheckLine(stderr: string, k: number): string {
  const marker = `\nhammer-runner: check ${k + 1}\n`;
  const text = `\n${stderr}`;
  const at = text.indexOf(marker);
  return at < 0 ? stderr : text.slice(at + marker.length);
}

/** stderr of a refused step split per candidate at the runner's "check <k>" lines (untrusted text). */
function splitChecks(stderr: string, count: number): string[] {
  const out = Array.from({ length: count }, () => '');
  let current = -1;
  for (const line of stderr.split('\n')) {
    const m = CHECK_LINE.exec(line);
    if (m) {
      current = Number(m[1]) - 1;
      continue;
    }
    if (current >= 0 && current < count) out[current] = out[current] === '' ? line : `${out[current]}\n${line}`;
  }
  return out.map((m) => m.trim());
}

function requireHash(value: string | undefined, op: string): string {
  if (!value || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(value))
    throw new HammerError('SANDBOX_BROKEN', `runner ${op} returned no valid object id`);
  return value;
}
