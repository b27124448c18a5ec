// Running gh or glab: found on your PATH (absolute directories only), started without a shell in an
// empty temporary directory (never in the repository, whose git config they would read), with your
// environment (its GH_TOKEN / GITLAB_TOKEN is how they authenticate: no token is ever an argument),
// prompts off, output bounded and a deadline.
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HammerError, abortError } from '../errors.js';
import type { ToolCall } from './forge.js';

/** What a finished tool call printed and how it exited. */
export interface ToolResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Longest a gh or glab call may take. */
export const TOOL_TIMEOUT_MS = 2 * 60_000;

/** Output kept per stream, in bytes. */
const KEEP_BYTES = 64 * 1024;

/** The tool's executable on PATH (absolute directories only), or null when it is not installed. */
export async function findTool(
  name: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | null> {
  for (const dir of (env['PATH'] ?? '').split(':')) {
    if (!dir.startsWith('/')) continue;
    const path = join(dir, name);
    try {
      if ((await stat(path)).isFile()) {
        await access(path, constants.X_OK);
        return path;
      }
    } catch {
      // not here
    }
  }
  return null;
}

/** Run `call` with the executable at `path`: a tool that cannot start is FORGE_UNAVAILABLE, one past its deadline PR_FAILED. */
export async function runTool(
  path: string,
  call: ToolCall,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
): Promise<ToolResult> {
  const what = `${call.tool} ${call.args.slice(0, 2).join(' ')}`;
  if (signal?.aborted) throw abortError(signal, what);
  const cwd = await mkdtemp(join(tmpdir(), 'hammer-box-forge-'));
  const deadline = AbortSignal.timeout(TOOL_TIMEOUT_MS);
  const stop = signal ? AbortSignal.any([signal, deadline]) : deadline;
  try {
    return await new Promise<ToolResult>((resolve, reject) => {
      const child = spawn(path, call.args, {
        cwd,
        env: {
          ...env,
          GH_PROMPT_DISABLED: '1',
          GH_NO_UPDATE_NOTIFIER: '1',
          NO_PROMPT: '1',
          NO_COLOR: '1',
          GIT_TERMINAL_PROMPT: '0',
        },
        stdio: ['pipe', 'pipe', 'pipe'],
        signal: stop,
        killSignal: 'SIGKILL',
      });
      let stdout = '';
      let stderr = '';
      const keep = (acc: string, chunk: string): string => (acc.length < KEEP_BYTES ? acc + chunk : acc);
      child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout = keep(stdout, c)));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr = keep(stderr, c)));
      child.stdin.on('error', () => {
        // the tool may exit before reading its input; its exit code says what happened
      });
      child.once('error', (err) => {
        if (signal?.aborted) return reject(abortError(signal, what));
        if (deadline.aborted)
          return reject(
            new HammerError('PR_FAILED', `${what} did not finish within ${TOOL_TIMEOUT_MS / 1000} s`, {
              hint: `check that ${call.tool} can reach the forge, then run hammer-box pr again`,
            }),
          );
        reject(
          new HammerError('FORGE_UNAVAILABLE', `${call.tool} could not be started: ${err.message}`, {
            hint: `check the ${call.tool} installation (${path})`,
            cause: err,
          }),
        );
      });
      child.once('close', (code, sig) => resolve({ exitCode: code ?? (sig ? 128 : 1), stdout, stderr }));
      child.stdin.end(call.stdin);
    });
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}
