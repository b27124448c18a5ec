// One pods/exec call over a WebSocket (see exec-frames.ts for the protocol): stdout and stderr as
// they come, stdin with backpressure, stdin closed alone on v5 (the whole socket on v4), the exit
// status read once the server closes, the upgrade's refusal read as the API's Status.
import WebSocket from 'ws';
import { HammerError, abortError, throwIfAborted } from '../../errors.js';
import type { AttachedProcess } from '../attached.js';
import type { StreamName } from '../demux.js';
import {
  canCloseStdin,
  closeStdinMessage,
  decodeExecMessage,
  EXEC_PROTOCOLS,
  parseExecStatus,
  stdinMessages,
  type ExecEnd,
} from './exec-frames.js';
import { kubeFailure, messageOf } from './kube-errors.js';
import { throughOutage, type OutageWatch } from './outage.js';

/** Where the API server is and how to connect to it (TLS and credentials from the kubeconfig). */
export interface KubeEndpoint {
  /** The API server's URL: https://host:port (http:// for a test server). */
  server: string;
  /** Whether the server answered before, for trying an exec it does not answer again (outage.ts). */
  outage?: OutageWatch;
  /** Options for one WebSocket connection: CA, client certificate, Authorization header. */
  connectOptions(): Promise<WebSocket.ClientOptions>;
}

/** An exec in progress. */
export interface ExecSession extends AttachedProcess {
  /** The negotiated subprotocol. */
  readonly protocol: string;
  /** How it ended, once the server closed the socket; rejects when the link broke without a status. */
  readonly ended: Promise<ExecEnd>;
  /** Send stdin, resolving once the socket took it (backpressure for large streams). */
  send(chunk: Buffer): Promise<void>;
}

/** How long the upgrade may take. */
const HANDSHAKE_MS = 30_000;
/** Pings keep idle connections (a quiet test) open through proxies. */
const PING_MS = 30_000;
/** Buffered bytes above which `send` waits for the socket. */
const HIGH_WATER = 4 * 1024 * 1024;
/** Bytes of a refused upgrade's body read for its message. */
const MAX_REFUSAL_BODY = 64 * 1024;

/** The HTTP status and body a refused upgrade answered with, in the shape kubeFailure reads. */
class UpgradeRefused extends Error {
  constructor(
    readonly code: number,
    readonly body: string,
  ) {
    super(`the exec upgrade was refused: HTTP ${code}`);
  }
}

/**
 * Open an exec at `path` (see execPath); rejects with a typed error when the server refuses it. An
 * upgrade the server did not answer is tried again through a short outage (nothing was sent yet).
 */
