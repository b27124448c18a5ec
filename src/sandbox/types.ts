// The sandbox contract, in our own types. Only src/sandbox/ implements it (Docker with dockerode,
// Kubernetes with its API); every other module speaks these types, and none knows which backend runs.
import type { Readable } from 'node:stream';

/** Resource limits and hardening knobs for one sandbox (from config `[sandbox]`). */
export interface SandboxLimits {
  /** Memory limit in bytes; MemorySwap is set equal, so there is no swap. */
  memoryBytes: number;
  /** CPU quota in nano-CPUs (1e9 = one core). */
  nanoCpus: number;
  pidsLimit: number;
  /** Size of the /tmp tmpfs in bytes. */
  tmpBytes: number;
  /** Size cap of the /workspace volume in bytes (tmpfs-backed), or 0 for an uncapped disk volume. */
  workspaceBytes: number;
  /** RLIMIT_NOFILE soft and hard. */
  nofile: number;
  /** OCI runtime (Docker) or RuntimeClass (Kubernetes), e.g. "runsc" for gVisor; empty for the default. */
  runtime: string;
}

/** What to create a sandbox from. */
export interface SandboxSpec {
  /** Image reference or id. */
  image: string;
  /** The run this sandbox belongs to (label `hammer-box.run-id`). */
  runId: string;
  /** "uid:gid" the sandbox runs as; never 0. */
  user: string;
  limits: SandboxLimits;
  /** Environment inside the sandbox. Only these variables exist; nothing is inherited from the host. */
  env: Record<string, string>;
  /** Extra labels (keys are prefixed by the caller's namespace). */
  labels?: Record<string, string>;
}

/** Output of one stream of an exec, capped: the head and tail are kept, the middle counted. */
export interface CapturedOutput {
  /** Decoded text (invalid UTF-8 replaced); when truncated, a marker line stands between head and tail. */
  text: string;
  /** Bytes the command wrote to this stream. */
  totalBytes: number;
  /** Bytes dropped from the middle. */
  droppedBytes: number;
}

/** The outcome of a command in the sandbox. A non-zero exit is a result, not an error. */
export interface ExecResult {
  /** Exit code; 137 after a kill. -1 when the exec's inspect gave none. */
  exitCode: number;
  stdout: CapturedOutput;
  stderr: CapturedOutput;
  durationMs: number;
  /** The wall-clock timeout fired and every process of the sandbox user was killed. */
  timedOut: boolean;
}

export interface ExecOptions {
  /** Working directory inside the sandbox (default /workspace). */
  cwd?: string;
  /** Extra environment for this command (added to the sandbox env). */
  env?: Record<string, string>;
  /** Wall-clock timeout in ms; on expiry the whole process tree is killed. */
  timeoutMs: number;
  /** Bytes kept per stream (half head, half tail). Default 1 MiB. */
  maxOutputBytes?: number;
  /** Live output, called for every chunk as it arrives (before capping). */
  onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void;
  signal?: AbortSignal;
}

/** One file to place in the sandbox. */
export interface SandboxFile {
  /** Path relative to the destination directory; no `..`, not absolute. */
  path: string;
  content: Buffer | string;
  /** Permission bits (default 0o644). */
  mode?: number;
}

/** One file operation of the editor on a workspace path (relative to the workspace, no `..`). */
export type WorkspaceFileOp =
  /** Look at the path and, when it is a regular file of at most `maxBytes`, read it. */
  | { op: 'read'; path: string; maxBytes: number }
  /** Replace (or make) the regular file at the path, with `mode`'s permission bits; missing directories are made. */
  | { op: 'write'; path: string; content: Buffer; mode: number }
  /** Remove the regular file at the path (missing: nothing to do). */
  | { op: 'remove'; path: string };

/** What a workspace file operation found or did; nothing goes through a link on the way. */
export type WorkspaceFileResult =
  /** read: a regular file, its permission bits (0o777 at most) and size; its bytes, or null when over `maxBytes`. */
  | { kind: 'file'; mode: number; size: number; content: Buffer | null }
  /** write, remove: done. */
  | { kind: 'done' }
  /** Nothing at the path (read, remove), or a directory above it is missing (read). */
  | { kind: 'missing' }
  /** A component of the path is a symbolic link: nothing was read or written. */
  | { kind: 'link' }
  /** A component above the path is not a directory. */
  | { kind: 'blocked' }
  /** The path is a directory or another non-regular file. */
  | { kind: 'other' }
  /** The sandbox refused the operation (permissions, a full workspace): why, as the system said. */
  | { kind: 'failed'; reason: string };

/** What goes in as the repo copy: a host directory (packed without following symlinks) or a tar stream. */
export type RepoSource =
  | { kind: 'dir'; path: string }
  | {
      kind: 'tar';
      stream: Readable;
      /**
       * The stream was built by hammer-box's own writer (src/git's baseTarStream: safe relative
       * names, the sandbox owner, plain modes, no special files), so it goes in as is. Any other
       * tar stream is re-packed entry by entry.
       */
      normalized?: boolean;
    };

export interface CopyInStats {
  files: number;
  bytes: number;
  /** Entries left out: FIFOs, sockets, devices. */
  skipped: number;
}

