// The sandbox contract, exec: separate streams and exit codes, live output, timeouts that leave no
// process behind (daemons included), a fork bomb held by the pids limit, capped output with bounded
// host memory, and abort. One suite for every backend (sandbox-fixtures.ts): Docker through the
// resident runner and with one exec per command, Kubernetes against a fake API server whose pods
// are Docker containers, and a real cluster when HAMMER_KUBECONFIG names one.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isHammerError } from '../../src/errors.js';
import type { Sandbox, SandboxEngine } from '../../src/sandbox/index.js';
import { CONNECT_PROBE } from '../../src/sandbox/kubernetes/network-probe.js';
import { contractBackends, testSpec } from './sandbox-fixtures.js';

let sandbox: Sandbox;

// Builtins only, so listing spawns no process that could show up in its own listing. Its parent
// (the resident runner that started it, when there is one) is left out too.
const LIST_PROCS_BUILTIN =
  'for d in /proc/[0-9]*; do p=${d#/proc/}; [ "$p" = "$$" ] && continue; [ "$p" = "$PPID" ] && continue; u=; while read -r k v rest; do [ "$k" = "Uid:" ] && u=$v; done < $d/status 2>/dev/null; [ -n "$u" ] && { read -r c < $d/comm; echo "$p $u $c"; }; done';

async function processes(): Promise<Array<{ pid: number; uid: number; comm: string }>> {
  const r = await sandbox.exec(['bash', '-c', LIST_PROCS_BUILTIN], { timeoutMs: 30_000 });
  expect(r.exitCode).toBe(0);
  return r.stdout.text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [pid, uid, comm] = line.split(' ');
      return { pid: Number(pid), uid: Number(uid), comm: comm ?? '' };
    });
}

/** Processes of the sandbox user (uid 10001) but PID 1 (on Kubernetes, the keeper): after a kill there must be none. */
async function sandboxUserProcesses() {
  return (await processes()).filter((p) => p.uid === 10001 && p.pid !== 1);
}

