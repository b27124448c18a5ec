// `hammer-box monitor`'s server: node's own http server on 127.0.0.1 only, every request through
// the guard (GET, Host, token), pages from Pages, assets from a fixed list, and Server-Sent Events
// from the run watcher. It reads runs; it never writes anything.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { RunSources } from '../api/run-sources.js';
import { HammerError } from '../errors.js';
import { isRunId } from '../state/run-id.js';
import { ArtifactNameSchema, RUN_STATUSES, type RunStatus } from '../state/run-state.js';
import { loadAssets, type Asset } from './assets.js';
import { guardRequest, SECURITY_HEADERS } from './guard.js';
import { serverLinks, type RunRef } from './links.js';
import { notFoundMain, Pages, type Page } from './pages.js';
import { RunReader } from './reader.js';
import { mainElement, renderPage } from './render/layout.js';
import { RunWatcher } from './watch.js';

/** How the server is started. */
export interface MonitorServerOptions {
  sources: RunSources;
  /** 0 picks a free port. */
  port: number;
  /** The token the server requires (default: 32 random bytes, base64url). */
  token?: string;
  /** fs.watch debounce of a run's events (ms). */
  debounceMs?: number;
}

/** A running monitor server. */
export interface MonitorServer {
  port: number;
  token: string;
  /** The URL to open (it carries the token). */
  url: string;
  close(): Promise<void>;
}

/** Seconds between SSE comments that keep a quiet stream open. */
const HEARTBEAT_MS = 15_000;

