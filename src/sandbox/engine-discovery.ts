// Which Docker engine to talk to, found in the docker CLI's order: DOCKER_HOST, then DOCKER_CONTEXT,
// then the current context of config.json (DOCKER_CONFIG honoured), then the sockets the desktop
// engines make (Docker Desktop, Colima, OrbStack, Rancher Desktop), then /var/run/docker.sock, then
// Podman's sockets. Pure: the environment, the home directory, a file reader and a socket check come in.
import { join } from 'node:path';
import { HammerError } from '../errors.js';
import { contextMetaPath, currentContext, dockerConfigDir, parseContextMeta } from './docker-context.js';

/** How to reach the engine. */
export type EngineAddress =
  | { kind: 'unix'; socketPath: string | undefined }
  | {
      kind: 'tcp';
      host: string;
      port: string;
      tls: boolean;
      /** A directory with ca.pem, cert.pem and key.pem (each read when present). */
      certPath: string | undefined;
      /** Do not verify the engine's certificate (a context's SkipTLSVerify). */
      skipVerify?: true;
    }
  | { kind: 'ssh'; host: string; port: string; username: string | undefined };

/** An engine address with its socket known. */
export type ResolvedAddress = Exclude<EngineAddress, { kind: 'unix' }> | { kind: 'unix'; socketPath: string };

/** What discovery reads, passed in so it can be decided without touching the machine. */
export interface DiscoveryInputs {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  /** A file's text, or undefined when there is none. */
  readFile: (path: string) => string | undefined;
  /** Whether a socket (or a link to one) is at the path. */
  isSocket: (path: string) => boolean;
}

/** Where the engine is, why that one, and which product made it when that is known. */
export interface EngineEndpoint {
  address: ResolvedAddress;
  /** Why this engine, for doctor and `run --verbose`: "context colima from ~/.docker/config.json". */
  reason: string;
  /** Docker Desktop, Colima, OrbStack, Rancher Desktop or Podman, when the socket or context says. */
  platform: string | undefined;
}

/** The docker CLI's default socket on Linux and macOS. */
export const DEFAULT_SOCKET = '/var/run/docker.sock';

/** A socket a desktop engine (or Podman) makes, and whose it is. */
export interface KnownSocket {
  path: string;
  platform: string;
}

/** The sockets of the desktop engines, in the order they are tried (before /var/run/docker.sock). */
export function desktopSockets(env: Readonly<Record<string, string | undefined>>, home: string): KnownSocket[] {
  const colimaHome = env['COLIMA_HOME']?.trim();
  return [
    { path: join(home, '.docker', 'run', 'docker.sock'), platform: 'Docker Desktop' },
    ...(colimaHome ? [{ path: join(colimaHome, 'default', 'docker.sock'), platform: 'Colima' }] : []),
    { path: join(home, '.colima', 'default', 'docker.sock'), platform: 'Colima' },
    // Colima before 0.4 kept the default profile's socket at the top
    { path: join(home, '.colima', 'docker.sock'), platform: 'Colima' },
    { path: join(home, '.orbstack', 'run', 'docker.sock'), platform: 'OrbStack' },
    { path: join(home, '.rd', 'docker.sock'), platform: 'Rancher Desktop' },
  ];
}

/** Podman's sockets (rootless, rootful, a macOS machine): tried last, and refused once connected (see podman.ts). */
export function podmanSockets(env: Readonly<Record<string, string | undefined>>, home: string): KnownSocket[] {
  const runtimeDir = env['XDG_RUNTIME_DIR']?.trim();
  return [
    ...(runtimeDir ? [{ path: join(runtimeDir, 'podman', 'podman.sock'), platform: 'Podman' }] : []),
    { path: '/run/podman/podman.sock', platform: 'Podman' },
    { path: join(home, '.local', 'share', 'containers', 'podman', 'machine', 'podman.sock'), platform: 'Podman' },
  ];
}

