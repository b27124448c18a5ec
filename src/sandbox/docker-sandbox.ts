// One live sandbox on a Docker engine: exec, files in and out, kill, destroy. As on every backend,
// nothing copies into or runs in the sandbox while its resident runner starts: copies, reads and
// commands through the resident take their turn in one queue, behind a start warm() began.
import { posix } from 'node:path';
import { Readable } from 'node:stream';
import type Dockerode from 'dockerode';
import type { Logger } from 'pino';
import { HammerError, isHammerError, throwIfAborted } from '../errors.js';
import { packFiles, readSingleFile } from './archive.js';
import { watchCopy } from './copy-deadline.js';
import { packDirectory, repackTar } from './copy-in.js';
import { isEngineLost, isNotFound, sandboxFailure } from './docker-errors.js';
import { checkCommand, ContainerStateSchema, execInSandbox } from './exec.js';
import type { ResidentHost } from './attached.js';
import { dockerResidentHost } from './docker-attach.js';
import { killAllProcesses, unsettledError, type ExecTarget } from './kill-all.js';
import { Resident } from './resident.js';
import { WORKDIR } from './hardening.js';
import { RESIDENT_SETTLE_SECONDS } from './resident-script.js';
import { sleep } from './stream-end.js';
import { workspaceRelative } from './paths.js';
import type {
  CopyInStats,
  ExecOptions,
  ExecResult,
  RepoSource,
  Sandbox,
  SandboxFile,
  WorkspaceFileOp,
  WorkspaceFileResult,
} from './types.js';
import type { SandboxUser } from './user.js';

/** How often, and how far apart, a command that died of a signal looks whether its container stopped too. */
const SIGNAL_DEATH_LOOKS = 8;
const SIGNAL_DEATH_LOOK_MS = 125;

/** A sandbox backed by one container and one workspace volume. */
export class DockerSandbox implements Sandbox {
  readonly workdir = WORKDIR;
  private readonly target: ExecTarget;
  private readonly residentHost: ResidentHost;
  /** The resident runner; undefined before the first command and after it died. */
  private resident: Resident | undefined;
  /** False once the image could not run a resident: every command is then its own exec. */
  private residentPossible: boolean;
  /** Commands through the resident run one at a time, in call order. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly docker: Dockerode,
    readonly id: string,
    readonly runId: string,
    private readonly volumeName: string,
    private readonly owner: SandboxUser,
    private readonly logger?: Logger,
    options: { resident?: boolean } = {},
  ) {
    this.target = { container: docker.getContainer(id), user: `${owner.uid}:${owner.gid}` };
    this.residentHost = dockerResidentHost(this.target);
    this.residentPossible = options.resident ?? true;
  }

  /**
   * Run a command; a non-zero exit or a timeout is a result, unless the container itself stopped
   * under it (killed, out of memory, the engine restarting): then its exit code says nothing about
   * the command, and the sandbox is reported broken.
   */
  async exec(cmd: string[], options: ExecOptions): Promise<ExecResult> {
    let result: ExecResult;
    try {
      result = await this.run(cmd, options);
    } catch (err) {
      if (!isHammerError(err, 'SANDBOX_BROKEN')) throw err;
      // the resident's stream ends the moment its container is killed, a little before the engine
      // reports the container stopped: look a few times before calling it the resident's own death
      throw (await this.stoppedWithin(SIGNAL_DEATH_LOOKS, err, cmd)) ?? err;
    }
    if (result.exitCode !== 0) {
      // a command killed by a signal it did not get from us may have gone down with its container,
      // which the engine reports as stopped a moment later: look a few times before trusting it
      const looks = result.exitCode >= 128 && !result.timedOut ? SIGNAL_DEATH_LOOKS : 1;
      const stopped = await this.stoppedWithin(looks, null, cmd);
      if (stopped) throw stopped;
    }
    return result;
  }

  /** `stopped`, looked up to `looks` times SIGNAL_DEATH_LOOK_MS apart; null if it still runs after them. */
  private async stoppedWithin(looks: number, cause: HammerError | null, cmd: string[]): Promise<HammerError | null> {
    for (let look = 0; look < looks; look++) {
      if (look > 0) await sleep(SIGNAL_DEATH_LOOK_MS);
      const stopped = await this.stopped(cause, cmd);
      if (stopped) return stopped;
    }
    return null;
  }

