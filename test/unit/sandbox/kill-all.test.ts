// Bringing a sandbox back after a kill: the in-sandbox killer (POSIX sh, builtins only), the
// engine's pid count, and the typed error when the processes never go. The killer itself runs in
// real sandboxes (test/integration/sandbox-exec.test.ts, sandbox-repo.test.ts): on the host it
// would signal every process of the user running it.
import { spawnSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import type Dockerode from 'dockerode';
import { describe, expect, it } from 'vitest';
import { KILL_ALL_SCRIPT, KILL_SETTLE_SECONDS, killAllProcesses, pidsFull } from '../../../src/sandbox/kill-all.js';

/** A container whose every exec ends at once with `exitCode`, and whose stats report `pids`. */
function fakeContainer(exitCode: number, pids: unknown = null): { container: Dockerode.Container; execs: string[][] } {
  const execs: string[][] = [];
  const container = {
    exec: async (opts: { Cmd: string[] }) => {
      execs.push(opts.Cmd);
      return {
        start: async () => {
          const stream = new PassThrough();
          setImmediate(() => stream.end());
          return stream;
        },
        inspect: async () => ({ Running: false, ExitCode: exitCode }),
      };
    },
    stats: async () => ({ pids_stats: pids }),
  };
  return { container: container as unknown as Dockerode.Container, execs };
}

describe('the sandbox killer', () => {
  const shellcheck = spawnSync('shellcheck', ['--version']).status === 0;
  it.runIf(shellcheck)('is POSIX sh that shellcheck finds clean', () => {
    const r = spawnSync('shellcheck', ['-s', 'sh', '-'], { input: KILL_ALL_SCRIPT, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('starts no process while it waits: no command substitution, nothing but builtins', () => {
    expect(KILL_ALL_SCRIPT).not.toMatch(/\$\((?!\()|`/);
    for (const external of ['sleep', 'ps', 'id ', 'cat', 'pkill', 'date'])
      expect(KILL_ALL_SCRIPT).not.toContain(external);
    expect(KILL_ALL_SCRIPT).toContain(`+ ${KILL_SETTLE_SECONDS}))`);
  });

  it('returns once the killer says every process is gone', async () => {
    const { container, execs } = fakeContainer(0);
    await killAllProcesses({ container, user: '10001:10001' });
    expect(execs).toEqual([['sh', '-c', KILL_ALL_SCRIPT]]);
  });

  it('is SANDBOX_PIDS_FULL when processes outlive the wait', async () => {
    const { container } = fakeContainer(3);
    await expect(killAllProcesses({ container, user: '10001:10001' })).rejects.toMatchObject({
      code: 'SANDBOX_PIDS_FULL',
      message: expect.stringMatching(new RegExp(`still there ${KILL_SETTLE_SECONDS} s after being killed`)),
    });
  });
});

describe('pidsFull', () => {
  it('reads the limit as full from two pids below it', async () => {
    expect(await pidsFull(fakeContainer(0, { current: 32, limit: 32 }).container)).toEqual({ limit: 32 });
    expect(await pidsFull(fakeContainer(0, { current: 30, limit: 32 }).container)).toEqual({ limit: 32 });
    expect(await pidsFull(fakeContainer(0, { current: 29, limit: 32 }).container)).toBeNull();
  });

  it('says nothing when the engine gives no count or no limit', async () => {
    for (const pids of [null, {}, { current: 5 }, { current: 5, limit: 0 }, { current: 'x', limit: 32 }])
      expect(await pidsFull(fakeContainer(0, pids).container), JSON.stringify(pids)).toBeNull();
  });
});
