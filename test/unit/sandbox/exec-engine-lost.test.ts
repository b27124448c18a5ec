// The engine going away while an exec's exit is being polled (a daemon restart between the end of
// the output stream and the exit code): a typed SANDBOX_BROKEN, never a raw socket error.
import { PassThrough } from 'node:stream';
import type Dockerode from 'dockerode';
import { describe, expect, it } from 'vitest';
import { HammerError } from '../../../src/errors.js';
import { execInSandbox } from '../../../src/sandbox/exec.js';

/** A container whose exec ends its output at once, reports itself running once, then loses the engine. */
function containerLosingTheEngine(): Dockerode.Container {
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
      throw Object.assign(new Error('connect ENOENT /var/run/docker.sock'), { code: 'ENOENT' });
    },
  };
  // only the two calls execInSandbox makes on a container are needed
  const container = { exec: async () => exec };
  return container as unknown as Dockerode.Container;
}

describe('execInSandbox when the engine goes away', () => {
  it('throws SANDBOX_BROKEN naming the command when the exit poll cannot reach the engine', async () => {
    const run = execInSandbox({ container: containerLosingTheEngine(), user: '10001:10001' }, ['pytest'], { timeoutMs: 60_000 });
    const err: unknown = await run.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HammerError);
    expect(err).toMatchObject({ code: 'SANDBOX_BROKEN' });
    expect((err as HammerError).message).toMatch(/pytest.*ENOENT/);
  });
});
