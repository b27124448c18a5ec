// Running git on the host: no shell, a scrubbed environment and the hardening overrides on every
// call (see git-hardening.ts).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { HammerError, abortError } from '../errors.js';
import { gitEnv, hardeningArgs } from './git-hardening.js';
import { gitLauncher, SIGKILL, SIGTERM, type GitLauncher, type LaunchHandlers, type Launched } from './launcher.js';

/** Where and how a git command runs. */
export interface GitOptions {
  /** Working directory; defaults to `gitDir` when given, else the process's. */
  cwd?: string;
  /** Passed as `--git-dir`, so git never discovers a repository on its own. */
  gitDir?: string;
  /** Extra variables (GIT_INDEX_FILE, author, ...), applied after the hardening. */
  env?: Readonly<Record<string, string>>;
  /** Bytes written to stdin (stdin is closed either way). */
  input?: Buffer | string;
  signal?: AbortSignal;
  /** Largest stdout kept, in bytes (default 64 MiB); more is a failure. */
  maxBuffer?: number;
  /** The host environment to start from (default process.env). */
  hostEnv?: Readonly<Record<string, string | undefined>>;
}

/** What a finished git command produced. */
export interface GitResult {
  stdout: Buffer;
  stderr: string;
  exitCode: number;
}

const DEFAULT_MAX_BUFFER = 64 * 1024 * 1024;
/** errno of a program not found (Linux and macOS alike). */
const ENOENT = 2;
const STDERR_KEEP = 64 * 1024;

/** The full argument vector for `git` (hardening, --git-dir, then `args`). */
export function gitArgv(args: readonly string[], gitDir?: string): string[] {
  const argv = hardeningArgs();
  if (gitDir !== undefined) argv.push(`--git-dir=${gitDir}`);
  return [...argv, ...args];
}

/** Start a hardened git process with piped stdio (for streaming readers); the caller drains it. */
export function spawnGit(args: readonly string[], opts: GitOptions = {}): ChildProcessWithoutNullStreams {
  const child = spawn('git', gitArgv(args, opts.gitDir), {
    cwd: opts.cwd ?? opts.gitDir,
    env: gitEnv(opts.env, opts.hostEnv),
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return child;
}

/** Run git and return its result whatever the exit code (failures as data). */
export function runGitResult(args: readonly string[], opts: GitOptions = {}): Promise<GitResult> {
  const what = describe(args);
  if (opts.signal?.aborted) return Promise.reject(abortError(opts.signal, what));
  const launcher = gitLauncher();
  if (launcher) return launched(launcher, args, opts, what);
  return spawned(args, opts, what);
}

// node spawns git itself
function spawned(args: readonly string[], opts: GitOptions, what: string): Promise<GitResult> {
  const maxBuffer = opts.maxBuffer ?? DEFAULT_MAX_BUFFER;
  return new Promise<GitResult>((resolve, reject) => {
    const child = spawnGit(args, opts);
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let failure: Error | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBuffer) {
        failure ??= new HammerError('GIT_FAILED', `${what} produced more than ${maxBuffer} bytes of output`);
        child.kill('SIGKILL');
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEEP);
    });
    child.stdin.on('error', () => {
      // git may exit before reading all of its input (e.g. a rejected patch); its exit code tells.
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (opts.signal?.aborted) failure ??= abortError(opts.signal, what);
      else if (err.code === 'ENOENT') {
        failure ??= new HammerError('GIT_FAILED', 'git is not installed or not on PATH', {
          hint: 'install git (https://git-scm.com) and try again',
          cause: err,
        });
      } else failure ??= new HammerError('GIT_FAILED', `${what} could not run: ${err.message}`, { cause: err });
    });
    child.on('close', (code, signal) => {
      if (opts.signal?.aborted) failure ??= abortError(opts.signal, what);
      if (failure !== undefined) return reject(failure);
      resolve({ stdout: Buffer.concat(chunks), stderr, exitCode: code ?? (signal ? 128 + signalNumber(signal) : 1) });
    });
    child.stdin.end(opts.input ?? '');
  });
}

