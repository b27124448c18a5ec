// The resident runner's failure modes against the real engine: many commands through one resident,
// a command that never ends (the timeout kills its tree and the same resident serves the next), a
// flood of output (caps hold, host memory bounded), a signal death, code in the sandbox that kills
// the resident (the command fails as SANDBOX_BROKEN, never as a result; a new resident serves the
// next one), a resident that code of its own uid cannot read or write through /proc, and an image
// without perl, which gets one exec per command.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHammerError } from '../../src/errors.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testEngine, testSpec } from './sandbox-fixtures.js';

const { docker, engine } = testEngine({ resident: true });
let sandbox: Sandbox;

/** The pid of the process that ran a command: the resident, while it lives. */
async function residentPid(): Promise<number> {
  const r = await sandbox.exec(['sh', '-c', 'echo $PPID'], { timeoutMs: 30_000 });
  expect(r.exitCode).toBe(0);
  return Number(r.stdout.text.trim());
}

beforeAll(async () => {
  sandbox = await engine.create(await testSpec());
});
afterAll(async () => {
  await sandbox?.destroy();
});

describe('resident runner', () => {
  it('runs sequential commands through one resident, each with its own output and exit code', async () => {
    const pid = await residentPid();
    expect(pid).toBeGreaterThan(1);
    for (let i = 0; i < 10; i++) {
      const r = await sandbox.exec(['sh', '-c', `echo out$i; echo err$i >&2; echo $PPID; exit $((i % 3))`], {
        timeoutMs: 30_000,
        env: { i: String(i) },
      });
      expect(r).toMatchObject({ exitCode: i % 3, timedOut: false });
      expect(r.stdout.text).toBe(`out${i}\n${pid}\n`);
      expect(r.stderr.text).toBe(`err${i}\n`);
    }
    // the command's environment does not stick to the next command
    const next = await sandbox.exec(['sh', '-c', 'echo "[${i-unset}]"'], { timeoutMs: 30_000 });
    expect(next.stdout.text).toBe('[unset]\n');
  });

  it('kills a command that never ends at its timeout, tree included, and serves the next command', async () => {
    const pid = await residentPid();
    const r = await sandbox.exec(['sh', '-c', 'sleep 1000 & sleep 1000 & echo started; wait'], { timeoutMs: 1_000 });
    expect(r).toMatchObject({ exitCode: 137, timedOut: true });
    expect(r.stdout.text).toBe('started\n');
    const left = await sandbox.exec(['sh', '-c', 'ps -eo user,comm | grep -c "sleep" || true'], { timeoutMs: 30_000 });
    // only the keeper's `sleep infinity` (another user) is left
    expect(left.stdout.text.trim()).toBe('1');
    expect(await residentPid()).toBe(pid);
  });

  it('holds the caps on a flood of stdout and stderr at once, with host memory bounded', async () => {
    const pid = await residentPid();
    const before = process.memoryUsage().rss;
    const r = await sandbox.exec(
      [
        'sh',
        '-c',
        'head -c 50000000 /dev/zero | tr "\\0" e >&2 & head -c 50000000 /dev/zero | tr "\\0" o; wait; echo END',
      ],
      { timeoutMs: 120_000, maxOutputBytes: 32 * 1024 },
    );
    const growth = process.memoryUsage().rss - before;
    expect(r.exitCode).toBe(0);
    expect(r.stdout.totalBytes).toBe(50_000_000 + 4);
    expect(r.stderr.totalBytes).toBe(50_000_000);
    expect(r.stdout.droppedBytes).toBe(r.stdout.totalBytes - 32 * 1024);
    expect(r.stdout.text.endsWith('ooooEND\n')).toBe(true);
    expect(r.stderr.text.startsWith('eeee')).toBe(true);
    expect(growth).toBeLessThan(50 * 1024 * 1024);
    expect(await residentPid()).toBe(pid);
  });

  it('reports a command that dies of a signal as 128 + the signal, as one exec per command does', async () => {
    const segv = await sandbox.exec(['sh', '-c', 'kill -SEGV $$'], { timeoutMs: 30_000 });
    expect(segv).toMatchObject({ exitCode: 139, timedOut: false });
    const term = await sandbox.exec(['sh', '-c', 'kill -TERM $$'], { timeoutMs: 30_000 });
    expect(term.exitCode).toBe(143);
  });

  it('keeps its memory and file descriptors out of reach of code of its own uid', async () => {
    const r = await sandbox.exec(
      [
        'sh',
        '-c',
        'for f in mem environ fd/0 fd/1; do if cat /proc/$PPID/$f >/dev/null 2>&1; then echo "read $f"; fi; done; ' +
          'if echo x >/proc/$PPID/fd/0 2>/dev/null; then echo wrote; fi; echo checked',
      ],
      { timeoutMs: 30_000 },
    );
    expect(r.stdout.text).toBe('checked\n');
  });

  it('a command that kills the resident fails as SANDBOX_BROKEN, and a new resident serves the next', async () => {
    const pid = await residentPid();
    for (const killer of ['kill -KILL $PPID; sleep 5', 'pkill -KILL -x perl; sleep 5', 'kill -KILL -1; sleep 5']) {
      const err = await sandbox.exec(['sh', '-c', killer], { timeoutMs: 30_000 }).catch((e: unknown) => e);
      expect(isHammerError(err, 'SANDBOX_BROKEN')).toBe(true);
      const next = await sandbox.exec(['echo', 'alive'], { timeoutMs: 30_000 });
      expect(next).toMatchObject({ exitCode: 0, timedOut: false });
      expect(next.stdout.text).toBe('alive\n');
    }
    expect(await residentPid()).not.toBe(pid);
  });

  it('warm starts one resident in the background, which the commands after it use', async () => {
    const own = await engine.create(await testSpec());
    try {
      own.warm?.();
      own.warm?.(); // a second call while the first start runs starts no other
      const perls = [
        'sh',
        '-c',
        'echo $PPID; for s in /proc/[0-9]*/comm; do cat "$s"; done 2>/dev/null | grep -c "^perl$"',
      ];
      const first = await own.exec(perls, { timeoutMs: 30_000 });
      const second = await own.exec(perls, { timeoutMs: 30_000 });
      const [ppid, count] = first.stdout.text.trim().split('\n');
      expect(count).toBe('1');
      expect(second.stdout.text.trim().split('\n')[0]).toBe(ppid);
    } finally {
      await own.destroy();
    }
  });

  it('a container stopped under a command is the stopped-sandbox error, as with one exec per command', async () => {
    const own = await engine.create(await testSpec());
    try {
      expect((await own.exec(['true'], { timeoutMs: 30_000 })).exitCode).toBe(0); // the resident runs
      const pending = own.exec(['sleep', '60'], { timeoutMs: 90_000 }).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 500));
      await docker.getContainer(own.id).kill({ signal: 'SIGKILL' });
      const err = await pending;
      expect(isHammerError(err, 'SANDBOX_BROKEN')).toBe(true);
      expect((err as Error).message).toMatch(/^the sandbox stopped while running sleep: it exited with code \d+/);
    } finally {
      await own.destroy();
    }
  });
});

