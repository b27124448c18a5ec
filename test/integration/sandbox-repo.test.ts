// The loop's sandbox operations in a real hardened sandbox: one `step` exec per iteration that
// checks, applies, commits and tests; a refused patch as data; daemons left by tests gone when the
// op returns; the test timeout enforced inside the same exec; a fork bomb the tests leave killed
// and gone before the op returns; a sandbox whose pids limit stays full reported as that.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import { isHammerError } from '../../src/errors.js';
import { SandboxRepo } from '../../src/loop/sandbox-repo.js';
import { sandboxSpec } from '../../src/loop/sandbox-spec.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { toolchainImage } from '../helpers/images.js';
import { testEngine } from './sandbox-fixtures.js';

const { docker, engine } = testEngine();
let sandbox: Sandbox;
let repo: SandboxRepo;
let head: string;

const FIX = `--- a/m.py
+++ b/m.py
@@ -1,2 +1,2 @@
 def f():
-    return 1
+    return 2
`;
const STALE = FIX.replace('-    return 1', '-    return 7');

/** uids of every process but PID 1, the listing shell and the resident runner that started it (builtins only). */
async function otherUids(): Promise<number[]> {
  const list =
    'for d in /proc/[0-9]*; do p=${d#/proc/}; [ "$p" = "$$" ] || [ "$p" = "$PPID" ] || [ "$p" = 1 ] && continue; while read -r k v rest; do [ "$k" = "Uid:" ] && echo "$v"; done < $d/status 2>/dev/null; done';
  const r = await sandbox.exec(['bash', '-c', list], { timeoutMs: 30_000 });
  return r.stdout.text.split('\n').filter(Boolean).map(Number);
}

beforeAll(async () => {
  const { config } = await resolveConfig({ env: {} });
  const spec = sandboxSpec(config, `test-repo-${process.pid}`, await toolchainImage());
  spec.limits = {
    ...spec.limits,
    memoryBytes: 512 * 1024 ** 2,
    workspaceBytes: 128 * 1024 ** 2,
    tmpBytes: 16 * 1024 ** 2,
  };
  sandbox = await engine.create(spec);
  await sandbox.putFiles(sandbox.workdir, [{ path: 'm.py', content: 'def f():\n    return 1\n' }]);
  repo = new SandboxRepo(sandbox, { execTimeoutMs: 60_000, maxOutputBytes: 64 * 1024 });
  head = (await repo.init()).commit;
});
afterAll(async () => {
  await sandbox?.destroy();
});

