// A registry on 127.0.0.1 for `images push` tests: the Docker Registry HTTP API v2's push side
// (blob uploads, monolithic or chunked, cross-repository mounts refused, manifests by tag or digest)
// held in memory. The Docker engine treats 127.0.0.0/8 as an insecure registry, so it pushes here
// over plain HTTP; what it sends is recorded.
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running registry: its address ("127.0.0.1:port") and what was pushed to it. */
export interface RegistryServer {
  host: string;
  /** Manifests by "name:reference" (a tag or a digest): their digest and media type. */
  manifests: Map<string, { digest: string; mediaType: string }>;
  blobs: Map<string, number>;
  close(): Promise<void>;
}

const sha256 = (b: Buffer): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** Start a registry on an ephemeral port. */
export async function startRegistry(): Promise<RegistryServer> {
  const blobs = new Map<string, Buffer>();
  const uploads = new Map<string, Buffer[]>();
  const manifests = new Map<string, { digest: string; mediaType: string; body: Buffer }>();
  const body = async (req: IncomingMessage): Promise<Buffer> => {
    const parts: Buffer[] = [];
    for await (const c of req) parts.push(c as Buffer);
    return Buffer.concat(parts);
  };
  const reply = (res: ServerResponse, code: number, headers: Record<string, string> = {}, text = ''): void => {
    res.writeHead(code, { 'docker-distribution-api-version': 'registry/2.0', ...headers });
    res.end(text);
  };
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const p = url.pathname;
      const m = req.method;
      if (p === '/v2/' || p === '/v2') return reply(res, 200, { 'content-type': 'application/json' }, '{}');
      const blob = /^\/v2\/(.+)\/blobs\/(sha256:[0-9a-f]{64})$/.exec(p);
      if (blob && (m === 'HEAD' || m === 'GET')) {
        const b = blobs.get(blob[2]!);
        if (!b) return reply(res, 404);
        return reply(res, 200, { 'content-length': String(b.length), 'docker-content-digest': blob[2]! });
      }
      const start = /^\/v2\/(.+)\/blobs\/uploads\/?$/.exec(p);
      if (start && m === 'POST') {
        // a mount from another repository is refused: the engine uploads the blob instead
        const id = randomUUID();
        uploads.set(id, []);
        const first = await body(req);
        const digest = url.searchParams.get('digest');
        if (digest && !url.searchParams.get('mount')) {
          blobs.set(digest, first);
          return reply(res, 201, { location: `/v2/${start[1]}/blobs/${digest}`, 'docker-content-digest': digest });
        }
        return reply(res, 202, {
          location: `/v2/${start[1]}/blobs/uploads/${id}`,
          range: '0-0',
          'docker-upload-uuid': id,
        });
      }
      const upload = /^\/v2\/(.+)\/blobs\/uploads\/([0-9a-f-]+)$/.exec(p);
      if (upload && (m === 'PATCH' || m === 'PUT')) {
        const parts = uploads.get(upload[2]!);
        if (!parts) return reply(res, 404);
        parts.push(await body(req));
        const size = parts.reduce((n, b) => n + b.length, 0);
        if (m === 'PATCH')
          return reply(res, 202, {
            location: `/v2/${upload[1]}/blobs/uploads/${upload[2]}`,
            range: `0-${Math.max(0, size - 1)}`,
            'docker-upload-uuid': upload[2]!,
          });
        const all = Buffer.concat(parts);
        const digest = url.searchParams.get('digest') ?? '';
        if (sha256(all) !== digest) return reply(res, 400, {}, '{"errors":[{"code":"DIGEST_INVALID"}]}');
        blobs.set(digest, all);
        uploads.delete(upload[2]!);
        return reply(res, 201, { location: `/v2/${upload[1]}/blobs/${digest}`, 'docker-content-digest': digest });
      }
      const manifest = /^\/v2\/(.+)\/manifests\/([^/]+)$/.exec(p);
      if (manifest && m === 'PUT') {
        const b = await body(req);
        const digest = sha256(b);
        const entry = { digest, mediaType: req.headers['content-type'] ?? '', body: b };
        manifests.set(`${manifest[1]}:${manifest[2]}`, entry);
        manifests.set(`${manifest[1]}@${digest}`, entry);
        return reply(res, 201, { location: `/v2/${manifest[1]}/manifests/${digest}`, 'docker-content-digest': digest });
      }
      if (manifest && (m === 'HEAD' || m === 'GET')) {
        const ref = manifest[2]!.startsWith('sha256:')
          ? `${manifest[1]}@${manifest[2]}`
          : `${manifest[1]}:${manifest[2]}`;
        const e = manifests.get(ref);
        if (!e) return reply(res, 404);
        res.writeHead(200, {
          'docker-distribution-api-version': 'registry/2.0',
          'content-type': e.mediaType,
          'docker-content-digest': e.digest,
          'content-length': String(e.body.length),
        });
        return res.end(m === 'GET' ? e.body : undefined);
      }
      reply(res, 404);
    })().catch(() => reply(res, 500));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    get manifests() {
      return new Map([...manifests].map(([k, v]) => [k, { digest: v.digest, mediaType: v.mediaType }]));
    },
    get blobs() {
      return new Map([...blobs].map(([k, v]) => [k, v.length]));
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
