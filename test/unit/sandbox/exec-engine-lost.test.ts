// The engine going away while an exec's exit is being polled (a daemon restart between the end of
// the output stream and the exit code): a typed ENGINE_UNAVAILABLE that says to bring the engine
// back, never a raw socket error; an engine that answers with an error is SANDBOX_BROKEN.
import { PassThrough } from 'node:stream';
import type Dockerode from 'dockerode';
import { describe, expect, it } from 'vitest';
import { HammerError } from '../../../src/errors.js';
import { execInSandbox } from '../../../src/sandbox/exec.js';

const ENOENT_SOCKET = Object.assign(new Error('connect ENOENT /var/run/docker.sock'), {
  code: 'ENOENT',
  syscall: 'connect',
  address: '/var/run/docker.sock',
});

/** A container whose exec ends its output at once, reports itself running once, then fails with `failure`. */
function containerLosingTheEngine(failure: unknown = ENOENT_SOCKET): Dockerode.Container {
  let inspections = 0;
  const exec = {
    start: async () => {
      const stream = new PassThrough();
      setImmediate(() => stream.end());
      return stream;
    },
    inspect: async () => {
      inspections += 1;
      if (inspections === 1) return { Running: true, ExitCode: null };
      throw failure;
    },
  };
  // only the two calls execInSandbox makes on a container are needed
  const container = { exec: async () => exec };
  return container as unknown as Dockerode.Container;
}

describe('execInSandbox when the engine goes away', () => {
  const lost = [
    ['its socket is gone', ENOENT_SOCKET],
    [
      'it refuses connections',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:2375'), { code: 'ECONNREFUSED', syscall: 'connect' }),
    ],
    ['it drops the connection', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
  ] as const;
  it.each(lost)('throws ENGINE_UNAVAILABLE naming the command and the way back when %s', async (_, failure) => {
    const run = execInSandbox({ container: containerLosingTheEngine(failure), user: '10001:10001' }, ['pytest'], {
      timeoutMs: 60_000,
    });
    const err: unknown = await run.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HammerError);
    expect(err).toMatchObject({ code: 'ENGINE_UNAVAILABLE' });
    expect((err as HammerError).message).toMatch(/pytest.*stopped answering/);
    expect((err as HammerError).hint).toMatch(/install and start Docker/);
  });

  it('throws SANDBOX_BROKEN when the engine answers with an error', async () => {
    const answered = Object.assign(new Error('(HTTP code 500) server error - container is dead'), { statusCode: 500 });
    const err: unknown = await execInSandbox(
      { container: containerLosingTheEngine(answered), user: '10001:10001' },
      ['pytest'],
      { timeoutMs: 60_000 },
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SANDBOX_BROKEN' });
    expect((err as HammerError).message).toMatch(/pytest.*container is dead/);
  });

  it('does not take a host file that is missing for a lost engine', async () => {
    const hostFile = Object.assign(new Error("ENOENT: no such file or directory, open '/tmp/x'"), {
      code: 'ENOENT',
      syscall: 'open',
    });
    const err: unknown = await execInSandbox(
      { container: containerLosingTheEngine(hostFile), user: '10001:10001' },
      ['pytest'],
      { timeoutMs: 60_000 },
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SANDBOX_BROKEN' });
  });
});