/** Where DOCKER_HOST points (unix socket when unset; `socketPath` undefined means "not set"). */
export function engineAddress(env: Readonly<Record<string, string | undefined>>): EngineAddress {
  const raw = env['DOCKER_HOST']?.trim() ?? '';
  if (raw === '') return { kind: 'unix', socketPath: undefined };
  return parseHost(raw, 'DOCKER_HOST', {
    tlsVerify: env['DOCKER_TLS_VERIFY'] === '1',
    certPath: env['DOCKER_CERT_PATH'] || undefined,
    tlsByPort: true,
  });
}

/** Find the engine the docker CLI would use (see the file comment); throws ENGINE_UNAVAILABLE for a context that is not there. */
export function discoverEngine(inputs: DiscoveryInputs): EngineEndpoint {
  const { env, home } = inputs;
  const fromEnv = engineAddress(env);
  if (env['DOCKER_HOST']?.trim()) {
    return { address: resolved(fromEnv), reason: 'DOCKER_HOST', platform: platformOfAddress(fromEnv, env, home) };
  }
  const configDir = dockerConfigDir(env, home);
  const configFile = join(configDir, 'config.json');
  const envContext = env['DOCKER_CONTEXT']?.trim() ?? '';
  if (envContext !== '' && envContext !== 'default') {
    return fromContext(inputs, configDir, envContext, 'DOCKER_CONTEXT');
  }
  if (envContext === '') {
    const current = currentContext(inputs.readFile(configFile));
    if (current !== '' && current !== 'default') {
      return fromContext(inputs, configDir, current, `${tildify(configFile, home)}${configSource(env)}`);
    }
  }
  for (const s of desktopSockets(env, home)) {
    if (inputs.isSocket(s.path))
      return {
        address: { kind: 'unix', socketPath: s.path },
        reason: `${s.platform}'s socket ${tildify(s.path, home)}`,
        platform: s.platform,
      };
  }
  if (inputs.isSocket(DEFAULT_SOCKET))
    return { address: { kind: 'unix', socketPath: DEFAULT_SOCKET }, reason: 'the default socket', platform: undefined };
  for (const s of podmanSockets(env, home)) {
    if (inputs.isSocket(s.path))
      return {
        address: { kind: 'unix', socketPath: s.path },
        reason: `Podman's socket ${tildify(s.path, home)} (no Docker engine socket was found)`,
        platform: s.platform,
      };
  }
  return {
    address: { kind: 'unix', socketPath: DEFAULT_SOCKET },
    reason:
      'the default socket (nothing else was found: no DOCKER_HOST, no docker context, no Docker Desktop, Colima, OrbStack or Rancher Desktop socket)',
    platform: undefined,
  };
}

/** "~/x" for a path under the home directory. */
export function tildify(path: string, home: string): string {
  if (home !== '' && home !== '/' && (path === home || path.startsWith(`${home}/`)))
    return `~${path.slice(home.length)}`;
  return path;
}

function configSource(env: Readonly<Record<string, string | undefined>>): string {
  return env['DOCKER_CONFIG']?.trim() ? ' (DOCKER_CONFIG)' : '';
}

