// What the resident runner needs from a backend: a process started in the sandbox with its stdio
// attached, and the sandbox-wide operations around it. Docker gives it an attached exec; Kubernetes
// a pods/exec WebSocket. Only our types: no engine's.
import type { StreamName } from './demux.js';

/** A process running in a sandbox with stdin, stdout and stderr attached to the host. */
export interface AttachedProcess {
  /** Send bytes to its stdin (dropped once the connection is gone). */
  write(chunk: Buffer): void;
  /** Close its stdin; the connection stays open for its output. */
  end(): void;
  /** Drop the connection at once. */
  destroy(): void;
  /** Called with each chunk of its output, per stream, in order. */
  onOutput(listener: (stream: StreamName, chunk: Buffer) => void): void;
  /** Called once when the connection ends, for whatever reason (the process ended, or the link broke). */
  onClose(listener: () => void): void;
}

/** A backend's side of the resident runner: attach, kill from outside, watch, and the pids limit. */
export interface ResidentHost {
  /** Start `argv` as the sandbox user in `/` with stdio attached; rejects when it cannot be started. */
  attach(argv: string[], signal?: AbortSignal): Promise<AttachedProcess>;
  /** Kill every process of the sandbox user with a process of its own, and wait until all are gone. */
  killAll(signal?: AbortSignal): Promise<void>;
  /** Call `onStopped` once the sandbox is seen stopped (looked at every few seconds until `stop`). */
  watch(onStopped: () => void): { stop(): void };
  /** The pids limit when the sandbox has (all but) none left under it; null when not full or unknown. */
  pidsFull(): Promise<{ limit: number | null } | null>;
  /** The pids limit the backend set, when it knows it (for messages). */
  pidsLimit?(): number | null;
}