describe('SandboxRepo in a hardened sandbox', () => {
  it("refuses a stale patch with git's message, as data", async () => {
    const r = await repo.step(head, 'iter-01.patch', [{ flags: [], patch: STALE }], 'msg', {
      command: 'true',
      timeoutMs: 30_000,
    });
    expect(r.kind).toBe('rejected');
    expect(r.kind === 'rejected' && r.message).toMatch(/patch does not apply/);
  });

  it('applies, commits and tests in one exec; a daemon the test started is gone when it returns', async () => {
    const seen: string[] = [];
    const r = await repo.step(head, 'iter-02.patch', [{ flags: [], patch: FIX }], 'hammer: iteration 2 - update m.py', {
      command: 'setsid sh -c "trap \\"\\" TERM; sleep 1000" >/dev/null 2>&1 & grep -c "return 2" m.py',
      timeoutMs: 30_000,
      onOutput: (_s, c) => seen.push(c.toString()),
    });
    expect(r.kind).toBe('applied');
    if (r.kind !== 'applied') return;
    expect(r.test.exitCode).toBe(0);
    expect(r.test.stdout.text.trim()).toBe('1');
    expect(seen.join('')).not.toContain('HAMMER_');
    expect(r.commit).toMatch(/^[0-9a-f]{40}$/);
    // only the keeper (uid 65534) may be left: the sandbox user's daemon was killed by the runner
    expect((await otherUids()).filter((u) => u !== 65534)).toEqual([]);
    head = r.commit;
  });

  it("keeps the runner's lines and git's messages about refused candidates out of the test's output", async () => {
    const next = FIX.replace('-    return 1', '-    return 2').replace('+    return 2', '+    return 4');
    const r = await repo.step(
      head,
      'iter-04.patch',
      [
        { flags: [], patch: next.replace('-    return 2', '-    return 9') },
        { flags: [], patch: next },
      ],
      'msg',
      { command: 'echo from-the-test >&2; echo out', timeoutMs: 30_000 },
    );
    expect(r.kind).toBe('applied');
    if (r.kind !== 'applied') return;
    expect(r.candidate).toBe(1);
    expect(r.test.stderr.text).toBe('from-the-test\n');
    expect(r.test.stdout.text).toBe('out\n');
    head = r.commit;
  });

  it('a reset sent ahead puts back what the tests left; the next step then skips its own, unless a command came between', async () => {
    const argv: string[][] = [];
    const watched: Sandbox = {
      ...sandbox,
      exec: (cmd, o) => (argv.push(cmd), sandbox.exec(cmd, o)),
      killAll: (o) => sandbox.killAll(o),
    };
    const wrepo = new SandboxRepo(watched, { execTimeoutMs: 60_000, maxOutputBytes: 64 * 1024 });
    // nothing ran through this repo yet: nothing to reset
    wrepo.resetAhead(head);
    expect(argv).toEqual([]);
    const ops = (): string[] => argv.map((a) => `${a[4]} ${a[4] === 'step' ? a[6] : ''}`.trim());
    const bump = (from: number, to: number): string =>
      FIX.replace('-    return 1', `-    return ${from}`).replace('+    return 2', `+    return ${to}`);
    const first = await wrepo.step(head, 'iter-05.patch', [{ flags: [], patch: bump(4, 5) }], 'msg', {
      command: 'echo junk > junk.txt && echo scribbled > m.py',
      timeoutMs: 30_000,
    });
    expect(first.kind).toBe('applied');
    if (first.kind !== 'applied') return;
    wrepo.resetAhead(first.commit);
    const second = await wrepo.step(first.commit, 'iter-06.patch', [{ flags: [], patch: bump(5, 6) }], 'msg', {
      command: 'ls; cat m.py',
      timeoutMs: 30_000,
    });
    expect(second.kind).toBe('applied');
    if (second.kind !== 'applied') return;
    expect(second.test.stdout.text).not.toContain('junk.txt');
    expect(second.test.stdout.text).toContain('return 6');
    expect(ops()).toEqual(['step reset', 'reset', 'step clean']);
    // a test command between the reset and the step: the step resets itself
    wrepo.resetAhead(second.commit);
    await wrepo.test('echo again > junk.txt', 30_000);
    const third = await wrepo.step(second.commit, 'iter-07.patch', [{ flags: [], patch: bump(6, 4) }], 'msg', {
      command: 'ls',
      timeoutMs: 30_000,
    });
    expect(third.kind === 'applied' && third.test.stdout.text).not.toContain('junk.txt');
    expect(ops().slice(3)).toEqual(['reset', 'test', 'step reset']);
    if (third.kind === 'applied') head = third.commit;
  });

  it('stops a test at its timeout inside the step and reports it as timed out', async () => {
    const next = FIX.replace('-    return 1', '-    return 4').replace('+    return 2', '+    return 3');
    const r = await repo.step(head, 'iter-03.patch', [{ flags: [], patch: next }], 'msg', {
      command: 'sleep 1000',
      timeoutMs: 2_000,
    });
    expect(r.kind).toBe('applied');
    if (r.kind !== 'applied') return;
    expect(r.test.timedOut).toBe(true);
    expect((await otherUids()).filter((u) => u !== 65534)).toEqual([]);
  });
});