/** Start the monitor server. USAGE when the port is taken. */
export async function startMonitorServer(options: MonitorServerOptions): Promise<MonitorServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const reader = new RunReader(options.sources);
  const pages = new Pages(reader);
  const links = serverLinks();
  const assets = await loadAssets({ live: true });
  const watcher = new RunWatcher({
    sources: () => options.sources.list(),
    rescan: () => options.sources.rescan(),
    ...(options.debounceMs === undefined ? {} : { debounceMs: options.debounceMs }),
  });
  const streams = new Set<ServerResponse>();
  let port = options.port;

  const send = (
    res: ServerResponse,
    status: number,
    type: string,
    body: string | Buffer,
    extra: Record<string, string> = {},
  ): void => {
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      'Content-Type': type,
      'Content-Length': Buffer.byteLength(body),
      ...extra,
    });
    res.end(body);
  };
  const sendPage = (res: ServerResponse, page: Page, status = 200, part: ReadonlySet<string> | null = null): void => {
    const body = part
      ? mainElement({ links, live: page.live, main: page.main }, part).toString()
      : renderPage({ title: page.title, links, live: page.live, main: page.main });
    send(res, status, 'text/html; charset=utf-8', body);
  };
  const notFound = (res: ServerResponse): void =>
    sendPage(res, { title: 'not found · hammer-box', main: notFoundMain(links), live: 'none' }, 404);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const decision = guardRequest(
      {
        method: req.method,
        url: req.url,
        host: req.headers.host,
        cookie: req.headers.cookie,
        secFetchSite: header(req, 'sec-fetch-site'),
        secFetchMode: header(req, 'sec-fetch-mode'),
      },
      { port, token },
    );
    if (!decision.ok) {
      if (decision.status === 303) {
        res.writeHead(303, { ...SECURITY_HEADERS, Location: decision.location, 'Set-Cookie': decision.setCookie });
        res.end();
      } else {
        send(
          res,
          decision.status,
          'text/plain; charset=utf-8',
          `${decision.message}\n`,
          decision.status === 405 ? { Allow: 'GET' } : {},
        );
      }
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const segments = pathSegments(url.pathname);
    if (segments === null) return notFound(res);
    // a live page asking for its main part again names the sections it holds: those are not sent
    const part = url.searchParams.get('part') === 'main' ? knownSections(header(req, 'x-monitor-known')) : null;
    const [first, ...rest] = segments;
    if (first === undefined || (first === '' && rest.length === 0)) {
      const status = url.searchParams.get('status');
      const filter = RUN_STATUSES.includes(status as RunStatus) ? (status as RunStatus) : null;
      return sendPage(res, await pages.list(links, filter), 200, part);
    }
    if (first === 'assets' && rest.length === 1) {
      const asset: Asset | undefined = assets.get(rest[0]!);
      return asset ? send(res, 200, asset.type, asset.body) : notFound(res);
    }
    if (first === 'events' && rest.length === 0) return events(req, res, url);
    if (first === 'run' && rest.length >= 2) {
      const ref = runRef(rest[0]!, rest[1]!);
      if (ref === null) return notFound(res);
      if (rest.length === 2 || (rest.length === 3 && rest[2] === '')) {
        const page = await pages.run(links, ref);
        return page ? sendPage(res, page, 200, part) : notFound(res);
      }
      if (rest.length === 4 && rest[2] === 'file' && ArtifactNameSchema.safeParse(rest[3]).success) {
        const page = await pages.artifact(links, ref, rest[3]!);
        return page ? sendPage(res, page) : notFound(res);
      }
    }
    if (first === 'chat' && (rest.length === 2 || (rest.length === 3 && rest[2] === ''))) {
      const ref = runRef(rest[0]!, rest[1]!);
      const page = ref === null ? null : await pages.conversation(links, ref);
      return page ? sendPage(res, page) : notFound(res);
    }
    return notFound(res);
  };

  const events = (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    const which = url.searchParams.get('run');
    let ref: RunRef | null = null;
    if (which !== null) {
      const slash = which.indexOf('/');
      ref = slash < 0 ? null : runRef(which.slice(0, slash), which.slice(slash + 1));
      if (ref === null) return notFound(res);
    }
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      Connection: 'keep-alive',
    });
    res.write('retry: 1000\n: connected\n\n');
    streams.add(res);
    const unsubscribe = watcher.subscribe(ref, (changed) => {
      res.write(`event: change\ndata: ${JSON.stringify({ source: changed.source, run: changed.runId })}\n\n`);
    });
    const beat = setInterval(() => res.write(': still here\n\n'), HEARTBEAT_MS);
    beat.unref();
    const end = (): void => {
      clearInterval(beat);
      unsubscribe();
      streams.delete(res);
    };
    req.on('close', end);
    res.on('close', end);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      // the message may quote a path or a state: say only that it failed (the terminal has no log either)
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'the monitor could not build this page\n');
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new HammerError('USAGE', `port ${options.port} on 127.0.0.1 is in use`, {
              hint: 'pass another --port, or --port 0 to take a free one',
              cause: err,
            })
          : err,
      ),
    );
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  port = typeof address === 'object' && address !== null ? address.port : options.port;
  return {
    port,
    token,
    url: `http://127.0.0.1:${port}/?token=${token}`,
    close: async () => {
      watcher.close();
      for (const s of streams) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The section signatures a live page says it holds (X-Monitor-Known: space-separated hex). */
function knownSections(value: string | undefined): ReadonlySet<string> {
  return new Set(
    (value ?? '')
      .split(' ')
      .filter((s) => /^[0-9a-f]{16}$/.test(s))
      .slice(0, 10_000),
  );
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The decoded segments of a path (null when one does not decode or climbs: .. and . are never names here). */
export function pathSegments(pathname: string): string[] | null {
  const out: string[] = [];
  for (const raw of pathname.split('/').slice(1)) {
    let s: string;
    try {
      s = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (s === '..' || s === '.' || s.includes('/') || s.includes('\\') || s.includes('\0')) return null;
    out.push(s);
  }
  return out;
}

/** A run reference from URL parts: a source key (digits) and a run id, or null. */
function runRef(source: string, runId: string): RunRef | null {
  return /^\d{1,6}$/.test(source) && isRunId(runId) ? { source, runId } : null;
}
