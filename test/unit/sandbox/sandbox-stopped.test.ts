// A sandbox whose container stops under a command (a memory or fork bomb that takes gVisor's kernel
// with it, or a docker kill): SANDBOX_BROKEN that says the sandbox stopped, why, and what to do.
import { PassThrough } from 'node:stream';
import type Dockerode from 'dockerode';
import { describe, expect, it } from 'vitest';
import { HammerError } from '../../../src/errors.js';
import { DockerSandbox } from '../../../src/sandbox/docker-sandbox.js';

/** An engine whose exec start fails as for a stopped container, and whose inspect says `state`. */
function engineWithStoppedContainer(state: Record<string, unknown>, runtime: string): Dockerode {
  const gone = Object.assign(new Error('(HTTP code 409) container stopped/paused - Container abc is not running'), {
    statusCode: 409,
  });
  const container = {
    exec: async () => {
      throw gone;
    },
    inspect: async () => ({ State: state, HostConfig: { Runtime: runtime } }),
  };
  return { getContainer: () => container } as unknown as Dockerode;
}

const owner = { uid: 10001, gid: 10001 };
// these engines fake one exec per command (the path of an image that cannot run the resident
// runner); the resident's own failure modes run against the real engine (sandbox-resident.test.ts)
const sandboxOf = (docker: Dockerode) =>
  new DockerSandbox(docker, 'abc', 'run-1', 'vol', owner, undefined, { resident: false });
const run = (docker: Dockerode, timeoutMs = 10_000): Promise<HammerError> =>
  sandboxOf(docker)
    .exec(['pytest', '-q'], { timeoutMs })
    .then(
      () => {
        throw new Error('the exec resolved; it should have failed');
      },
      (e: unknown) => e as HammerError,
    );

/** An engine whose exec starts and then never ends its stream, and whose container stops after the first look. */
function engineWhoseContainerDiesUnderAnExec(): { docker: Dockerode; looks: () => number } {
  let looks = 0;
  const exec = { start: async () => new PassThrough(), inspect: async () => ({ Running: true, ExitCode: null }) };
  const container = {
    exec: async () => exec,
    inspect: async () => {
      looks += 1;
      return {
        State: { Running: looks < 2, OOMKilled: looks >= 2, ExitCode: looks < 2 ? 0 : 137 },
        HostConfig: { Runtime: 'runsc' },
      };
    },
  };
  return { docker: { getContainer: () => container } as unknown as Dockerode, looks: () => looks };
}

/** An engine whose exec ends at once with `exitCode`, and whose container inspect gives `inspect()`. */
function engineWithExitedExec(exitCode: number, inspect: () => Promise<unknown>): Dockerode {
  const exec = {
    start: async () => {
      const stream = new PassThrough();
      setImmediate(() => stream.end());
      return stream;
    },
    inspect: async () => ({ Running: false, ExitCode: exitCode }),
  };
  return { getContainer: () => ({ exec: async () => exec, inspect }) } as unknown as Dockerode;
}

describe('a command whose exit code comes from its container stopping', () => {
  it('is SANDBOX_BROKEN, not a result: a daemon restart killing the tests is not a test failure', async () => {
    const err = await run(
      engineWithExitedExec(137, async () => ({
        State: { Running: false, OOMKilled: false, ExitCode: 137 },
        HostConfig: { Runtime: 'runc' },
      })),
    );
    expect(err.code).toBe('SANDBOX_BROKEN');
    expect(err.message).toBe('the sandbox stopped while running pytest: it exited with code 137');
  });

  it('looks again when the engine reports the container stopped only a moment after the command died', async () => {
    let looks = 0;
    const err = await run(
      engineWithExitedExec(137, async () => {
        looks += 1;
        return {
          State: { Running: looks < 3, OOMKilled: false, ExitCode: looks < 3 ? 0 : 143 },
          HostConfig: { Runtime: 'runc' },
        };
      }),
    );
    expect(err).toMatchObject({
      code: 'SANDBOX_BROKEN',
      message: 'the sandbox stopped while running pytest: it exited with code 143',
    });
    expect(looks).toBe(3);
  });

  it('is ENGINE_UNAVAILABLE when the engine cannot be asked, and SANDBOX_BROKEN when the container is gone', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED /var/run/docker.sock'), {
      code: 'ECONNREFUSED',
      syscall: 'connect',
    });
    expect((await run(engineWithExitedExec(137, () => Promise.reject(refused)))).code).toBe('ENGINE_UNAVAILABLE');
    const gone = Object.assign(new Error('(HTTP code 404) no such container'), { statusCode: 404 });
    const err = await run(engineWithExitedExec(1, () => Promise.reject(gone)));
    expect(err).toMatchObject({ code: 'SANDBOX_BROKEN', message: 'the sandbox was removed while running pytest' });
  });

  it('is a result while the container runs: a failing test, or one the kernel killed, is just that', async () => {
    for (const [exitCode, expectedLooks] of [
      [1, 1],
      [137, 8],
    ] as const) {
      let looks = 0;
      const docker = engineWithExitedExec(exitCode, async () => {
        looks += 1;
        return { State: { Running: true, OOMKilled: false, ExitCode: 0 }, HostConfig: { Runtime: 'runc' } };
      });
      const result = await sandboxOf(docker).exec(['pytest', '-q'], {
        timeoutMs: 10_000,
      });
      expect(result.exitCode).toBe(exitCode);
      expect(looks).toBe(expectedLooks);
    }
  });
});

describe('a sandbox that stopped under a command', () => {
  it('says it ran out of memory and, under gVisor, that the limits hold the whole sandbox', async () => {
    const err = await run(engineWithStoppedContainer({ Running: false, OOMKilled: true, ExitCode: 137 }, 'runsc'));
    expect(err).toBeInstanceOf(HammerError);
    expect(err.code).toBe('SANDBOX_BROKEN');
    expect(err.message).toBe('the sandbox stopped while running pytest: it ran out of memory (sandbox.memory)');
    expect(err.hint).toMatch(/under gVisor, sandbox.memory and sandbox.pids_limit hold the whole sandbox/);
  });

  it('gives the exit code and names what can stop a container on the default runtime', async () => {
    const err = await run(engineWithStoppedContainer({ Running: false, OOMKilled: false, ExitCode: 143 }, 'runc'));
    expect(err.message).toBe('the sandbox stopped while running pytest: it exited with code 143');
    expect(err.hint).toMatch(/docker stop or kill/);
  });

  it('stops waiting for an exec whose container stopped while its stream stayed open', async () => {
    const { docker, looks } = engineWhoseContainerDiesUnderAnExec();
    const t0 = performance.now();
    const err = await run(docker, 120_000);
    expect(err.code).toBe('SANDBOX_BROKEN');
    expect(err.message).toBe('the sandbox stopped while running pytest: it ran out of memory (sandbox.memory)');
    // seen at the second look, long before the command's own timeout
    expect(looks()).toBeGreaterThanOrEqual(2);
    expect(performance.now() - t0).toBeLessThan(60_000);
  });

  it('keeps the original error while the container still runs', async () => {
    const err = await run(engineWithStoppedContainer({ Running: true, OOMKilled: false, ExitCode: 0 }, 'runc'));
    expect(err.code).toBe('SANDBOX_BROKEN');
    expect(err.message).toMatch(/^starting pytest failed: .*container stopped\/paused/);
  });
});
