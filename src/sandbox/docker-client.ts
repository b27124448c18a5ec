// Connecting to the Docker engine that discovery found (see engine-discovery.ts: DOCKER_HOST, a docker
// context, a desktop engine's socket, the default socket), and a ping that turns "nothing answers"
// into one typed error telling the user what to do.
import { Agent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type Dockerode from 'dockerode';
import { HammerError, abortError } from '../errors.js';
import { ENGINE_HINT, messageOf } from './docker-errors.js';
import { loadDockerode } from './dockerode-load.js';
import { withRequestDeadlines } from './engine-deadline.js';
import { discoverEngine, type EngineEndpoint, type ResolvedAddress } from './engine-discovery.js';

export { engineAddress, type EngineAddress } from './engine-discovery.js';

/** Largest docker config or context file read (config.json holds credentials of other tools too; they are never kept). */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** The engine the docker CLI would use for `env`, looked up on this machine (see engine-discovery.ts). */
export function findEngine(env: NodeJS.ProcessEnv = process.env): EngineEndpoint {
  return discoverEngine({ env, home: env.HOME || homedir(), readFile: readSmallFile, isSocket });
}

/** "unix:///var/run/docker.sock", "tcp://host:2376 (TLS)", "ssh://me@box:22". */
export function describeAddress(a: ResolvedAddress): string {
  switch (a.kind) {
    case 'unix':
      return `unix://${a.socketPath}`;
    case 'tcp':
      return `tcp://${a.host}:${a.port}${a.tls ? (a.skipVerify ? ' (TLS, certificate not verified)' : ' (TLS)') : ''}`;
    case 'ssh':
      return `ssh://${a.username ? `${a.username}@` : ''}${a.host}:${a.port}`;
  }
}

/** Where the engine is and why: "unix:///x/docker.sock (context colima from ~/.docker/config.json)". */
export function describeEndpoint(e: EngineEndpoint): string {
  return `${describeAddress(e.address)} (${e.reason})`;
}

/**
 * A dockerode client for the engine discovery finds in `env` (or `endpoint`), every request of which
 * has a deadline (see engine-deadline.ts); keep-alive on a local socket saves time on every exec.
 */
export function createDockerClient(env: NodeJS.ProcessEnv = process.env, endpoint?: EngineEndpoint): Dockerode {
  return withRequestDeadlines(dockerClient(env, (endpoint ?? findEngine(env)).address));
}

function dockerClient(env: NodeJS.ProcessEnv, address: ResolvedAddress): Dockerode {
  const Dockerode = loadDockerode();
  // Explicit undefineds: dockerode merges its own reading of process.env under these options.
  const base = { host: undefined, port: undefined, protocol: undefined, socketPath: undefined, username: undefined };
  switch (address.kind) {
    case 'unix': {
      // `agent` is a docker-modem option the type definitions leave out; a typed variable carries it.
      const options: Dockerode.DockerOptions & { agent: Agent } = {
        ...base,
        socketPath: address.socketPath,
        agent: new Agent({ keepAlive: true }),
      };
      return new Dockerode(options);
    }
    case 'ssh':
      return new Dockerode({
        ...base,
        protocol: 'ssh',
        host: address.host,
        port: address.port,
        ...(address.username ? { username: address.username } : {}),
        sshOptions: { agent: env.SSH_AUTH_SOCK },
      });
    case 'tcp': {
      const certs = address.certPath ? tlsFiles(address.certPath) : {};
      const options: Dockerode.DockerOptions & { agent?: HttpsAgent } = {
        ...base,
        protocol: address.tls ? 'https' : 'http',
        host: address.host,
        port: address.port,
        ...certs,
        // a context's SkipTLSVerify: encrypted, but the engine's certificate is not checked (as the docker CLI does)
        ...(address.tls && address.skipVerify
          ? { agent: new HttpsAgent({ ...certs, rejectUnauthorized: false }) }
          : {}),
      };
      return new Dockerode(options);
    }
  }
}

/** A client for the engine discovery finds in `env`, verified to answer; the endpoint says where it is and why. */
export async function connectDocker(
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<{ docker: Dockerode; endpoint: EngineEndpoint }> {
  const endpoint = findEngine(env);
  const docker = createDockerClient(env, endpoint);
  await pingEngine(docker, signal, CONNECT_TIMEOUT_MS, endpoint);
  return { docker, endpoint };
}

/** ca.pem, cert.pem and key.pem of a TLS directory, each when present. */
function tlsFiles(dir: string): { ca?: Buffer; cert?: Buffer; key?: Buffer } {
  const out: { ca?: Buffer; cert?: Buffer; key?: Buffer } = {};
  for (const name of ['ca', 'cert', 'key'] as const) {
    const text = readSmallFile(join(dir, `${name}.pem`));
    if (text !== undefined) out[name] = Buffer.from(text);
  }
  return out;
}

/** A regular file's text up to MAX_CONFIG_BYTES; undefined when it is not there (or not a regular file). */
function readSmallFile(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return undefined;
    if (st.size > MAX_CONFIG_BYTES)
      throw new HammerError('ENGINE_UNAVAILABLE', `${path} is larger than ${MAX_CONFIG_BYTES} bytes`, {
        hint: 'this is not a docker config or context file; check DOCKER_CONFIG',
      });
    const buf = Buffer.alloc(st.size);
    let read = 0;
    while (read < buf.length) {
      const n = readSync(fd, buf, read, buf.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return buf.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function isSocket(path: string): boolean {
  try {
    return statSync(path).isSocket();
  } catch {
    return false;
  }
}

/** How long the engine has to answer the first request (connect and ping). */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Check that the engine answers within `timeoutMs`; throws ENGINE_UNAVAILABLE (or ABORTED)
 * otherwise. The request is aborted at the deadline (its socket closed), so nothing is left
 * waiting on an engine that accepted the connection and never answered.
 */
export async function pingEngine(
  docker: Dockerode,
  signal?: AbortSignal,
  timeoutMs = CONNECT_TIMEOUT_MS,
  /** Where the engine was looked for, named in the error. */
  endpoint?: EngineEndpoint,
): Promise<void> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
  const abortSignal = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
  try {
    // dockerode's ping takes options (abortSignal) that its type definitions leave out
    const ping = docker.ping.bind(docker) as unknown as (opts: { abortSignal: AbortSignal }) => Promise<unknown>;
    await ping({ abortSignal });
  } catch (err) {
    if (signal?.aborted) throw abortError(signal, 'reaching the Docker engine');
    const cause: unknown = deadline.signal.aborted ? deadline.signal.reason : err;
    const where = endpoint ? ` at ${describeEndpoint(endpoint)}` : '';
    throw new HammerError('ENGINE_UNAVAILABLE', `no Docker engine answers${where} (${messageOf(cause)})`, {
      hint: ENGINE_HINT,
      cause,
    });
  } finally {
    clearTimeout(timer);
  }
}
