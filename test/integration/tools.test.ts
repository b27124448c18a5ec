// The whitelisted tools run inside a real hardened sandbox, with validated input only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import { isHammerError } from '../../src/errors.js';
import { sandboxSpec } from '../../src/loop/sandbox-spec.js';
import { parseRunnerResult, runnerArgv } from '../../src/runner/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { toolchainImage } from '../helpers/images.js';
import { testEngine } from './sandbox-fixtures.js';

const { engine } = testEngine();
const registry = new ToolRegistry();
let sandbox: Sandbox;

beforeAll(async () => {
  const { config } = await resolveConfig({ env: {} });
  const spec = sandboxSpec(config, `test-tools-${process.pid}`, await toolchainImage('python'));
  spec.limits = {
    ...spec.limits,
    memoryBytes: 512 * 1024 ** 2,
    workspaceBytes: 64 * 1024 ** 2,
    tmpBytes: 16 * 1024 ** 2,
  };
  sandbox = await engine.create(spec);
  await sandbox.putFiles(sandbox.workdir, [
    { path: 'calc.py', content: 'def add(a, b):\n    return a + b\n' },
    { path: 'test_calc.py', content: 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n' },
  ]);
  const init = await sandbox.exec(runnerArgv('init'), { timeoutMs: 60_000 });
  expect(parseRunnerResult(init.stdout.text, { exitCode: init.exitCode }).ok).toBe(true);
});
afterAll(async () => {
  await sandbox?.destroy();
});

describe('tools in the sandbox', () => {
  it('runs git_status, git_log, pytest and compileall inside the sandbox', async () => {
    const status = await registry.run(sandbox, 'git_status', {});
    expect(status).toMatchObject({ ok: true, exit_code: 0, timed_out: false });
    const log = await registry.run(sandbox, 'git_log', { max: 5 });
    expect(log.stdout).toMatch(/base/);
    const pytest = await registry.run(sandbox, 'pytest', { paths: ['test_calc.py'] });
    expect(pytest.ok).toBe(true);
    expect(pytest.stdout).toMatch(/1 passed/);
    expect((await registry.run(sandbox, 'compileall', {})).ok).toBe(true);
  });

  it('reports a failing tool as data and refuses input outside its contract', async () => {
    await sandbox.putFiles(sandbox.workdir, [{ path: 'test_bad.py', content: 'def test_bad():\n    assert False\n' }]);
    const failing = await registry.run(sandbox, 'pytest', { paths: ['test_bad.py'] });
    expect(failing).toMatchObject({ ok: false, exit_code: 1 });
    await expect(registry.run(sandbox, 'pytest', { paths: ['../../etc/passwd'] })).rejects.toSatisfy((e: unknown) =>
      isHammerError(e, 'USAGE'),
    );
    await expect(registry.run(sandbox, 'no_such_tool', {})).rejects.toSatisfy((e: unknown) =>
      isHammerError(e, 'USAGE'),
    );
  });
});
