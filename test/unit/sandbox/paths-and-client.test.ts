import { describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { connectDocker, createDockerClient, engineAddress, pingEngine } from '../../../src/sandbox/docker-client.js';
import { safeRelativePath, workspaceRelative } from '../../../src/sandbox/paths.js';

describe('workspaceRelative', () => {
  it('accepts the workspace and paths under it', () => {
    expect(workspaceRelative('/workspace')).toBe('');
    expect(workspaceRelative('/workspace/')).toBe('');
    expect(workspaceRelative('/workspace/a/b.txt')).toBe('a/b.txt');
    expect(workspaceRelative('/workspace//a/./b')).toBe('a/b');
  });

  it('refuses anything that is not inside it', () => {
    for (const p of ['/etc/passwd', '/workspace/../etc', '/workspace-other/x', 'workspace/a', '/workspace/a\0b', '/']) {
      expect(() => workspaceRelative(p)).toThrow(/refused/);
    }
  });
});

describe('safeRelativePath', () => {
  it('accepts plain relative paths and refuses escapes', () => {
    expect(safeRelativePath('a/b.txt')).toBe('a/b.txt');
    for (const p of ['', '/a', '../a', 'a/../../b', 'a//b', './a', 'a/'])
      expect(() => safeRelativePath(p)).toThrow(/refused/);
  });
});

describe('engineAddress', () => {
  it('reads DOCKER_HOST like the docker CLI', () => {
    expect(engineAddress({})).toEqual({ kind: 'unix', socketPath: undefined });
    expect(engineAddress({ DOCKER_HOST: 'unix:///run/user/1000/docker.sock' })).toEqual({
      kind: 'unix',
      socketPath: '/run/user/1000/docker.sock',
    });
    expect(engineAddress({ DOCKER_HOST: 'tcp://10.0.0.5:2375' })).toEqual({
      kind: 'tcp',
      host: '10.0.0.5',
      port: '2375',
      tls: false,
      certPath: undefined,
    });
    expect(engineAddress({ DOCKER_HOST: 'tcp://h:2376', DOCKER_CERT_PATH: '/c' })).toEqual({
      kind: 'tcp',
      host: 'h',
      port: '2376',
      tls: true,
      certPath: '/c',
    });
    expect(engineAddress({ DOCKER_HOST: 'h:1234', DOCKER_TLS_VERIFY: '1' })).toMatchObject({
      kind: 'tcp',
      host: 'h',
      port: '1234',
      tls: true,
    });
    expect(engineAddress({ DOCKER_HOST: 'ssh://me@box' })).toEqual({
      kind: 'ssh',
      host: 'box',
      port: '22',
      username: 'me',
    });
  });

  it('a malformed DOCKER_HOST is ENGINE_UNAVAILABLE', () => {
    let err: unknown;
    try {
      engineAddress({ DOCKER_HOST: 'tcp://[bad' });
    } catch (e) {
      err = e;
    }
    expect(isHammerError(err, 'ENGINE_UNAVAILABLE')).toBe(true);
  });
});

describe('pingEngine', () => {
  it('turns an engine that does not answer into ENGINE_UNAVAILABLE with a hint', async () => {
    const docker = createDockerClient({ DOCKER_HOST: 'unix:///nonexistent/hammer-box-test.sock' });
    const err = await pingEngine(docker).catch((e: unknown) => e);
    expect(isHammerError(err, 'ENGINE_UNAVAILABLE')).toBe(true);
    expect(isHammerError(err) && err.hint).toMatch(/install and start Docker/);
  });

  it('names where it looked and why when nothing answers there', async () => {
    const env = { DOCKER_HOST: 'unix:///nonexistent/hammer-box-test.sock' };
    const err = await connectDocker(env).catch((e: unknown) => e);
    expect(isHammerError(err, 'ENGINE_UNAVAILABLE')).toBe(true);
    expect((err as Error).message).toMatch(
      /^no Docker engine answers at unix:\/\/\/nonexistent\/hammer-box-test\.sock \(DOCKER_HOST\) \(/,
    );
  });

  it('an aborted ping is ABORTED', async () => {
    const docker = createDockerClient({ DOCKER_HOST: 'unix:///nonexistent/hammer-box-test.sock' });
    const controller = new AbortController();
    controller.abort();
    const err = await pingEngine(docker, controller.signal).catch((e: unknown) => e);
    expect(isHammerError(err, 'ABORTED')).toBe(true);
  });
});
