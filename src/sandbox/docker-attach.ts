// The resident runner's host on a Docker engine: an attached exec (demuxed), the outside killer,
// the container watchdog and the engine's pids count.
import type { Duplex } from 'node:stream';
import type { AttachedProcess, ResidentHost } from './attached.js';
import { FrameDemuxer, type StreamName } from './demux.js';
import { watchContainer } from './exec.js';
import { killAllProcesses, pidsFull, type ExecTarget } from './kill-all.js';

/** A ResidentHost for one container: processes start as `target.user` through attached execs. */
export function dockerResidentHost(target: ExecTarget): ResidentHost {
  return {
    attach: (argv) => attachExec(target, argv),
    killAll: (signal) => killAllProcesses(target, signal),
    watch: (onStopped) => watchContainer(target.container, onStopped),
    pidsFull: () => pidsFull(target.container),
  };
}

/** Start `argv` in the container as the sandbox user, in `/`, with stdin, stdout and stderr attached. */
async function attachExec(target: ExecTarget, argv: string[]): Promise<AttachedProcess> {
  const exec = await target.container.exec({
    Cmd: argv,
    User: target.user,
    WorkingDir: '/',
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
  });
  const stream: Duplex = await exec.start({ hijack: true, stdin: true });
  return attachedStream(stream);
}

/** An attached Docker stream (multiplexed stdout and stderr) as an AttachedProcess. */
export function attachedStream(stream: Duplex): AttachedProcess {
  const listeners: ((name: StreamName, chunk: Buffer) => void)[] = [];
  const demux = new FrameDemuxer((name, payload) => {
    for (const l of listeners) l(name, payload);
  });
  stream.on('data', (chunk: Buffer) => demux.push(chunk));
  return {
    write: (chunk) => void stream.write(chunk),
    end: () => void stream.end(),
    destroy: () => void stream.destroy(),
    onOutput: (listener) => void listeners.push(listener),
    onClose: (listener) => {
      let called = false;
      const once = (): void => {
        if (called) return;
        called = true;
        listener();
      };
      stream.once('end', once);
      stream.once('close', once);
      stream.once('error', once);
    },
  };
}