// the launcher starts git (the same argv, working directory, environment and input), and the
// same limits hold: the output cap and the abort kill it, and an abort is reported as one
function launched(launcher: GitLauncher, args: readonly string[], opts: GitOptions, what: string): Promise<GitResult> {
  const maxBuffer = opts.maxBuffer ?? DEFAULT_MAX_BUFFER;
  const { signal } = opts;
  return new Promise<GitResult>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let failure: Error | undefined;
    const onAbort = (): void => {
      failure ??= abortError(signal, what);
      command.kill(SIGTERM);
    };
    const done = (): void => signal?.removeEventListener('abort', onAbort);
    const command = launchGit(launcher, args, opts, {
      stdout: (chunk) => {
        if (failure) return;
        size += chunk.length;
        if (size > maxBuffer) {
          failure = new HammerError('GIT_FAILED', `${what} produced more than ${maxBuffer} bytes of output`);
          command.kill(SIGKILL);
          return;
        }
        chunks.push(chunk);
      },
      stderr: (chunk) => {
        stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEEP);
      },
      exit: (exitCode) => {
        done();
        if (failure !== undefined) return reject(failure);
        resolve({ stdout: Buffer.concat(chunks), stderr, exitCode });
      },
      failed: (why) => {
        done();
        if (failure !== undefined) return reject(failure);
        // the helper went away before it started this one: node runs it
        if (why.errno === null && !why.started) return void spawned(args, opts, what).then(resolve, reject);
        reject(launchFailure(what, why));
      },
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Start `git args` through the launcher with what `opts` says (argv, working directory, environment, input). */
export function launchGit(
  launcher: GitLauncher,
  args: readonly string[],
  opts: GitOptions,
  handlers: LaunchHandlers,
  credit?: number,
): Launched {
  const input =
    opts.input === undefined ? Buffer.alloc(0) : typeof opts.input === 'string' ? Buffer.from(opts.input) : opts.input;
  return launcher.run(
    ['git', ...gitArgv(args, opts.gitDir)],
    {
      cwd: opts.cwd ?? opts.gitDir ?? process.cwd(),
      env: gitEnv(opts.env, opts.hostEnv),
      input,
      ...(credit === undefined ? {} : { credit }),
    },
    handlers,
  );
}

/** The GIT_FAILED error for a command the launcher could not run or lost (see LaunchHandlers.failed). */
export function launchFailure(what: string, why: Parameters<LaunchHandlers['failed']>[0]): HammerError {
  if (why.errno === null)
    return new HammerError('GIT_FAILED', `${what} was lost: the git launcher process ended under it`);
  if (why.stage === 'exec' && why.errno === ENOENT)
    return new HammerError('GIT_FAILED', 'git is not installed or not on PATH', {
      hint: 'install git (https://git-scm.com) and try again',
    });
  return new HammerError('GIT_FAILED', `${what} could not run (${why.stage}: errno ${why.errno})`);
}

/** Run git and throw GIT_FAILED (with git's stderr) unless it exits 0. */
export async function runGit(args: readonly string[], opts: GitOptions = {}): Promise<GitResult> {
  const result = await runGitResult(args, opts);
  if (result.exitCode !== 0) throw gitFailed(args, result);
  return result;
}

/** Run git and return its stdout as trimmed text (for plumbing that prints one value). */
export async function gitText(args: readonly string[], opts: GitOptions = {}): Promise<string> {
  return (await runGit(args, opts)).stdout.toString('utf8').trim();
}

/** The GIT_FAILED error for a command that exited non-zero. */
export function gitFailed(args: readonly string[], result: Pick<GitResult, 'stderr' | 'exitCode'>): HammerError {
  const detail = result.stderr.trim();
  return new HammerError(
    'GIT_FAILED',
    `${describe(args)} failed (exit ${result.exitCode})${detail ? `: ${detail}` : ''}`,
    {
      cause: { exitCode: result.exitCode, stderr: result.stderr },
    },
  );
}

function describe(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '-c' || arg === '-C') i++;
    else if (!arg.startsWith('-')) return `git ${arg}`;
  }
  return `git ${args.join(' ')}`;
}

function signalNumber(signal: NodeJS.Signals): number {
  return signal === 'SIGKILL' ? SIGKILL : signal === 'SIGTERM' ? SIGTERM : 0;
}