describe('SandboxRepo when the tests fill the pids limit', () => {
  let box: Sandbox;
  let small: SandboxRepo;
  beforeAll(async () => {
    const { config } = await resolveConfig({ env: {} });
    const spec = sandboxSpec(config, `test-pids-${process.pid}`, await toolchainImage());
    spec.limits = { ...spec.limits, pidsLimit: 32, memoryBytes: 256 * 1024 ** 2 };
    box = await engine.create(spec);
    await box.putFiles(box.workdir, [{ path: 'm.py', content: 'def f():\n    return 1\n' }]);
    small = new SandboxRepo(box, { execTimeoutMs: 60_000, maxOutputBytes: 64 * 1024 });
    await small.init();
  });
  afterAll(async () => {
    await box?.destroy();
  });

  /** Processes of the sandbox user left in the small sandbox, the resident runner aside (builtins only). */
  async function leftInBox(): Promise<number> {
    const list =
      'n=0; for d in /proc/[0-9]*; do [ "${d#/proc/}" = "$$" ] || [ "${d#/proc/}" = "$PPID" ] && continue; while read -r k v rest; do [ "$k" = "Uid:" ] && { [ "$v" = "$(id -u)" ] && n=$((n+1)); break; }; done < $d/status 2>/dev/null; done; echo "$n"';
    const r = await box.exec(['sh', '-c', list], { timeoutMs: 30_000 });
    return Number(r.stdout.text.trim());
  }

  it('kills a fork bomb the tests left and waits until its pids are free before it returns', async () => {
    // every bomb process retries a failed fork at once, so no pid comes back by itself; the script
    // forks nothing after the bomb, so its exit is 7 whatever the bomb holds
    const r = await small.test(
      `python3 -c 'import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass' >/dev/null 2>&1 &\nread -r t0 _ </proc/uptime\nwhile read -r t _ </proc/uptime && [ "\${t%.*}" -lt $((\${t0%.*} + 2)) ]; do :; done\nexit 7`,
      60_000,
    );
    expect(r.exitCode, r.stderr.text.slice(-300)).toBe(7);
    expect(r.timedOut).toBe(false);
    // at once, with no wait: a command starts, and nothing of the bomb is left
    expect(await leftInBox()).toBe(0);
  });

  it('a command that cannot start for a full pids limit is SANDBOX_PIDS_FULL; killAll brings the sandbox back', async () => {
    // sleepers fill every pid (bash retries its failed forks, so none comes back by itself); a
    // watcher with no process of its own kills them once the host places /workspace/release
    const fill =
      `(while [ ! -e /workspace/release ]; do read -r _ _ </proc/uptime; done; kill -KILL -1) >/dev/null 2>&1 </dev/null &\n` +
      `bash -c 'while :; do sleep 1000 & done' >/dev/null 2>&1 </dev/null &\necho filling`;
    // an exec of its own, beside the sandbox's commands: the resident runner kills what a command leaves
    const container = docker.getContainer(box.id);
    const filler = await container.exec({ Cmd: ['sh', '-c', fill], User: '10001:10001', WorkingDir: '/workspace' });
    await filler.start({ Detach: true });
    for (let look = 0; ; look++) {
      const stats = (await container.stats({ stream: false, 'one-shot': true })) as {
        pids_stats?: { current?: number };
      };
      if ((stats.pids_stats?.current ?? 0) >= 32) break;
      if (look > 600) throw new Error(`the pids limit never filled: ${JSON.stringify(stats.pids_stats)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const err = await small.test('echo alive', 30_000).catch((e: unknown) => e);
    expect(isHammerError(err, 'SANDBOX_PIDS_FULL'), String(err)).toBe(true);
    expect((err as Error).message).toMatch(/every pid of the sandbox's limit( \(32\))? is taken/);

    await box.putFiles(box.workdir, [{ path: 'release', content: '' }]);
    await box.killAll();
    expect(await leftInBox()).toBe(0);
    const after = await small.test('echo alive', 30_000);
    expect(after.exitCode).toBe(0);
    expect(after.stdout.text).toContain('alive');
  });
});