  /** One command through the resident runner when the image can run one, else as its own exec. */
  private run(cmd: string[], options: ExecOptions): Promise<ExecResult> {
    if (!this.residentPossible) return execInSandbox(this.target, cmd, options);
    return this.serially(async () => {
      throwIfAborted(options.signal, 'command');
      checkCommand(cmd, options);
      const resident = await this.liveResident(options.signal);
      return resident ? resident.run(cmd, options) : execInSandbox(this.target, cmd, options);
    });
  }

  /** Start the resident now, in the background: the first command, copy or read queues behind it. */
  warm(): void {
    if (!this.residentPossible || this.resident) return;
    void this.serially(() => this.liveResident()).catch((err: unknown) => {
      this.logger?.debug({ err: String(err) }, 'resident runner not started early; the first command tries again');
    });
  }

  /** Run `work` after everything asked of the sandbox before it (the resident's start first). */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * The running resident, started when there is none (the first command, or after the last one
   * died or was killed); undefined when the image cannot run one. Every process of the sandbox user
   * is killed first, so none can be there to reach the new resident in the moment before it makes
   * itself non-dumpable.
   */
  private async liveResident(signal?: AbortSignal): Promise<Resident | undefined> {
    if (this.resident?.alive) return this.resident;
    this.resident = undefined;
    if (!this.residentPossible) return undefined;
    await killAllProcesses(this.target, signal);
    const started = await Resident.start(this.residentHost, this.logger, signal);
    if (!started) this.residentPossible = false;
    this.resident = started ?? undefined;
    return this.resident;
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
    await this.serially(() => this.putArchive(tar, options.signal, 'putting files'));
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
    const watched = watchCopy(packed.stream, 'copying the repo in');
    const signal = options.signal ? AbortSignal.any([options.signal, watched.signal]) : watched.signal;
    try {
      await this.serially(() => {
        watched.start();
        return this.putArchive(watched.stream, signal, 'copying the repo in');
      });
    } catch (err) {
      throw (options.signal?.aborted ? null : watched.stalled()) ?? err;
    } finally {
      watched.done();
      watched.stream.destroy();
      // On failure or abort the packer must stop reading and release its open files.
      packed.stream.destroy();
    }
    return { ...packed.stats };
  }

  /** Read one regular file of at most maxBytes; links, directories and oversize files are refused. */
  readFile(path: string, options: { maxBytes: number; signal?: AbortSignal }): Promise<Buffer> {
    return this.serially(() => this.readOne(path, options));
  }

  private async readOne(path: string, options: { maxBytes: number; signal?: AbortSignal }): Promise<Buffer> {
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

  /** The editor's file operation through the resident runner, in turn with commands; null when the image runs none. */
  workspaceFile(op: WorkspaceFileOp, options: { signal?: AbortSignal } = {}): Promise<WorkspaceFileResult | null> {
    if (!this.residentPossible) return Promise.resolve(null);
    return this.serially(async () => {
      throwIfAborted(options.signal, 'a file operation');
      const resident = await this.liveResident(options.signal);
      return resident ? resident.fileOp(op, WORKDIR, options.signal) : null;
    });
  }

  /** Kill every process of the sandbox user and wait until all are gone, keeping the sandbox alive. */
  killAll(options: { signal?: AbortSignal } = {}): Promise<void> {
    if (!this.resident) return killAllProcesses(this.target, options.signal);
    return this.serially(async () => {
      const settled = this.resident?.alive ? await this.resident.killAll() : null;
      if (settled === true) return;
      if (settled === false) throw unsettledError(RESIDENT_SETTLE_SECONDS);
      // no resident to ask: kill from outside (a resident that comes back later is started afresh)
      this.resident?.close();
      this.resident = undefined;
      await killAllProcesses(this.target, options.signal);
    });
  }

  /** Remove the container and its volume; a second call finds nothing and succeeds. */
  async destroy(options: { signal?: AbortSignal } = {}): Promise<void> {
    this.resident?.close();
    this.resident = undefined;
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