describe.each(contractBackends())('exec on $name', (backend) => {
  const { resident } = backend;
  let engine: SandboxEngine;
  beforeAll(async () => {
    engine = await backend.open();
    sandbox = await engine.create(await testSpec());
  });
  afterAll(async () => {
    await sandbox?.destroy();
    await backend.close();
  });

  it('separates stdout and stderr and returns the exit code as a result', async () => {
    const r = await sandbox.exec(['sh', '-c', 'echo out; echo err >&2; exit 3'], { timeoutMs: 30_000 });
    expect(r).toMatchObject({ exitCode: 3, timedOut: false });
    expect(r.stdout).toEqual({ text: 'out\n', totalBytes: 4, droppedBytes: 0 });
    expect(r.stderr).toEqual({ text: 'err\n', totalBytes: 4, droppedBytes: 0 });
  });

  it('runs in /workspace as the sandbox user with the command env added', async () => {
    const r = await sandbox.exec(['sh', '-c', 'pwd; id -u; echo "$EXTRA"'], {
      timeoutMs: 30_000,
      env: { EXTRA: 'yes' },
    });
    expect(r.stdout.text).toBe('/workspace\n10001\nyes\n');
  });

  it('streams every chunk live through onOutput', async () => {
    const seen: string[] = [];
    const r = await sandbox.exec(['sh', '-c', 'for i in 1 2 3; do echo line$i; done; echo bad >&2'], {
      timeoutMs: 30_000,
      onOutput: (stream, chunk) => seen.push(`${stream}:${chunk.toString()}`),
    });
    expect(r.exitCode).toBe(0);
    expect(
      seen
        .filter((s) => s.startsWith('stdout:'))
        .map((s) => s.slice(7))
        .join(''),
    ).toBe('line1\nline2\nline3\n');
    expect(seen.filter((s) => s.startsWith('stderr:')).join('')).toBe('stderr:bad\n');
  });

  it('kills a command that sleeps forever at its timeout, leaving no sandbox process', async () => {
    const r = await sandbox.exec(['sleep', 'infinity'], { timeoutMs: 1_000 });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBe(137);
    expect(await sandboxUserProcesses()).toEqual([]);
  });

  it('kills a SIGTERM-ignoring daemon that left the session, at the timeout', async () => {
    const script =
      'setsid nohup sh -c \'trap "" TERM; while :; do sleep 1; done\' >/dev/null 2>&1 < /dev/null & echo started; sleep infinity';
    const r = await sandbox.exec(['sh', '-c', script], { timeoutMs: 1_500 });
    expect(r.timedOut).toBe(true);
    expect(r.stdout.text).toBe('started\n');
    const left = await processes();
    expect(left.filter((p) => p.uid === 10001 && p.pid !== 1)).toEqual([]);
    // Only init (PID 1) and the idle keeper remain (on Kubernetes they are one), none a command's.
    expect(left.map((p) => p.comm).sort()).toEqual([...backend.idle].sort());
    expect(left.find((p) => p.pid === 1)?.comm).toBe(backend.idle[0]);
  });

  it('killAll clears daemons a finished command left running', async () => {
    const r = await sandbox.exec(
      ['sh', '-c', 'setsid sh -c \'trap "" TERM HUP; sleep 1000\' >/dev/null 2>&1 < /dev/null & echo ok'],
      { timeoutMs: 30_000 },
    );
    expect(r).toMatchObject({ exitCode: 0, timedOut: false });
    // the resident kills what a command left as soon as it ends; one exec per command leaves it
    if (resident) expect(await sandboxUserProcesses()).toEqual([]);
    else expect((await sandboxUserProcesses()).length).toBeGreaterThan(0);
    await sandbox.killAll();
    expect(await sandboxUserProcesses()).toEqual([]);
  });

  it('a fork bomb is held by the pids limit, killed at the timeout, and the sandbox still answers', async () => {
    // a pod's limit is the kubelet's podPidsLimit (1024, as docs/kubernetes.md suggests), not a
    // spec's 128: filling it, and killing what filled it, takes longer
    const r = await sandbox.exec(['bash', '-c', 'bomb() { bomb | bomb & }; bomb; sleep infinity'], {
      timeoutMs: backend.cgroupPids ? 3_000 : 10_000,
    });
    expect(r.timedOut).toBe(true);
    expect(r.stderr.text).toMatch(/fork|Resource temporarily unavailable/);
    expect(await sandboxUserProcesses()).toEqual([]);
    const after = await sandbox.exec(['echo', 'alive'], { timeoutMs: 30_000 });
    expect(after.stdout.text).toBe('alive\n');
    // The limit the bomb ran into: the one we set on Docker, the kubelet's podPidsLimit on Kubernetes.
    if (backend.cgroupPids) {
      const limit = await sandbox.exec(
        ['sh', '-c', 'cat /sys/fs/cgroup/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids/pids.max'],
        { timeoutMs: 30_000 },
      );
      expect(limit.stdout.text.trim()).toBe('128');
    } else {
      // the pod's limit is kept in the pod's cgroup, above the container's (whose own reads "max"
      // where the cluster, or the stand-in's kubelet, keeps it there): the resident and the runner
      // are told the one that applies
      const seen = await sandbox.exec(
        [
          'sh',
          '-c',
          '{ cat /sys/fs/cgroup/pids.max || cat /sys/fs/cgroup/pids/pids.max; } 2>/dev/null; echo "$HAMMER_PIDS_LIMIT"',
        ],
        { timeoutMs: 30_000 },
      );
      const [own, told] = seen.stdout.text.trim().split('\n');
      expect(['max', String(backend.podPidsLimit)]).toContain(own);
      expect(told).toBe(String(backend.podPidsLimit));
    }
  }, 120_000);

  it('caps 100 MB of output, counts what it dropped, and keeps host memory bounded', async () => {
    const before = process.memoryUsage().rss;
    let live = 0;
    const r = await sandbox.exec(['sh', '-c', 'head -c 100000000 /dev/zero | tr "\\0" x; echo; echo THE-END'], {
      timeoutMs: 120_000,
      maxOutputBytes: 64 * 1024,
      onOutput: (_stream, chunk) => {
        live += chunk.length;
      },
    });
    const growth = process.memoryUsage().rss - before;
    expect(r.exitCode).toBe(0);
    expect(r.stdout.totalBytes).toBe(100_000_000 + 1 + 8);
    expect(live).toBe(r.stdout.totalBytes);
    expect(r.stdout.droppedBytes).toBe(r.stdout.totalBytes - 64 * 1024);
    expect(r.stdout.text.length).toBeLessThan(70 * 1024);
    expect(r.stdout.text.startsWith('xxxx')).toBe(true);
    expect(r.stdout.text).toContain(`[... ${r.stdout.droppedBytes} bytes dropped ...]`);
    expect(r.stdout.text.endsWith('x\nTHE-END\n')).toBe(true);
    expect(growth).toBeLessThan(backend.hostGrowthBytes);
  });

  it('replaces invalid UTF-8 instead of failing', async () => {
    const r = await sandbox.exec(['printf', 'a\\377b'], { timeoutMs: 30_000 });
    expect(r.stdout.text).toBe('a\uFFFDb');
  });

  it('an abort throws ABORTED at once and kills the command in the background', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    const err = await sandbox
      .exec(['sleep', 'infinity'], { timeoutMs: 60_000, signal: controller.signal })
      .catch((e: unknown) => e);
    expect(isHammerError(err, 'ABORTED')).toBe(true);
    await vi.waitFor(async () => expect(await sandboxUserProcesses()).toEqual([]), { timeout: 20_000, interval: 200 });
  });

  it('says what it guarantees, and a sandbox with a proven network reaches nothing', async () => {
    const spec = await testSpec();
    const g = await engine.guarantees({ runtime: '', image: spec.image });
    expect(g.backend).toBe(backend.name.startsWith('docker') ? 'docker' : 'kubernetes');
    if (g.backend === 'docker') expect(g.network).toBe('none');
    expect(g.networkDetail).not.toBe('');
    // the probe's own connection, from inside the sandbox: refused (or no address to try) unless unproven
    if (g.network !== 'unproven') {
      const r = await sandbox.exec(CONNECT_PROBE, { timeoutMs: 30_000 });
      expect(r.exitCode).not.toBe(0);
    }
  }, 120_000);

  it('a command that does not exist is a result, not an error', async () => {
    const r = await sandbox.exec(['no-such-command-here'], { timeoutMs: 30_000 });
    expect(r.exitCode).not.toBe(0);
    expect(r.timedOut).toBe(false);
  });
});
