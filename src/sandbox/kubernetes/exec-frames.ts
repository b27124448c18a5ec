// The pods/exec WebSocket protocol (channel.k8s.io, versions 4 and 5), pure: each binary message is
// one channel byte and a payload. 0 stdin, 1 stdout, 2 stderr, 3 the exit status (a JSON
// metav1.Status), 4 terminal resize; version 5 adds 255, "close the channel named by the next byte",
// which is how stdin is closed while the output keeps coming.
import { z } from 'zod';

/** The subprotocols asked for, best first: v5 can close stdin, v4 cannot (only the whole socket). */
export const EXEC_PROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io'] as const;

/** Channel numbers. */
export const CHANNEL = { stdin: 0, stdout: 1, stderr: 2, status: 3, resize: 4, close: 255 } as const;

/** True when the negotiated subprotocol can close stdin alone. */
export function canCloseStdin(protocol: string): boolean {
  return protocol === 'v5.channel.k8s.io';
}

/** The largest stdin payload sent in one message. */
export const MAX_STDIN_MESSAGE = 256 * 1024;

/** Stdin bytes as messages of at most MAX_STDIN_MESSAGE. */
export function stdinMessages(chunk: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < chunk.length; at += MAX_STDIN_MESSAGE) {
    const part = chunk.subarray(at, at + MAX_STDIN_MESSAGE);
    out.push(Buffer.concat([Buffer.of(CHANNEL.stdin), part]));
  }
  return out;
}

/** The v5 message that closes stdin. */
export function closeStdinMessage(): Buffer {
  return Buffer.of(CHANNEL.close, CHANNEL.stdin);
}

/** One message from the server, decoded. */
export type ExecMessage =
  | { kind: 'stdout' | 'stderr' | 'status'; payload: Buffer }
  | { kind: 'closed'; channel: number }
  | { kind: 'empty' }
  | { kind: 'unknown'; channel: number };

/** Decode one binary message from the server. An empty payload (servers open each channel with one) is `empty`. */
export function decodeExecMessage(data: Buffer): ExecMessage {
  if (data.length === 0) return { kind: 'empty' };
  const channel = data[0] as number;
  const payload = data.subarray(1);
  if (channel === CHANNEL.close) return { kind: 'closed', channel: data.length > 1 ? (data[1] as number) : -1 };
  if (payload.length === 0) return { kind: 'empty' };
  if (channel === CHANNEL.stdout) return { kind: 'stdout', payload };
  if (channel === CHANNEL.stderr) return { kind: 'stderr', payload };
  if (channel === CHANNEL.status) return { kind: 'status', payload };
  return { kind: 'unknown', channel };
}

const StatusSchema = z.object({
  status: z.string().optional(),
  message: z.string().optional(),
  reason: z.string().optional(),
  details: z
    .object({
      causes: z.array(z.object({ reason: z.string().optional(), message: z.string().optional() })).nullish(),
    })
    .nullish(),
});

/** How an exec ended, from its status message. */
export type ExecEnd =
  /** The process ran and exited with this code (a signal n reads as 128 + n). */
  | { kind: 'exited'; exitCode: number }
  /** The runtime could not start it (no such executable, a bad working directory, ...). */
  | { kind: 'not-started'; exitCode: 126 | 127; message: string }
  /** Something else went wrong on the server's side; the message says what. */
  | { kind: 'failed'; message: string };

/**
 * Parse the status channel's payload: `Success` is exit 0; `Failure` with an `ExitCode` cause is that
 * code; a failure the runtime reports before the process ran is 127 (not found) or 126, as Docker.
 */
export function parseExecStatus(payload: Buffer): ExecEnd {
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return { kind: 'failed', message: `an unreadable exit status: ${payload.toString('utf8').slice(0, 200)}` };
  }
  const parsed = StatusSchema.safeParse(json);
  if (!parsed.success) return { kind: 'failed', message: 'an exit status of an unknown shape' };
  const s = parsed.data;
  if (s.status === 'Success') return { kind: 'exited', exitCode: 0 };
  const cause = (s.details?.causes ?? []).find((c) => c.reason === 'ExitCode');
  if (cause && /^\d{1,3}$/.test(cause.message ?? '')) return { kind: 'exited', exitCode: Number(cause.message) };
  const message = (s.message ?? s.reason ?? 'the exec failed').slice(0, 1000);
  if (/executable file not found|no such file or directory|not found in \$PATH/i.test(message))
    return { kind: 'not-started', exitCode: 127, message };
  if (/OCI runtime exec failed|unable to start container process|permission denied/i.test(message))
    return { kind: 'not-started', exitCode: 126, message };
  return { kind: 'failed', message };
}

/** The exec request's path: argv as repeated `command` parameters, stdout and stderr always. */
export function execPath(
  namespace: string,
  pod: string,
  container: string,
  argv: readonly string[],
  stdin: boolean,
): string {
  const q = new URLSearchParams();
  for (const a of argv) q.append('command', a);
  q.set('container', container);
  q.set('stdin', String(stdin));
  q.set('stdout', 'true');
  q.set('stderr', 'true');
  q.set('tty', 'false');
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/exec?${q.toString()}`;
}

/** Bytes of a tar record: GNU tar reading a pipe waits for a whole one, so an archive is padded to it. */
export const TAR_RECORD = 10240;

/** Zero bytes that pad `length` to a whole tar record (none when it is one already). */
export function tarRecordPadding(length: number): Buffer {
  const rest = length % TAR_RECORD;
  return Buffer.alloc(rest === 0 ? 0 : TAR_RECORD - rest);
}
