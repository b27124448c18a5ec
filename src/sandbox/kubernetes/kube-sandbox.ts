// One live sandbox on a Kubernetes cluster: a pod, its deny-all policy, and the resident runner
// over one pods/exec stream, as on Docker; files go in through an exec'd tar and come back through
// another, one regular file at a time. Every process the backend starts in the pod (the resident,
// a tar, the killer) runs in one order, one at a time: the resident's start and every command's end
// kill every process of the sandbox user, so a tar running beside them would be killed with them.
import { PassThrough, Readable } from 'node:stream';
import { posix } from 'node:path';
import type { Logger } from 'pino';
import { HammerError, isHammerError, throwIfAborted } from '../../errors.js';
import { packFiles, readSingleFile } from '../archive.js';
import type { ResidentHost } from '../attached.js';
import { watchCopy } from '../copy-deadline.js';
import { packDirectory, repackTar } from '../copy-in.js';
import { checkCommand } from '../exec.js';
import { WORKDIR } from '../hardening.js';
import { unsettledError } from '../kill-all.js';
import { workspaceRelative } from '../paths.js';
import { Resident } from '../resident.js';
import { RESIDENT_SCRIPT, RESIDENT_SETTLE_SECONDS } from '../resident-script.js';
import { sleep } from '../stream-end.js';
import type {
  CopyInStats,
  ExecOptions,
  ExecResult,
  RepoSource,
  Sandbox,
  SandboxFile,
  WorkspaceFileOp,
  WorkspaceFileResult,
} from '../types.js';
import type { SandboxUser } from '../user.js';
import { execPath } from './exec-frames.js';
import { openExec } from './exec-socket.js';
import type { KubeApi } from './kube-api.js';
import { messageOf } from './kube-errors.js';
import { residentPrelude } from './keeper.js';
import { CONTAINER } from './manifests.js';
import { podStopped } from './pod-start.js';
import { exitCodeOf, killAllInPod, runInPod, type PodTarget } from './pod-process.js';

/** How often a running command looks at its pod. */
const POD_WATCH_MS = 2_000;

/** What a sandbox pod is made of. */
export interface KubeSandboxParts {
  api: KubeApi;
  pod: string;
  policy: string;
  runId: string;
  owner: SandboxUser;
  /** RLIMIT_NOFILE for the resident and its commands; the pod's pids limit (the kubelet's podPidsLimit), when known. */
  limits: { nofile: number; pods?: number };
  /** Variables of the spec (the resident drops every other KUBERNETES_* one). */
  envKeys: string[];
  /** How long a copy in may go without progress (default COPY_STALL_MS). */
  copyStallMs?: number;
  logger?: Logger;
}

