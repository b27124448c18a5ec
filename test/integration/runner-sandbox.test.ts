// The runner through the real sandbox layer (hardened container, tmpfs-backed workspace, tar
// copy-in): the whole apply/commit/test cycle works, and a test that plants a hook and a filter
// between ops cannot make the runner's git run them.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATCH_DIR, patchPath, runnerArgv, splitRunnerOutput } from '../../src/runner/index.js';
import type { RunnerOp } from '../../src/runner/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { testEngine, testSpec } from './sandbox-fixtures.js';

const { engine } = testEngine();
let sandbox: Sandbox;
let repo: string;

const FIX = `--- a/calc.py
+++ b/calc.py
@@ -1,2 +1,2 @@
 def add(a, b):
-    return a - b
+    return a + b
`;

async function op(name: RunnerOp, ...args: string[]) {
  const r = await sandbox.exec(runnerArgv(name, ...args), { timeoutMs: 120_000 });
  return { ...r, ...splitRunnerOutput(r.stdout.text) };
}

beforeAll(async () => {
  repo = await mkdtemp(path.join(tmpdir(), 'hb-runner-sbx-'));
  await writeFile(path.join(repo, 'calc.py'), 'def add(a, b):\n    return a - b\n');
  await writeFile(
    path.join(repo, 'test_calc.py'),
    'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
  );
  await writeFile(path.join(repo, '.gitattributes'), '*.py filter=evil\n');
  sandbox = await engine.create(await testSpec());
  await sandbox.copyIn({ kind: 'dir', path: repo });
});
afterAll(async () => {
  await sandbox?.destroy();
  await rm(repo, { recursive: true, force: true });
});

describe('runner in a hardened sandbox', () => {
  it('init, baseline test, apply, commit and test pass', async () => {
    const init = await op('init');
    expect(init.result).toMatchObject({ op: 'init', ok: true, exit: 0 });
    expect(init.exitCode).toBe(0);

    const baseline = await op('test', '60', 'python3 -m pytest -q -p no:cacheprovider');
    expect(baseline.result).toEqual({ op: 'test', ok: false, exit: 1, settled: true });
    expect(baseline.exitCode).toBe(1);

    await sandbox.putFiles(`${sandbox.workdir}/${PATCH_DIR}`, [{ path: 'fix.diff', content: FIX }]);
    const check = await op('apply-check', patchPath('fix.diff'));
    expect(check.result).toEqual({ op: 'apply-check', ok: true, exit: 0 });
    expect((await op('apply', patchPath('fix.diff'))).result?.ok).toBe(true);
    const commit = await op('commit', 'hammer: iteration 1 - fix add');
    expect(commit.result).toMatchObject({ ok: true });
    expect(commit.result?.tree).not.toBe(init.result?.tree);

    const tests = await op('test', '60', 'python3 -m pytest -q -p no:cacheprovider');
    expect(tests.result).toEqual({ op: 'test', ok: true, exit: 0, settled: true });
    expect(tests.output).toContain('1 passed');
  });

  it('hooks and filters planted by test code between ops never run', async () => {
    const plant = [
      'git config core.hooksPath /workspace/.hooks',
      'mkdir -p .hooks .git/hooks',
      'printf "#!/bin/sh\\ntouch /tmp/hook-fired\\n" > .hooks/pre-commit',
      'cp .hooks/pre-commit .git/hooks/pre-commit',
      'chmod +x .hooks/pre-commit .git/hooks/pre-commit',
      'git config filter.evil.clean "touch /tmp/filter-fired; cat"',
      'git config core.fsmonitor "touch /tmp/fsmonitor-fired; false"',
      'echo "* filter=evil" > .git/info/attributes',
      'echo "def add(a, b):\\n    return b + a" > calc.py',
    ].join(' && ');
    const planted = await op('test', '30', plant);
    expect(planted.result?.ok).toBe(true);
    // Control: for a plain git call the traps are live.
    const control = await sandbox.exec(['sh', '-c', 'git status >/dev/null 2>&1; ls /tmp'], { timeoutMs: 30_000 });
    expect(control.stdout.text).toContain('fsmonitor-fired');
    await sandbox.exec(['sh', '-c', 'rm -f /tmp/*-fired'], { timeoutMs: 30_000 });

    expect((await op('status')).result).toMatchObject({ ok: true, clean: false });
    expect((await op('commit', 'from test code')).result?.ok).toBe(true);
    expect((await op('diff')).result?.ok).toBe(true);
    expect((await op('reset')).result?.ok).toBe(true);
    const fired = await sandbox.exec(['sh', '-c', 'ls /tmp | grep -c fired || true'], { timeoutMs: 30_000 });
    expect(fired.stdout.text.trim()).toBe('0');
  });
});