/** A live, hardened, network-less sandbox (a container, or a pod) with a workspace volume. */
export interface Sandbox {
  readonly id: string;
  readonly runId: string;
  /** The in-container workspace path (/workspace). */
  readonly workdir: string;
  /** Run a command (argv, no shell) and return its result. Throws only if the sandbox itself is broken. */
  exec(cmd: string[], options: ExecOptions): Promise<ExecResult>;
  /** Place files under `dir` (absolute, inside the workspace volume). */
  putFiles(dir: string, files: SandboxFile[], options?: { signal?: AbortSignal }): Promise<void>;
  /** Copy the repo into the workspace as one tar stream; a copy that stops moving fails (SANDBOX_BROKEN, stalled). */
  copyIn(source: RepoSource, options?: { signal?: AbortSignal }): Promise<CopyInStats>;
  /** Read one regular file back (untrusted data): refuses links and non-regular files, caps the size. */
  readFile(path: string, options: { maxBytes: number; signal?: AbortSignal }): Promise<Buffer>;
  /**
   * One file operation of the editor, done in the sandbox by its resident runner once every process
   * of the sandbox user is gone (so nothing changes the path meanwhile), with no link followed on the
   * way: one message each way, no process started. Null when this sandbox has no resident runner
   * (an image without perl): the caller then uses `readFile`, `putFiles` and the runner's `inspect`.
   */
  workspaceFile?(op: WorkspaceFileOp, options?: { signal?: AbortSignal }): Promise<WorkspaceFileResult | null>;
  /**
   * Kill every process the sandbox user runs (leftover daemons, a killed test's tree) and wait until
   * all are gone and their pids free, keeping the sandbox alive; SANDBOX_PIDS_FULL when they never are.
   */
  killAll(options?: { signal?: AbortSignal }): Promise<void>;
  /**
   * Get ready for commands in the background (the resident runner starts while the host gets the
   * repository ready, off the path to the first command). One order on every backend: nothing
   * copies into, reads from or runs in the sandbox until the resident is up (its start kills every
   * process of the sandbox user); copies, reads and commands wait for it. Never fails: a start that
   * does not work is tried again, or falls back, at the first command.
   */
  warm?(): void;
  /** Remove the container and its volume. Safe to call twice. */
  destroy(options?: { signal?: AbortSignal }): Promise<void>;
}

/** Facts about the engine, for `doctor` and for decisions (architecture, runtimes). */
export interface EngineInfo {
  /** Docker Engine, Podman behind its Docker-compatible API, or a Kubernetes cluster. */
  product: 'docker' | 'podman' | 'kubernetes';
  serverVersion: string;
  apiVersion: string;
  os: string;
  architecture: string;
  /** OCI runtimes (Docker) or RuntimeClass names (Kubernetes). */
  runtimes: string[];
  /** The runtime (or RuntimeClass) that runs gVisor, when there is one. */
  gvisorRuntime?: string;
  defaultRuntime: string;
  securityOptions: string[];
  rootless: boolean;
  userns: boolean;
  cgroupVersion: string;
  /** The product the engine runs in, when it says: Docker Desktop, Colima, OrbStack, Rancher Desktop. */
  platform?: string;
}

/** What gc removed: containers, volumes, and the networks of dependency setups whose process died. */
export interface GcReport {
  containers: string[];
  volumes: string[];
  networks: string[];
}

/** The backends there are. */
export type BackendKind = 'docker' | 'kubernetes';

/** How a sandbox is kept apart from the host's kernel: namespaces and seccomp, or gVisor's own kernel. */
export type IsolationKind = 'container' | 'gvisor';

/**
 * What a backend can prove about a sandbox's network: `none` (no interface but loopback, checked on
 * every sandbox), `policy` (a deny-all NetworkPolicy the cluster was seen to enforce), `unproven`.
 */
export type NetworkProof = 'none' | 'policy' | 'unproven';

/** What a backend guarantees about its sandboxes: a run on an untrusted repository needs a proven network. */
export interface SandboxGuarantees {
  backend: BackendKind;
  isolation: IsolationKind;
  network: NetworkProof;
  /** How the network mode was proven, or why it could not be (one sentence, for messages and doctor). */
  networkDetail: string;
}

/** What `guarantees` is asked about: the runtime sandboxes will get, and an image a probe may run. */
export interface GuaranteeOptions {
  /** The resolved runtime (see loop/runtime.ts): "" for the default. */
  runtime: string;
  /** An image the backend may start to prove what it claims (Kubernetes); Docker needs none. */
  image?: string;
  /** Prove it now, never from a kept proof (doctor). */
  fresh?: boolean;
  signal?: AbortSignal;
}

/** A sandbox backend: creates sandboxes, cleans up after dead runs, and says what it guarantees. */
export interface SandboxEngine {
  readonly kind: BackendKind;
  /** Create, start and verify a hardened sandbox; anything short of that is removed and refused. */
  create(spec: SandboxSpec, options?: { signal?: AbortSignal }): Promise<Sandbox>;
  /** Remove containers and volumes of runs whose owner process is gone (or all of `runIds`). */
  gc(options?: { runIds?: string[]; signal?: AbortSignal }): Promise<GcReport>;
  info(options?: { signal?: AbortSignal }): Promise<EngineInfo>;
  /** Isolation and network mode, as far as the backend can prove them (a probe may run; its proof is kept for a while). */
  guarantees(options: GuaranteeOptions): Promise<SandboxGuarantees>;
}
