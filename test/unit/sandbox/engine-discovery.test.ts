import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { contextDirName } from '../../../src/sandbox/docker-context.js';
import { discoverEngine, type DiscoveryInputs } from '../../../src/sandbox/engine-discovery.js';

let home: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'hb-discovery-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** Write a docker config directory as the docker CLI keeps it: config.json and contexts/meta/<sha256>/meta.json. */
function dockerConfig(
  dir: string,
  opts: {
    current?: string;
    contexts?: Record<string, { host?: string; skipTlsVerify?: boolean; tls?: string[] }>;
  },
): string {
  mkdirSync(dir, { recursive: true });
  if (opts.current !== undefined)
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ auths: { 'registry.example': { auth: 'c2VjcmV0' } }, currentContext: opts.current }),
    );
  for (const [name, c] of Object.entries(opts.contexts ?? {})) {
    const meta = join(dir, 'contexts', 'meta', contextDirName(name));
    mkdirSync(meta, { recursive: true });
    const endpoint = c.host === undefined ? {} : { docker: { Host: c.host, SkipTLSVerify: c.skipTlsVerify ?? false } };
    writeFileSync(
      join(meta, 'meta.json'),
      JSON.stringify({ Name: name, Metadata: { Description: name }, Endpoints: endpoint }),
    );
    if (c.tls) {
      const tls = join(dir, 'contexts', 'tls', contextDirName(name), 'docker');
      mkdirSync(tls, { recursive: true });
      for (const f of c.tls) writeFileSync(join(tls, f), `${f} of ${name}`);
    }
  }
  return dir;
}

/** Discovery over the fixture home: files read from disk, sockets from the list given. */
function discover(env: Record<string, string> = {}, sockets: string[] = []): ReturnType<typeof discoverEngine> {
  const inputs: DiscoveryInputs = {
    env,
    home,
    readFile: (p) => (existsSync(p) ? readFileSync(p, 'utf8') : undefined),
    isSocket: (p) => sockets.includes(p),
  };
  return discoverEngine(inputs);
}

