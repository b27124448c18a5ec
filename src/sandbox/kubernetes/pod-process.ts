// Processes in a sandbox pod that are not commands: the tar that copies files in, the tar that
// reads one back, the killer that clears every process of the sandbox user. Each is one pods/exec.
import type { Writable } from 'node:stream';
import { HammerError, throwIfAborted } from '../../errors.js';
import { KILL_ALL_SCRIPT, KILL_SETTLE_SECONDS, pidsFullError, unsettledError } from '../kill-all.js';
import { sleep } from '../stream-end.js';
import { canCloseStdin, execPath, tarRecordPadding, type ExecEnd } from './exec-frames.js';
import { openExec, type KubeEndpoint } from './exec-socket.js';
import { CONTAINER } from './manifests.js';

/** Where a pod's processes run. */
export interface PodTarget {
  endpoint: KubeEndpoint;
  namespace: string;
  pod: string;
}

/** Bytes of stderr kept for messages. */
const STDERR_KEPT = 4096;

/** What a process ended with, and the end of its stderr. */
export interface ProcessEnd {
  end: ExecEnd;
  stderr: string;
}

/**
 * Run `argv` in the pod: `stdin` (a stream or bytes) goes in, padded to whole tar records when
 * `tarRecords` (GNU tar then ends without waiting for stdin to close, which v4 cannot do), and
 * stdin is closed after it; stdout goes to `stdout` when given. Resolves with how it ended.
 */
export async function runInPod(
  target: PodTarget,
  argv: string[],
  options: {
    what: string;
    stdin?: Buffer | AsyncIterable<unknown>;
    tarRecords?: boolean;
    stdout?: Writable;
    signal?: AbortSignal;
  },
): Promise<ProcessEnd> {
  const path = execPath(target.namespace, target.pod, CONTAINER, argv, options.stdin !== undefined);
  const session = await openExec(target.endpoint, path, {
    what: options.what,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  let stderr = '';
  session.onOutput((name, chunk) => {
    if (name === 'stdout') options.stdout?.write(chunk);
    else stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
  });
  session.onClose(() => options.stdout?.end());
  if (options.stdin !== undefined) {
    try {
      let sent = 0;
      const source = Buffer.isBuffer(options.stdin) ? [options.stdin] : options.stdin;
      for await (const chunk of source) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        await session.send(buf);
        sent += buf.length;
      }
      if (options.tarRecords) await session.send(tarRecordPadding(sent));
      // on v4 closing stdin closes the socket, exit status and all: a padded tar ends by itself
      if (canCloseStdin(session.protocol) || !options.tarRecords) session.end();
    } catch (err) {
      session.destroy();
      await session.ended.catch(() => undefined);
      throw err;
    }
  }
  const end = await session.ended;
  return { end, stderr: stderr.trim() };
}

/** The exit code of an end, or null when the runtime did not say (a server-side failure). */
export function exitCodeOf(end: ExecEnd): number | null {
  return end.kind === 'failed' ? null : end.exitCode;
}

/**
 * Kill every process of the sandbox user (not PID 1, the keeper) and wait until all are gone, as
 * kill-all.ts does on Docker: retried while no process can be started (a fork bomb holds the limit).
 */
export async function killAllInPod(target: PodTarget, signal?: AbortSignal): Promise<void> {
  let last = '';
  for (let attempt = 0; attempt < 40; attempt++) {
    throwIfAborted(signal, 'killing the sandbox processes');
    const { end, stderr } = await runInPod(target, ['sh', '-c', KILL_ALL_SCRIPT], {
      what: 'killing the sandbox processes',
      ...(signal ? { signal } : {}),
    });
    const code = exitCodeOf(end);
    if (code === 0) return;
    if (code === 2)
      throw new HammerError('SANDBOX_BROKEN', 'the sandbox cannot kill its processes: /proc is unreadable in it');
    if (code === 3) throw unsettledError(KILL_SETTLE_SECONDS);
    last = end.kind === 'exited' ? `exit ${end.exitCode}${stderr ? `: ${stderr}` : ''}` : end.message;
    await sleep(Math.min(25 * (attempt + 1), 250));
  }
  if (/fork|resource temporarily unavailable/i.test(last))
    throw pidsFullError('could not start a process to kill the sandbox processes', null);
  throw new HammerError('SANDBOX_BROKEN', `could not kill the sandbox processes (${last})`);
}
