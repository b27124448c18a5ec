// The loop's sandbox operations in a real hardened sandbox: one `step` exec per iteration that
// checks, applies, commits and tests; a refused patch as data; daemons left by tests gone when the
// op returns; the test timeout enforced inside the same exec.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import { SandboxRepo } from '../../src/loop/sandbox-repo.js';
import { sandboxSpec } from '../../src/loop/sandbox-spec.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { toolchainImage } from '../helpers/images.js';
import { testEngine } from './sandbox-fixtures.js';

const { engine } = testEngine();
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

/** uids of every process but PID 1 and the listing shell itself (builtins only). */
async function otherUids(): Promise<number[]> {
  const list =
    'for d in /proc/[0-9]*; do p=${d#/proc/}; [ "$p" = "$$" ] || [ "$p" = 1 ] && continue; while read -r k v rest; do [ "$k" = "Uid:" ] && echo "$v"; done < $d/status 2>/dev/null; done';
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
