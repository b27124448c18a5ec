// Deadlines on engine requests, against real silent servers (a unix socket and a TCP listener that
// accept connections and never answer): typed errors, and no socket left waiting.
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { createDockerClient, pingEngine } from '../../../src/sandbox/docker-client.js';
import { isEngineLost, sandboxFailure } from '../../../src/sandbox/docker-errors.js';
import { EngineTimeoutError, takesDeadline, withRequestDeadlines } from '../../../src/sandbox/engine-deadline.js';
import { startSilentEngine, type SilentEngine } from '../../helpers/silent-engine.js';
import Dockerode from 'dockerode';

let engine: SilentEngine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 25));
}

describe('pingEngine against an engine that never answers', () => {
  it.each(['unix', 'tcp'] as const)('over %s: ENGINE_UNAVAILABLE, and the connection is closed', async (kind) => {
    engine = await startSilentEngine(kind);
    const docker = createDockerClient({ DOCKER_HOST: engine.dockerHost });
    const err = await pingEngine(docker, undefined, 300).catch((e: unknown) => e);
    expect(isHammerError(err, 'ENGINE_UNAVAILABLE')).toBe(true);
    expect((err as Error).message).toContain('no answer within 0.3 s');
    await until(() => engine!.closed() === engine!.accepted());
    expect(engine.accepted()).toBe(1);
    expect(engine.closed()).toBe(1);
  });

  it('an abort from the caller is ABORTED, not a missing engine', async () => {
    engine = await startSilentEngine('unix');
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 50);
    const err = await pingEngine(createDockerClient({ DOCKER_HOST: engine.dockerHost }), ctl.signal, 10_000).catch(
      (e: unknown) => e,
    );
    expect(isHammerError(err, 'ABORTED')).toBe(true);
  });
});

describe('withRequestDeadlines', () => {
  const client = (host: string, ms = 300): Dockerode => {
    const d = new Dockerode({ socketPath: host.replace('unix://', '') });
    return withRequestDeadlines(d, ms, ms);
  };

  it('fails a request the engine never answers with a timeout that counts as a lost engine', async () => {
    engine = await startSilentEngine('unix', { answerPing: true });
    const docker = client(engine.dockerHost);
    await docker.ping(); // answered: the deadline lets answered requests through
    const err = await docker
      .getContainer('abc')
      .inspect()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineTimeoutError);
    expect((err as Error).message).toContain('GET /containers/abc/json');
    expect(isEngineLost(err)).toBe(true);
    const typed = sandboxFailure(err, 'inspecting the sandbox');
    expect(typed.code).toBe('ENGINE_UNAVAILABLE');
    await until(() => engine!.closed() === engine!.accepted());
    expect(engine.closed()).toBe(engine.accepted());
  });

  it('gives up an upload the engine stops taking', async () => {
    engine = await startSilentEngine('unix', { answerPing: true });
    const docker = client(engine.dockerHost);
    const body = new PassThrough();
    body.write(Buffer.alloc(1024));
    // never ended: the engine would wait for the rest forever
    const err = await docker
      .getContainer('abc')
      .putArchive(body, { path: '/workspace' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineTimeoutError);
    expect((err as Error).message).toMatch(/stopped taking an upload|did not answer/);
  });

  it('lets an upload that keeps moving run past the idle window, then waits for the answer', async () => {
    engine = await startSilentEngine('unix', { answerPing: true });
    const docker = client(engine.dockerHost);
    const body = new PassThrough();
    const started = performance.now();
    // a chunk every 100 ms for a second: never idle for the 300 ms window, three times as long as it
    const feeder = setInterval(() => body.write(Buffer.alloc(1024)), 100);
    setTimeout(() => (clearInterval(feeder), body.end()), 1000);
    const err = await docker
      .getContainer('abc')
      .putArchive(body, { path: '/workspace' })
      .catch((e: unknown) => e);
    clearInterval(feeder);
    expect(err).toBeInstanceOf(EngineTimeoutError);
    expect((err as Error).message).toMatch(/did not answer within 0.3 s of an upload/);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it("keeps the caller's own abort working", async () => {
    engine = await startSilentEngine('unix', { answerPing: true });
    const docker = client(engine.dockerHost, 60_000);
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 50);
    const err = await docker
      .getContainer('abc')
      .inspect({ abortSignal: ctl.signal })
      .catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(EngineTimeoutError);
    expect((err as Error).name).toBe('AbortError');
  });

  it('leaves the long polls (wait, commit, stop, prune) to their callers', () => {
    expect(takesDeadline('/containers/abc/wait?condition=not-running')).toBe(false);
    expect(takesDeadline('/commit?container=abc')).toBe(false);
    expect(takesDeadline('/containers/abc/stop?t=10')).toBe(false);
    expect(takesDeadline('/images/prune?')).toBe(false);
    expect(takesDeadline('/containers/abc/json?')).toBe(true);
    expect(takesDeadline('/exec/abc/start')).toBe(true);
    expect(takesDeadline('/containers/abc/archive?path=%2Fworkspace')).toBe(true);
  });
});
