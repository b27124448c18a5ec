// Connecting to the Docker engine: DOCKER_HOST (unix, tcp, ssh) as the docker CLI reads it, and a ping
// that turns "nothing answers" into one typed error telling the user what to do.
import { Agent } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type Dockerode from 'dockerode';
import { HammerError, abortError } from '../errors.js';
import { ENGINE_HINT, messageOf } from './docker-errors.js';
import { loadDockerode } from './dockerode-load.js';
import { withRequestDeadlines } from './engine-deadline.js';

/** How to reach the engine, read from the environment (pure). */
export type EngineAddress =
  | { kind: 'unix'; socketPath: string | undefined }
  | { kind: 'tcp'; host: string; port: string; tls: boolean; certPath: string | undefined }
  | { kind: 'ssh'; host: string; port: string; username: string | undefined };

/** Where DOCKER_HOST points (unix socket when unset; `socketPath` undefined means the default socket). */
export function engineAddress(env: NodeJS.ProcessEnv): EngineAddress {
  const raw = env.DOCKER_HOST?.trim() ?? '';
  if (raw === '') return { kind: 'unix', socketPath: undefined };
  if (raw.startsWith('unix://')) return { kind: 'unix', socketPath: raw.slice('unix://'.length) || undefined };
  let url: URL;
  try {
    url = new URL(raw.includes('//') ? raw : `tcp://${raw}`);
  } catch (err) {
    throw new HammerError('ENGINE_UNAVAILABLE', `DOCKER_HOST is not an address: ${JSON.stringify(raw)}`, {
      hint: 'set DOCKER_HOST like unix:///var/run/docker.sock, tcp://host:2375 or ssh://user@host',
      cause: err,
    });
  }
  if (url.protocol === 'ssh:')
    return { kind: 'ssh', host: url.hostname, port: url.port || '22', username: url.username || undefined };
  const tls = env.DOCKER_TLS_VERIFY === '1' || url.port === '2376' || url.protocol === 'https:';
  return {
    kind: 'tcp',
    host: url.hostname,
    port: url.port || (tls ? '2376' : '2375'),
    tls,
    certPath: env.DOCKER_CERT_PATH || undefined,
  };
}

/**
 * A dockerode client for the engine DOCKER_HOST names (keep-alive on a local socket: it saves time
 * on every exec), every request of which has a deadline (see engine-deadline.ts).
 */
export function createDockerClient(env: NodeJS.ProcessEnv = process.env): Dockerode {
  return withRequestDeadlines(dockerClient(env));
}

function dockerClient(env: NodeJS.ProcessEnv): Dockerode {
  const Dockerode = loadDockerode();
  const address = engineAddress(env);
  // Explicit undefineds: dockerode merges its own reading of process.env under these options.
  const base = { host: undefined, port: undefined, protocol: undefined, socketPath: undefined, username: undefined };
  switch (address.kind) {
    case 'unix': {
      const desktop = join(homedir(), '.docker', 'run', 'docker.sock');
      const socketPath = address.socketPath ?? (existsSync(desktop) ? desktop : '/var/run/docker.sock');
      // `agent` is a docker-modem option the type definitions leave out; a typed variable carries it.
      const options: Dockerode.DockerOptions & { agent: Agent } = {
        ...base,
        socketPath,
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
      const certs = address.certPath
        ? {
            ca: readFileSync(join(address.certPath, 'ca.pem')),
            cert: readFileSync(join(address.certPath, 'cert.pem')),
            key: readFileSync(join(address.certPath, 'key.pem')),
          }
        : {};
      return new Dockerode({
        ...base,
        protocol: address.tls ? 'https' : 'http',
        host: address.host,
        port: address.port,
        ...certs,
      });
    }
  }
}

/** The hint shown whenever no engine answers. */

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
    throw new HammerError('ENGINE_UNAVAILABLE', `no Docker engine answers (${messageOf(cause)})`, {
      hint: ENGINE_HINT,
      cause,
    });
  } finally {
    clearTimeout(timer);
  }
}