/** The endpoint of a named context; `from` says who named it (DOCKER_CONTEXT, or the config file). */
function fromContext(inputs: DiscoveryInputs, configDir: string, name: string, from: string): EngineEndpoint {
  const { env, home } = inputs;
  const metaPath = contextMetaPath(configDir, name);
  const meta = parseContextMeta(configDir, name, inputs.readFile(metaPath));
  const who =
    from === 'DOCKER_CONTEXT'
      ? `DOCKER_CONTEXT names the context ${JSON.stringify(name)}`
      : `the current context of ${from} is ${JSON.stringify(name)}`;
  const hint =
    from === 'DOCKER_CONTEXT'
      ? "set DOCKER_CONTEXT to a context 'docker context ls' lists, or unset it"
      : "choose one 'docker context ls' lists with 'docker context use <name>' (or 'docker context use default')";
  if (meta === undefined)
    throw new HammerError('ENGINE_UNAVAILABLE', `${who}, which does not exist (no ${tildify(metaPath, home)})`, {
      hint,
    });
  if ('invalid' in meta)
    throw new HammerError(
      'ENGINE_UNAVAILABLE',
      `${who}, whose ${tildify(metaPath, home)} cannot be read: ${meta.invalid}`,
      { hint },
    );
  if (meta.host === undefined)
    throw new HammerError('ENGINE_UNAVAILABLE', `${who}, which has no Docker endpoint`, { hint });
  const certFiles = ['ca.pem', 'cert.pem', 'key.pem'].some((f) => inputs.readFile(join(meta.tlsDir, f)) !== undefined);
  const address = parseHost(meta.host, `context ${name}`, {
    tlsVerify: certFiles || meta.skipTlsVerify,
    certPath: certFiles ? meta.tlsDir : undefined,
    tlsByPort: false,
    skipVerify: meta.skipTlsVerify,
  });
  return {
    address: resolved(address),
    reason: `context ${name} from ${from}`,
    platform: platformOfAddress(address, env, home) ?? platformOfContext(name),
  };
}

/** Parse an engine address as DOCKER_HOST or a context's Host gives it. */
function parseHost(
  raw: string,
  what: string,
  tls: { tlsVerify: boolean; certPath: string | undefined; tlsByPort: boolean; skipVerify?: boolean },
): EngineAddress {
  if (raw.startsWith('unix://')) return { kind: 'unix', socketPath: raw.slice('unix://'.length) || undefined };
  let url: URL;
  try {
    url = new URL(raw.includes('//') ? raw : `tcp://${raw}`);
  } catch (err) {
    throw new HammerError('ENGINE_UNAVAILABLE', `${what} is not an address: ${JSON.stringify(raw)}`, {
      hint: 'use an address like unix:///var/run/docker.sock, tcp://host:2375 or ssh://user@host',
      cause: err,
    });
  }
  if (url.protocol === 'ssh:')
    return { kind: 'ssh', host: url.hostname, port: url.port || '22', username: url.username || undefined };
  const on = tls.tlsVerify || (tls.tlsByPort && url.port === '2376') || url.protocol === 'https:';
  return {
    kind: 'tcp',
    host: url.hostname,
    port: url.port || (on ? '2376' : '2375'),
    tls: on,
    certPath: tls.certPath,
    ...(tls.skipVerify ? { skipVerify: true as const } : {}),
  };
}

/** A unix address with its socket filled in (an empty unix:// is the default socket, as for the docker CLI). */
function resolved(a: EngineAddress): ResolvedAddress {
  return a.kind === 'unix' ? { kind: 'unix', socketPath: a.socketPath ?? DEFAULT_SOCKET } : a;
}

/** The product a socket path belongs to. */
function platformOfAddress(
  a: EngineAddress,
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string | undefined {
  if (a.kind !== 'unix' || a.socketPath === undefined) return undefined;
  const known = [...desktopSockets(env, home), ...podmanSockets(env, home)].find((s) => s.path === a.socketPath);
  if (known) return known.platform;
  const p = a.socketPath;
  if (p.includes('/.colima/')) return 'Colima';
  if (p.includes('/.orbstack/')) return 'OrbStack';
  if (p.includes('/.rd/')) return 'Rancher Desktop';
  if (/\/podman[^/]*\.sock$/.test(p)) return 'Podman';
  return undefined;
}

/** The product a context's name belongs to (the names those products give their contexts). */
function platformOfContext(name: string): string | undefined {
  if (name === 'desktop-linux') return 'Docker Desktop';
  if (name === 'colima' || name.startsWith('colima-')) return 'Colima';
  if (name === 'orbstack') return 'OrbStack';
  if (name === 'rancher-desktop') return 'Rancher Desktop';
  return undefined;
}
