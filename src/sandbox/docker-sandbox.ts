// One live sandbox on a Docker engine: exec, files in and out, kill, destroy.
import { posix } from 'node:path';
import { Readable } from 'node:stream';
import type Dockerode from 'dockerode';
import type { Logger } from 'pino';
import { HammerError, isHammerError, throwIfAborted } from '../errors.js';
import { packFiles, readSingleFile } from './archive.js';
import { packDirectory, repackTar } from './copy-in.js';
import { isEngineLost, isNotFound, sandboxFailure } from './docker-errors.js';
import { ContainerStateSchema, execInSandbox } from './exec.js';
import { killAllProcesses, type ExecTarget } from './kill-all.js';
import { WORKDIR } from './hardening.js';
import { sleep } from './stream-end.js';
import { workspaceRelative } from './paths.js';
import type { CopyInStats, ExecOptions, ExecResult, RepoSource, Sandbox, SandboxFile } from './types.js';
import type { SandboxUser } from './user.js';

/** How often, and how far apart, a command that died of a signal looks whether its container stopped too. */
const SIGNAL_DEATH_LOOKS = 8;
const SIGNAL_DEATH_LOOK_MS = 125;

/** A sandbox backed by one container and one workspace volume. */
export class DockerSandbox implements Sandbox {
  readonly workdir = WORKDIR;
  private readonly target: ExecTarget;

  constructor(
    private readonly docker: Dockerode,
    readonly id: string,
    readonly runId: string,
    private readonly volumeName: string,
    private readonly owner: SandboxUser,
    private readonly logger?: Logger,
  ) {
    this.target = { container: docker.getContainer(id), user: `${owner.uid}:${owner.gid}` };
  }

  /**
   * Run a command; a non-zero exit or a timeout is a result, unless the container itself stopped
   * under it (killed, out of memory, the engine restarting): then its exit code says nothing about
   * the command, and the sandbox is reported broken.
   */
  async exec(cmd: string[], options: ExecOptions): Promise<ExecResult> {
    let result: ExecResult;
    try {
      result = await execInSandbox(this.target, cmd, options);
    } catch (err) {
      if (isHammerError(err, 'SANDBOX_BROKEN')) throw (await this.stopped(err, cmd)) ?? err;
      throw err;
    }
    if (result.exitCode !== 0) {
      // a command killed by a signal it did not get from us may have gone down with its container,
      // which the engine reports as stopped a moment later: look a few times before trusting it
      const looks = result.exitCode >= 128 && !result.timedOut ? SIGNAL_DEATH_LOOKS : 1;
      for (let look = 0; look < looks; look++) {
        if (look > 0) await sleep(SIGNAL_DEATH_LOOK_MS);
        const stopped = await this.stopped(null, cmd);
        if (stopped) throw stopped;
      }
    }
    return result;
  }

  /**
   * When the container stopped (or vanished, or the engine went away) under a command, the error
   * that says so and why (out of memory, or its exit code), with what to do; null while it runs.
   */
  private async stopped(cause: HammerError | null, cmd: string[]): Promise<HammerError | null> {
    const what = cmd[0] ?? 'a command';
    let inspected: unknown;
    try {
      inspected = await this.target.container.inspect();
    } catch (err) {
      if (isNotFound(err))
        return new HammerError('SANDBOX_BROKEN', `the sandbox was removed while running ${what}`, {
          cause: cause ?? err,
        });
      if (isEngineLost(err)) return sandboxFailure(err, `running ${what}`);
      return null;
    }
    const parsed = ContainerStateSchema.safeParse(inspected);
    if (!parsed.success || parsed.data.State.Running) return null;
    const { State: state, HostConfig: host } = parsed.data;
    const why = state.OOMKilled
      ? 'it ran out of memory (sandbox.memory)'
      : `it exited with code ${state.ExitCode ?? 'unknown'}`;
    const hint =
      host?.Runtime === 'runsc'
        ? 'under gVisor, sandbox.memory and sandbox.pids_limit hold the whole sandbox, gVisor\'s own kernel included, so a test that exhausts them stops it: raise them, or set [sandbox] runtime = "" for this repository'
        : "something stopped the container (docker stop or kill, the engine restarting, or the host's out-of-memory killer)";
    return new HammerError('SANDBOX_BROKEN', `the sandbox stopped while running ${what}: ${why}`, {
      hint,
      ...(cause ? { cause } : {}),
    });
  }

