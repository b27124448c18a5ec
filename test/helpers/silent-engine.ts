// Engines that accept connections and never answer, for deadline tests: a unix socket or a TCP
// listener that reads whatever it is sent and says nothing; optionally answering only /_ping.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from './fixture-repo.js';

/** A silent engine: its DOCKER_HOST, the connections it took and how many of them are closed. */
export interface SilentEngine {
  dockerHost: string;
  /** Connections accepted so far. */
  accepted(): number;
  /** Connections closed (by the client) so far. */
  closed(): number;
  /** HTTP requests received (with answerPing), answered or not. */
  requests(): string[];
  close(): Promise<void>;
}

/**
 * Listen on a unix socket (kind 'unix') or 127.0.0.1 (kind 'tcp'). With `answerPing`, it speaks
 * HTTP and answers GET /_ping (so a client gets past its connect check) and nothing else.
 */
export async function startSilentEngine(
  kind: 'unix' | 'tcp',
  opts: { answerPing?: boolean } = {},
): Promise<SilentEngine> {
  const dir = kind === 'unix' ? await tempDir('hb-silent-') : undefined;
  const sockets = new Set<Socket>();
  let accepted = 0;
  let closed = 0;
  const requests: string[] = [];
  const track = (s: Socket): void => {
    accepted++;
    sockets.add(s);
    s.on('close', () => {
      closed++;
      sockets.delete(s);
    });
    s.on('error', () => undefined);
  };
  let server: Server;
  if (opts.answerPing) {
    const http = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      requests.push(`${req.method} ${req.url}`);
      if (req.url?.endsWith('/_ping')) {
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Api-Version': '1.43' });
        res.end('OK');
      }
      // anything else: never answered
    });
    http.on('connection', track);
    server = http;
  } else {
    server = createServer((s) => {
      track(s);
      s.resume();
    });
  }
  const path = dir ? join(dir, 'docker.sock') : undefined;
  await new Promise<void>((resolve) => (path ? server.listen(path, resolve) : server.listen(0, '127.0.0.1', resolve)));
  const addr = server.address();
  const dockerHost = path ? `unix://${path}` : `tcp://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  return {
    dockerHost,
    accepted: () => accepted,
    closed: () => closed,
    requests: () => [...requests],
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}