function discoveryError(env: Record<string, string>, sockets: string[] = []): unknown {
  try {
    discover(env, sockets);
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}

describe('discoverEngine: the docker CLI order', () => {
  it('takes DOCKER_HOST first, over DOCKER_CONTEXT, the current context and every socket', () => {
    dockerConfig(join(home, '.docker'), { current: 'colima', contexts: { colima: { host: 'unix:///c.sock' } } });
    const e = discover({ DOCKER_HOST: 'tcp://10.0.0.5:2375', DOCKER_CONTEXT: 'colima' }, [
      join(home, '.docker', 'run', 'docker.sock'),
    ]);
    expect(e).toEqual({
      address: { kind: 'tcp', host: '10.0.0.5', port: '2375', tls: false, certPath: undefined },
      reason: 'DOCKER_HOST',
      platform: undefined,
    });
  });

  it('names the product of a DOCKER_HOST socket it knows', () => {
    const sock = join(home, '.orbstack', 'run', 'docker.sock');
    expect(discover({ DOCKER_HOST: `unix://${sock}` })).toMatchObject({
      address: { kind: 'unix', socketPath: sock },
      platform: 'OrbStack',
    });
  });

  it('takes DOCKER_CONTEXT next, over the current context of config.json', () => {
    const sock = join(home, '.colima', 'default', 'docker.sock');
    dockerConfig(join(home, '.docker'), {
      current: 'desktop-linux',
      contexts: { colima: { host: `unix://${sock}` }, 'desktop-linux': { host: 'unix:///elsewhere.sock' } },
    });
    expect(discover({ DOCKER_CONTEXT: 'colima' })).toEqual({
      address: { kind: 'unix', socketPath: sock },
      reason: 'context colima from DOCKER_CONTEXT',
      platform: 'Colima',
    });
  });

  it("then the current context of ~/.docker/config.json, read from the context's meta.json", () => {
    const sock = join(home, '.colima', 'default', 'docker.sock');
    dockerConfig(join(home, '.docker'), { current: 'colima', contexts: { colima: { host: `unix://${sock}` } } });
    // a desktop socket is there too: the context still wins, as for the docker CLI
    expect(discover({}, [join(home, '.docker', 'run', 'docker.sock')])).toEqual({
      address: { kind: 'unix', socketPath: sock },
      reason: 'context colima from ~/.docker/config.json',
      platform: 'Colima',
    });
  });

  it('reads config.json and the contexts from DOCKER_CONFIG when it is set', () => {
    const dir = dockerConfig(join(home, 'elsewhere'), {
      current: 'remote',
      contexts: { remote: { host: 'ssh://me@build-box' } },
    });
    dockerConfig(join(home, '.docker'), { current: 'colima', contexts: { colima: { host: 'unix:///c.sock' } } });
    expect(discover({ DOCKER_CONFIG: dir })).toEqual({
      address: { kind: 'ssh', host: 'build-box', port: '22', username: 'me' },
      reason: 'context remote from ~/elsewhere/config.json (DOCKER_CONFIG)',
      platform: undefined,
    });
  });

  it("names Docker Desktop's own context by its name", () => {
    const sock = join(home, '.docker', 'run', 'docker.sock');
    dockerConfig(join(home, '.docker'), {
      current: 'desktop-linux',
      contexts: { 'desktop-linux': { host: `unix://${sock}` } },
    });
    expect(discover()).toMatchObject({
      platform: 'Docker Desktop',
      reason: 'context desktop-linux from ~/.docker/config.json',
    });
  });

  it('uses TLS with the material under contexts/tls/ of a tcp context', () => {
    const dir = dockerConfig(join(home, '.docker'), {
      current: 'tls-box',
      contexts: { 'tls-box': { host: 'tcp://engine.example:2376', tls: ['ca.pem', 'cert.pem', 'key.pem'] } },
    });
    expect(discover().address).toEqual({
      kind: 'tcp',
      host: 'engine.example',
      port: '2376',
      tls: true,
      certPath: join(dir, 'contexts', 'tls', contextDirName('tls-box'), 'docker'),
    });
  });

  it("uses TLS without verifying the engine's certificate for a context with SkipTLSVerify", () => {
    dockerConfig(join(home, '.docker'), {
      current: 'lab',
      contexts: { lab: { host: 'tcp://lab.example:2376', skipTlsVerify: true } },
    });
    expect(discover().address).toEqual({
      kind: 'tcp',
      host: 'lab.example',
      port: '2376',
      tls: true,
      certPath: undefined,
      skipVerify: true,
    });
  });

  it('speaks plain HTTP to a tcp context with no TLS material, whatever its port', () => {
    dockerConfig(join(home, '.docker'), { current: 'plain', contexts: { plain: { host: 'tcp://box:2376' } } });
    expect(discover().address).toMatchObject({ kind: 'tcp', tls: false, port: '2376' });
  });

  it('treats the context "default" (and an unreadable config.json) as no context', () => {
    const desktop = join(home, '.docker', 'run', 'docker.sock');
    dockerConfig(join(home, '.docker'), { current: 'default' });
    expect(discover({}, [desktop]).reason).toBe("Docker Desktop's socket ~/.docker/run/docker.sock");
    expect(discover({ DOCKER_CONTEXT: 'default' }, [desktop]).reason).toBe(
      "Docker Desktop's socket ~/.docker/run/docker.sock",
    );
    writeFileSync(join(home, '.docker', 'config.json'), '{ not json');
    expect(discover({}, [desktop]).reason).toBe("Docker Desktop's socket ~/.docker/run/docker.sock");
  });

  it('refuses a DOCKER_CONTEXT or current context that does not exist, saying what to do', () => {
    dockerConfig(join(home, '.docker'), { current: 'gone' });
    const fromEnv = discoveryError({ DOCKER_CONTEXT: 'nope' });
    expect(isHammerError(fromEnv, 'ENGINE_UNAVAILABLE')).toBe(true);
    expect((fromEnv as Error).message).toMatch(
      /^DOCKER_CONTEXT names the context "nope", which does not exist \(no ~\/\.docker\/contexts\/meta\/[0-9a-f]{64}\/meta\.json\)$/,
    );
    expect((fromEnv as { hint: string }).hint).toMatch(/docker context ls/);
    const fromFile = discoveryError({});
    expect((fromFile as Error).message).toMatch(
      /^the current context of ~\/\.docker\/config\.json is "gone", which does not exist/,
    );
    expect((fromFile as { hint: string }).hint).toMatch(/docker context use/);
  });

  it('refuses a context without a Docker endpoint, or whose meta.json is not one', () => {
    dockerConfig(join(home, '.docker'), { current: 'k8s-only', contexts: { 'k8s-only': {} } });
    expect((discoveryError({}) as Error).message).toMatch(/"k8s-only", which has no Docker endpoint/);
    writeFileSync(join(home, '.docker', 'contexts', 'meta', contextDirName('k8s-only'), 'meta.json'), '[1]');
    expect((discoveryError({}) as Error).message).toMatch(/"k8s-only", whose .*meta\.json cannot be read/);
  });
});

describe('discoverEngine: the known sockets', () => {
  const cases: [string, string[], string][] = [
    ['Docker Desktop', ['.docker', 'run', 'docker.sock'], "Docker Desktop's socket ~/.docker/run/docker.sock"],
    ['Colima', ['.colima', 'default', 'docker.sock'], "Colima's socket ~/.colima/default/docker.sock"],
    ['Colima', ['.colima', 'docker.sock'], "Colima's socket ~/.colima/docker.sock"],
    ['OrbStack', ['.orbstack', 'run', 'docker.sock'], "OrbStack's socket ~/.orbstack/run/docker.sock"],
    ['Rancher Desktop', ['.rd', 'docker.sock'], "Rancher Desktop's socket ~/.rd/docker.sock"],
  ];
  for (const [platform, parts, reason] of cases) {
    it(`finds ${platform} at ~/${parts.join('/')} when nothing names an engine`, () => {
      const sock = join(home, ...parts);
      expect(discover({}, [sock, '/var/run/docker.sock'])).toEqual({
        address: { kind: 'unix', socketPath: sock },
        reason,
        platform,
      });
    });
  }

  it("finds Colima's socket under COLIMA_HOME", () => {
    const sock = join(home, 'colima-home', 'default', 'docker.sock');
    expect(discover({ COLIMA_HOME: join(home, 'colima-home') }, [sock])).toMatchObject({
      address: { socketPath: sock },
      platform: 'Colima',
    });
  });

  it('tries Docker Desktop, then Colima, then OrbStack, then Rancher Desktop', () => {
    const all = [
      join(home, '.rd', 'docker.sock'),
      join(home, '.orbstack', 'run', 'docker.sock'),
      join(home, '.colima', 'default', 'docker.sock'),
      join(home, '.docker', 'run', 'docker.sock'),
    ];
    const order: string[] = [];
    for (let i = all.length; i > 0; i--) order.push(discover({}, all.slice(0, i)).platform ?? '');
    expect(order).toEqual(['Docker Desktop', 'Colima', 'OrbStack', 'Rancher Desktop']);
  });

  it('takes /var/run/docker.sock before any Podman socket', () => {
    const rootless = '/run/user/1000/podman/podman.sock';
    expect(discover({ XDG_RUNTIME_DIR: '/run/user/1000' }, ['/var/run/docker.sock', rootless])).toEqual({
      address: { kind: 'unix', socketPath: '/var/run/docker.sock' },
      reason: 'the default socket',
      platform: undefined,
    });
  });

  it('takes a rootless or rootful Podman socket only when no Docker socket is there (runs then refuse it)', () => {
    const rootless = '/run/user/1000/podman/podman.sock';
    expect(discover({ XDG_RUNTIME_DIR: '/run/user/1000' }, [rootless, '/run/podman/podman.sock'])).toEqual({
      address: { kind: 'unix', socketPath: rootless },
      reason: "Podman's socket /run/user/1000/podman/podman.sock (no Docker engine socket was found)",
      platform: 'Podman',
    });
    expect(discover({}, ['/run/podman/podman.sock'])).toMatchObject({ platform: 'Podman' });
  });

  it('falls back to /var/run/docker.sock, saying nothing else was found', () => {
    expect(discover()).toEqual({
      address: { kind: 'unix', socketPath: '/var/run/docker.sock' },
      reason: expect.stringMatching(/^the default socket \(nothing else was found: no DOCKER_HOST, no docker context/),
      platform: undefined,
    });
  });
});