  /** Place files under `dir` (inside the workspace) with one archive upload. */
  async putFiles(dir: string, files: SandboxFile[], options: { signal?: AbortSignal } = {}): Promise<void> {
    throwIfAborted(options.signal, 'putting files');
    const tar = await packFiles(workspaceRelative(dir), files, this.owner);
    await this.putArchive(tar, options.signal, 'putting files');
  }

  /** Copy the repo into the workspace as one tar stream. */
  async copyIn(source: RepoSource, options: { signal?: AbortSignal } = {}): Promise<CopyInStats> {
    throwIfAborted(options.signal, 'copying the repo in');
    const packed =
      source.kind === 'dir'
        ? packDirectory(source.path, this.owner)
        : source.normalized
          ? { stream: source.stream, stats: { files: 0, bytes: 0, skipped: 0 } } // its producer counts
          : repackTar(source.stream, this.owner);
    try {
      await this.putArchive(packed.stream, options.signal, 'copying the repo in');
    } finally {
      // On failure or abort the packer must stop reading and release its open files.
      packed.stream.destroy();
    }
    return { ...packed.stats };
  }

  /** Read one regular file of at most maxBytes; links, directories and oversize files are refused. */
  async readFile(path: string, options: { maxBytes: number; signal?: AbortSignal }): Promise<Buffer> {
    throwIfAborted(options.signal, 'reading a file');
    const rel = workspaceRelative(path);
    const abs = rel === '' ? WORKDIR : `${WORKDIR}/${rel}`;
    let archive: NodeJS.ReadableStream;
    try {
      archive = await this.target.container.getArchive({
        path: abs,
        ...(options.signal ? { abortSignal: options.signal } : {}),
      });
    } catch (err) {
      throw sandboxFailure(err, `reading ${abs}`, options.signal);
    }
    const source = archive instanceof Readable ? archive : Readable.from(archive);
    return readSingleFile(source, posix.basename(abs), options.maxBytes);
  }

  /** Kill every process of the sandbox user and wait until all are gone, keeping the sandbox alive. */
  killAll(options: { signal?: AbortSignal } = {}): Promise<void> {
    return killAllProcesses(this.target, options.signal);
  }

  /** Remove the container and its volume; a second call finds nothing and succeeds. */
  async destroy(options: { signal?: AbortSignal } = {}): Promise<void> {
    const signal = options.signal ? { abortSignal: options.signal } : {};
    await this.target.container.remove({ force: true, v: false, ...signal }).catch((err: unknown) => {
      if (!isNotFound(err)) throw sandboxFailure(err, 'removing the sandbox container', options.signal);
    });
    await removeVolume(this.docker, this.volumeName, options.signal);
    this.logger?.debug({ container: this.id, volume: this.volumeName }, 'sandbox destroyed');
  }

  private async putArchive(
    tar: Buffer | NodeJS.ReadableStream,
    signal: AbortSignal | undefined,
    what: string,
  ): Promise<void> {
    try {
      await this.target.container.putArchive(tar, { path: WORKDIR, ...(signal ? { abortSignal: signal } : {}) });
    } catch (err) {
      throw sandboxFailure(err, what, signal);
    }
  }
}

/** Remove a volume, treating "already gone" as done. Retries briefly while a just-removed container still holds it. */
export async function removeVolume(docker: Dockerode, name: string, signal?: AbortSignal): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await docker.getVolume(name).remove(signal ? { abortSignal: signal } : {});
      return;
    } catch (err) {
      if (isNotFound(err)) return;
      if (attempt >= 10 || signal?.aborted) throw sandboxFailure(err, `removing volume ${name}`, signal);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