export function openExec(
  endpoint: KubeEndpoint,
  path: string,
  options: { what: string; signal?: AbortSignal; handshakeOnly?: boolean },
): Promise<ExecSession> {
  const opened = async (): Promise<ExecSession> => {
    const session = await openExecOnce(endpoint, path, options);
    endpoint.outage?.answered();
    return session;
  };
  return throughOutage(opened, {
    budgetMs: endpoint.outage?.budget() ?? 0,
    what: options.what,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

async function openExecOnce(
  endpoint: KubeEndpoint,
  path: string,
  options: {
    what: string;
    signal?: AbortSignal;
    /** The signal only stops the upgrade, not the exec after it (a resident outlives the command that started it). */
    handshakeOnly?: boolean;
  },
): Promise<ExecSession> {
  throwIfAborted(options.signal, options.what);
  const url = endpoint.server.replace(/^http/, 'ws').replace(/\/+$/, '') + path;
  const base = await endpoint.connectOptions();
  const ws = new WebSocket(url, [...EXEC_PROTOCOLS], {
    ...base,
    handshakeTimeout: HANDSHAKE_MS,
    perMessageDeflate: false,
    maxPayload: 64 * 1024 * 1024,
  });
  // listen before the upgrade completes: the first messages can come in the same read as the answer
  const exec = session(ws, {
    what: options.what,
    ...(options.signal && !options.handshakeOnly ? { signal: options.signal } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    const fail = (err: unknown): void => {
      cleanUp();
      exec.destroy();
      reject(kubeFailure(err, options.what, options.signal));
    };
    const onAbort = (): void => fail(abortError(options.signal, options.what));
    const onOpen = (): void => {
      cleanUp();
      if (!(EXEC_PROTOCOLS as readonly string[]).includes(ws.protocol)) {
        exec.destroy();
        reject(
          new HammerError(
            'SANDBOX_BROKEN',
            `${options.what}: the API server offers no exec protocol hammer-box speaks (it answered ${JSON.stringify(ws.protocol)}; v4 or v5.channel.k8s.io is needed, Kubernetes 1.4 and later)`,
          ),
        );
        return;
      }
      resolve();
    };
    const onRefused = (_req: unknown, res: import('node:http').IncomingMessage): void => {
      const parts: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < MAX_REFUSAL_BODY) parts.push(c);
        size += c.length;
      });
      res.on('end', () => fail(new UpgradeRefused(res.statusCode ?? 0, Buffer.concat(parts).toString('utf8'))));
      res.on('error', (err) => fail(err));
    };
    const cleanUp = (): void => {
      ws.off('open', onOpen);
      ws.off('error', fail);
      ws.off('unexpected-response', onRefused);
      options.signal?.removeEventListener('abort', onAbort);
    };
    ws.once('open', onOpen);
    ws.once('error', fail);
    ws.once('unexpected-response', onRefused);
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
  return exec;
}

function session(ws: WebSocket, options: { what: string; signal?: AbortSignal }): ExecSession {
  const outputs: ((name: StreamName, chunk: Buffer) => void)[] = [];
  const early: [StreamName, Buffer][] = [];
  const closes: (() => void)[] = [];
  let status: ExecEnd | undefined;
  let broken: string | undefined;
  let closed = false;
  let stdinOpen = true;
  const ping = setInterval(() => {
    if (ws.readyState === WebSocket.OPEN) ws.ping();
  }, PING_MS);
  ping.unref();
  const onAbort = (): void => ws.terminate();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  ws.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
    if (!isBinary) return;
    const buf = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    const m = decodeExecMessage(buf);
    if (m.kind === 'stdout' || m.kind === 'stderr') {
      // output before anyone listens (a quick command) waits for the first listener
      if (outputs.length === 0) early.push([m.kind, m.payload]);
      for (const l of outputs) l(m.kind, m.payload);
    } else if (m.kind === 'status') status = parseExecStatus(m.payload);
    else if (m.kind === 'unknown') broken = `a message on unknown channel ${m.channel}`;
  });
  ws.on('error', (err) => {
    broken ??= messageOf(err);
  });
  const ended = new Promise<ExecEnd>((resolve, reject) => {
    ws.once('close', () => {
      closed = true;
      clearInterval(ping);
      options.signal?.removeEventListener('abort', onAbort);
      for (const l of closes.splice(0)) l();
      if (options.signal?.aborted) return reject(abortError(options.signal, options.what));
      if (status) return resolve(status);
      reject(
        new HammerError(
          'SANDBOX_BROKEN',
          `${options.what}: the exec stream ended without an exit status${broken ? ` (${broken})` : ''}`,
        ),
      );
    });
  });
  ended.catch(() => undefined);

  const sendRaw = (message: Buffer): Promise<void> =>
    new Promise((resolve, reject) => {
      if (ws.readyState !== WebSocket.OPEN)
        return reject(new HammerError('SANDBOX_BROKEN', `${options.what}: the exec stream is closed`));
      ws.send(message, { binary: true }, (err) => (err ? reject(err) : resolve()));
    });
  return {
    get protocol() {
      return ws.protocol;
    },
    ended,
    async send(chunk) {
      for (const m of stdinMessages(chunk)) {
        const sent = sendRaw(m);
        if (ws.bufferedAmount > HIGH_WATER) await sent;
        else sent.catch(() => undefined);
      }
    },
    write(chunk) {
      if (!stdinOpen || ws.readyState !== WebSocket.OPEN) return;
      for (const m of stdinMessages(chunk)) ws.send(m, { binary: true });
    },
    end() {
      if (!stdinOpen) return;
      stdinOpen = false;
      if (ws.readyState !== WebSocket.OPEN) return;
      if (canCloseStdin(ws.protocol)) ws.send(closeStdinMessage(), { binary: true });
      else ws.close(1000);
    },
    destroy() {
      stdinOpen = false;
      if (!closed) ws.terminate();
    },
    onOutput(listener) {
      outputs.push(listener);
      for (const [name, chunk] of early.splice(0)) listener(name, chunk);
    },
    onClose(listener) {
      if (closed) listener();
      else closes.push(listener);
    },
  };
}
