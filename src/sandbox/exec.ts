// Running a command in a sandbox: demuxed, capped, live, with a wall-clock timeout and an abort
// that kill every process of the sandbox user (and wait until they are gone), and the exit code
// read after the stream has ended.
import type { Duplex } from 'node:stream';
import type Dockerode from 'dockerode';
import { z } from 'zod';
import { HammerError, abortError, isHammerError, throwIfAborted } from '../errors.js';
import { OutputCapture } from './capture.js';
import { FrameDemuxer } from './demux.js';
import { sandboxFailure } from './docker-errors.js';
import { envList, WORKDIR } from './hardening.js';
import { execState, killAllProcesses, pidsFull, pidsFullError, type ExecTarget } from './kill-all.js';
import { settlesWithin, sleep, streamEnd } from './stream-end.js';
import type { ExecOptions, ExecResult } from './types.js';

/** Bytes kept per stream when the caller gives no cap. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/** How often a running exec looks at its container (the first look comes after this long, too). */
export const CONTAINER_WATCH_MS = 2_000;

/** Call `onStopped` once the container is seen not running; looks every CONTAINER_WATCH_MS until stopped. */
export function watchContainer(container: Dockerode.Container, onStopped: () => void): { stop(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const look = async (): Promise<void> => {
    const info: unknown = await Promise.resolve()
      .then(() => container.inspect())
      .catch(() => null);
    if (stopped) return;
    const running = ContainerStateSchema.safeParse(info);
    // an engine that cannot answer is the exit poll's to report; only a clear "not running" counts
    if (running.success && !running.data.State.Running) return onStopped();
    timer = setTimeout(() => void look(), CONTAINER_WATCH_MS);
  };
  timer = setTimeout(() => void look(), CONTAINER_WATCH_MS);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** What a container inspect says about its life: the exec watchdog and the sandbox's "did it stop?" read it. */
export const ContainerStateSchema = z.object({
  State: z.object({ Running: z.boolean(), OOMKilled: z.boolean().optional(), ExitCode: z.number().int().nullish() }),
  HostConfig: z.object({ Runtime: z.string().nullish() }).nullish(),
});

async function startExec(
  target: ExecTarget,
  cmd: string[],
  env: Record<string, string>,
  cwd: string,
  signal?: AbortSignal,
) {
  const exec = await target.container.exec({
    Cmd: cmd,
    Env: envList(env),
    WorkingDir: cwd,
    User: target.user,
    AttachStdin: false,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    ...(signal ? { abortSignal: signal } : {}),
  });
  const stream: Duplex = await exec.start({ hijack: true, stdin: false });
  return { exec, stream };
}

/** Refuse what no exec could run: an empty argv or an environment name the shell cannot hold. */
export function checkCommand(cmd: string[], options: ExecOptions): void {
  if (cmd.length === 0) throw new HammerError('INTERNAL', 'exec needs a command');
  const badName = Object.keys(options.env ?? {}).find((k) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(k));
  if (badName !== undefined)
    throw new HammerError('INTERNAL', `not an environment variable name: ${JSON.stringify(badName)}`);
}

/** Run `cmd` (argv, no shell) in the sandbox; a failing or timed-out command is a result, a broken sandbox throws. */
export async function execInSandbox(target: ExecTarget, cmd: string[], options: ExecOptions): Promise<ExecResult> {
  const { signal } = options;
  throwIfAborted(signal, 'command');
  checkCommand(cmd, options);
  const started = performance.now();
  const max = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const out = { stdout: new OutputCapture(max), stderr: new OutputCapture(max) };
  let callbackError: Error | undefined;
  const demux = new FrameDemuxer((name, payload) => {
    out[name].push(payload);
    if (options.onOutput && callbackError === undefined) {
      try {
        options.onOutput(name, payload);
      } catch (err) {
        callbackError = err instanceof Error ? err : new Error(String(err));
      }
    }
  });

  let exec: Dockerode.Exec;
  let stream: Duplex;
  try {
    ({ exec, stream } = await startExec(target, cmd, options.env ?? {}, options.cwd ?? WORKDIR, signal));
  } catch (err) {
    throw sandboxFailure(err, `starting ${cmd[0]}`, signal);
  }
  stream.on('data', (chunk: Buffer) => demux.push(chunk));
  const ended = streamEnd(stream);

  let timedOut = false;
  let aborted = false;
  // the last kill's failure: processes that outlived it leave the sandbox unusable for the next command
  let killFailure: unknown;
  let killing: Promise<void> | undefined;
  const killUntilEnded = (): Promise<void> =>
    (killing ??= (async () => {
      for (let round = 0; round < 3; round++) {
        killFailure = await killAllProcesses(target).then(
          () => undefined,
          (err: unknown) => err,
        );
        if (await settlesWithin(ended, 5_000)) return;
      }
      stream.destroy();
    })());
  const timer = setTimeout(() => {
    timedOut = true;
    void killUntilEnded();
  }, options.timeoutMs);
  // An abort ends the whole run, whose cleanup removes the container with every process in it: stop
  // reading at once and kill in the background, never spending the interrupt's short grace time
  // (SIGINT/SIGTERM end the process within five seconds) waiting for the processes to go.
  const onAbort = (): void => {
    aborted = true;
    if (!killing) void killAllProcesses(target).catch(() => undefined);
    stream.destroy();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  // A container that stops under a long command (under gVisor a memory or fork bomb takes the whole
  // sandbox down) can leave the exec's stream open: look at the container now and then, and stop
  // waiting when it no longer runs.
  let containerStopped = false;
  const watchdog = watchContainer(target.container, () => {
    containerStopped = true;
    stream.destroy();
  });

  let streamError: unknown;
  try {
    await ended;
  } catch (err) {
    streamError = err;
  } finally {
    clearTimeout(timer);
    watchdog.stop();
    signal?.removeEventListener('abort', onAbort);
    stream.destroy();
  }
  if (containerStopped && !aborted)
    throw new HammerError('SANDBOX_BROKEN', `the sandbox stopped while running ${cmd[0]}`);
  if (aborted) throw abortError(signal, 'command');
  // Never return while a killer is in flight: it would hit the next command's processes.
  if (killing) await killing;
  // a timed-out command whose processes did not go away: the next command could not start
  if (isHammerError(killFailure, 'SANDBOX_PIDS_FULL')) throw killFailure;
  if (streamError !== undefined && !timedOut) throw sandboxFailure(streamError, `reading the output of ${cmd[0]}`);
  if (callbackError !== undefined) throw callbackError;

  // the engine can go away between the stream's end and the exit code (a daemon restart): typed, never raw
  const inspect = () =>
    execState(exec).catch((err: unknown) => {
      throw sandboxFailure(err, `inspecting ${cmd[0]}`);
    });
  let state = await inspect();
  // The streams can close before the process exits (it closed stdout and stderr itself): wait for it.
  let polls = 0;
  while (state.running) {
    if (signal?.aborted) {
      await killAllProcesses(target).catch(() => undefined);
      throw abortError(signal, 'command');
    }
    if (!timedOut && performance.now() - started >= options.timeoutMs) {
      timedOut = true;
      await killAllProcesses(target);
    }
    // Docker records the exit a moment after the streams close: poll soon, then back off
    await sleep(Math.min(20, 2 ** polls++));
    state = await inspect();
  }
  // the engine could not start the process (exit 126): when the pids limit is why, say so
  if (state.exitCode === 126 && !timedOut) {
    const full = await pidsFull(target.container);
    if (full) throw pidsFullError(`could not start ${cmd[0]} in the sandbox`, full.limit);
  }
  return {
    exitCode: state.exitCode ?? (timedOut ? 137 : -1),
    stdout: out.stdout.result(),
    stderr: out.stderr.result(),
    durationMs: performance.now() - started,
    timedOut,
  };
}