describe('an image without perl', () => {
  it('gets one exec per command, with the same results', async () => {
    // the toolchain image with perl removed, committed as a throwaway image
    const base = await testSpec();
    const maker = await docker.createContainer({
      Image: base.image,
      User: '0',
      Entrypoint: ['sh', '-c', 'rm -f /usr/bin/perl /usr/bin/perl5*'],
      Cmd: [],
    });
    const tag = `hammer-box-test/no-perl:${base.runId}`;
    let own: Sandbox | undefined;
    try {
      await maker.start();
      expect((await maker.wait()) as { StatusCode: number }).toMatchObject({ StatusCode: 0 });
      await maker.commit({ repo: 'hammer-box-test/no-perl', tag: base.runId });
      own = await engine.create({ ...base, image: tag });
      const probe = ['sh', '-c', 'command -v perl || echo no-perl; echo $PPID'];
      const first = await own.exec(probe, { timeoutMs: 30_000 });
      const second = await own.exec(probe, { timeoutMs: 30_000 });
      expect(first).toMatchObject({ exitCode: 0, timedOut: false });
      const [perl, ppid] = first.stdout.text.trim().split('\n');
      expect(perl).toBe('no-perl');
      // no resident: each command is the engine's exec, whose parent is outside the container (pid 0)
      expect(ppid).toBe('0');
      expect(second.stdout.text.trim().split('\n')[1]).toBe('0');
      const failing = await own.exec(['sh', '-c', 'echo out; echo err >&2; exit 3'], { timeoutMs: 30_000 });
      expect(failing).toMatchObject({ exitCode: 3, timedOut: false });
      expect(failing.stdout.text).toBe('out\n');
      expect(failing.stderr.text).toBe('err\n');
    } finally {
      await own?.destroy();
      await maker.remove({ force: true });
      await docker
        .getImage(tag)
        .remove({ force: true })
        .catch(() => undefined);
    }
  });
});