/** A sandbox backed by one pod and its NetworkPolicy. */
export class KubeSandbox implements Sandbox {
  readonly workdir = WORKDIR;
  readonly id: string;
  readonly runId: string;
  private readonly target: PodTarget;
  private readonly host: ResidentHost;
  private readonly residentArgv: string[];
  private resident: Resident | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly parts: KubeSandboxParts) {
    this.id = parts.pod;
    this.runId = parts.runId;
    this.target = { endpoint: parts.api.endpoint, namespace: parts.api.namespace, pod: parts.pod };
    this.residentArgv = ['perl', '-e', residentPrelude(parts.limits, parts.envKeys) + RESIDENT_SCRIPT];
    this.host = {
      attach: (argv, signal) =>
        openExec(this.target.endpoint, execPath(this.target.namespace, parts.pod, CONTAINER, argv, true), {
          what: 'starting the resident runner',
          ...(signal ? { signal, handshakeOnly: true } : {}),
        }),
      killAll: (signal) => killAllInPod(this.target, signal),
      watch: (onStopped) => this.watch(onStopped),
      // only the resident can see the pod's pids (it says so when a fork failed): nothing to ask from outside
      pidsFull: () => Promise.resolve(null),
      pidsLimit: () => parts.limits.pods ?? null,
    };
  }

  /** Run a command through the resident runner; a stopped pod under it is SANDBOX_BROKEN saying why. */
  async exec(cmd: string[], options: ExecOptions): Promise<ExecResult> {
    let result: ExecResult;
    try {
      result = await this.serially(async () => {
        throwIfAborted(options.signal, 'command');
        checkCommand(cmd, options);
        return (await this.liveResident(options.signal)).run(cmd, options);
      });
    } catch (err) {
      if (!isHammerError(err, 'SANDBOX_BROKEN')) throw err;
      throw (await this.stopped(cmd, err)) ?? err;
    }
    if (result.exitCode >= 128 && !result.timedOut) {
      const stopped = await this.stopped(cmd, null);
      if (stopped) throw stopped;
    }
    return result;
  }

  /** Start the resident now, in the background: the first command, copy or read queues behind it. */
  warm(): void {
    if (this.resident) return;
    void this.serially(() => this.liveResident()).catch((err: unknown) => {
      this.parts.logger?.debug(
        { err: messageOf(err) },
        'resident runner not started early; the first command tries again',
      );
    });
  }

  /** Run `work` after everything asked of the pod before it (the one order of the sandbox's processes). */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The running resident, started (after every process of the sandbox user is killed) when there is none. */
  private async liveResident(signal?: AbortSignal): Promise<Resident> {
    if (this.resident?.alive) return this.resident;
    this.resident = undefined;
    await killAllInPod(this.target, signal);
    const started = await Resident.start(this.host, this.parts.logger, signal, this.residentArgv);
    if (!started)
      throw new HammerError('SANDBOX_BROKEN', 'the resident runner could not start in the sandbox pod', {
        hint: 'the Kubernetes backend runs every command through the resident runner, which needs perl (perl-base) in the image',
      });
    this.resident = started;
    return started;
  }

  /** Look at the pod every POD_WATCH_MS; call `onStopped` once its container no longer runs. */
  private watch(onStopped: () => void): { stop(): void } {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const look = async (): Promise<void> => {
      const pod = await this.parts.api.readPod(this.parts.pod).catch(() => undefined);
      if (stopped) return;
      // a cluster that cannot answer is not a stopped pod: only a clear answer counts
      if (pod !== undefined && podStopped(pod) !== null) return onStopped();
      timer = setTimeout(() => void look(), POD_WATCH_MS);
    };
    timer = setTimeout(() => void look(), POD_WATCH_MS);
    return {
      stop: () => {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }

  /** SANDBOX_BROKEN saying why, when the pod stopped (looked at a few times: the kubelet reports late); null while it runs. */
  private async stopped(cmd: string[], cause: HammerError | null): Promise<HammerError | null> {
    for (let look = 0; look < 4; look++) {
      if (look > 0) await sleep(250);
      const pod = await this.parts.api.readPod(this.parts.pod).catch(() => undefined);
      if (pod === undefined) return null;
      const why = podStopped(pod);
      if (why)
        return new HammerError('SANDBOX_BROKEN', `the sandbox stopped while running ${cmd[0] ?? 'a command'}: ${why}`, {
          hint: 'something stopped the pod (kubectl delete, an eviction, the node going away, its deadline, or running out of memory)',
          ...(cause ? { cause } : {}),
        });
    }
    return null;
  }

  /** Place files under `dir` (inside the workspace) with one exec'd tar, in turn with the pod's other processes. */
  async putFiles(dir: string, files: SandboxFile[], options: { signal?: AbortSignal } = {}): Promise<void> {
    throwIfAborted(options.signal, 'putting files');
    const tar = await packFiles(workspaceRelative(dir), files, this.parts.owner);
    await this.serially(() => this.untar(Readable.from([tar]), 'putting files', options.signal));
  }

  /** Copy the repo into the workspace as one tar stream, through an exec'd tar, once the resident is up. */
  async copyIn(source: RepoSource, options: { signal?: AbortSignal } = {}): Promise<CopyInStats> {
    throwIfAborted(options.signal, 'copying the repo in');
    const owner = this.parts.owner;
    const packed =
      source.kind === 'dir'
        ? packDirectory(source.path, owner)
        : source.normalized
          ? { stream: source.stream, stats: { files: 0, bytes: 0, skipped: 0 } }
          : repackTar(source.stream, owner);
    try {
      await this.serially(() => this.untar(packed.stream, 'copying the repo in', options.signal));
    } finally {
      packed.stream.destroy();
    }
    return { ...packed.stats };
  }

  /**
   * Extract as the sandbox user, modes kept; directories that exist keep theirs (/workspace is the
   * kubelet's). A copy that stops moving fails after the stall deadline (copy-deadline.ts).
   */
  private async untar(tar: Readable, what: string, signal?: AbortSignal): Promise<void> {
    throwIfAborted(signal, what);
    const watched = watchCopy(tar, what, this.parts.copyStallMs);
    watched.start();
    let ran;
    try {
      ran = await runInPod(this.target, ['tar', '-x', '-p', '--no-overwrite-dir', '-f', '-', '-C', WORKDIR], {
        what,
        stdin: watched.stream,
        tarRecords: true,
        signal: signal ? AbortSignal.any([signal, watched.signal]) : watched.signal,
      });
    } catch (err) {
      throw (signal?.aborted ? null : watched.stalled()) ?? err;
    } finally {
      watched.done();
      watched.stream.destroy();
    }
    const { end, stderr } = ran;
    const code = exitCodeOf(end);
    if (code !== 0)
      throw new HammerError(
        'SANDBOX_BROKEN',
        `${what} failed: tar in the sandbox ${code === null ? (end.kind === 'failed' ? end.message : '') : `exited ${code}`}${stderr ? `: ${stderr.slice(-500)}` : ''}`,
      );
  }

  /** Read one regular file of at most maxBytes through an exec'd tar; links, directories and oversize files are refused. */
  readFile(path: string, options: { maxBytes: number; signal?: AbortSignal }): Promise<Buffer> {
    return this.serially(() => this.readOne(path, options));
  }

  private async readOne(path: string, options: { maxBytes: number; signal?: AbortSignal }): Promise<Buffer> {
    throwIfAborted(options.signal, 'reading a file');
    const rel = workspaceRelative(path);
    const abs = rel === '' ? WORKDIR : `${WORKDIR}/${rel}`;
    const name = posix.basename(abs);
    const out = new PassThrough();
    const reading = readSingleFile(out, name, options.maxBytes);
    reading.catch(() => undefined);
    const ran = runInPod(this.target, ['tar', '-c', '-f', '-', '-C', posix.dirname(abs), '--', name], {
      what: `reading ${abs}`,
      stdout: out,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    ran.catch(() => undefined);
    const { end, stderr } = await ran;
    if (exitCodeOf(end) !== 0)
      throw new HammerError(
        'SANDBOX_BROKEN',
        `reading ${abs} failed: ${stderr.slice(-300) || (end.kind === 'failed' ? end.message : 'tar failed')}`,
      );
    return reading;
  }

  /** The editor's file operation through the resident runner, in turn with commands. */
  workspaceFile(op: WorkspaceFileOp, options: { signal?: AbortSignal } = {}): Promise<WorkspaceFileResult> {
    return this.serially(async () => {
      throwIfAborted(options.signal, 'a file operation');
      return (await this.liveResident(options.signal)).fileOp(op, WORKDIR, options.signal);
    });
  }

  /** Kill every process of the sandbox user and wait until all are gone, keeping the sandbox alive. */
  killAll(options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.serially(async () => {
      if (!this.resident) return killAllInPod(this.target, options.signal);
      const settled = this.resident?.alive ? await this.resident.killAll() : null;
      if (settled === true) return;
      if (settled === false) throw unsettledError(RESIDENT_SETTLE_SECONDS);
      this.resident?.close();
      this.resident = undefined;
      await killAllInPod(this.target, options.signal);
    });
  }

  /** Delete the pod and its policy; a second call finds nothing and succeeds. */
  async destroy(options: { signal?: AbortSignal } = {}): Promise<void> {
    this.resident?.close();
    this.resident = undefined;
    await this.parts.api.deletePod(this.parts.pod, options.signal);
    await this.parts.api.deletePolicy(this.parts.policy, options.signal);
    this.parts.logger?.debug({ pod: this.parts.pod, policy: this.parts.policy }, 'sandbox pod deleted');
  }
}
