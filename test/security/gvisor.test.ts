// gVisor: with `[sandbox] runtime = "auto"` a run's sandbox gets gVisor when the engine offers runsc,
// proven from inside the sandbox (it runs on gVisor's kernel, not the host's), recorded in the state
// and named in PR_SUMMARY.md; and the escape attempts fail under gVisor as they do on the default
// runtime, except that unshare(2) succeeds inside gVisor's own kernel (Docker's seccomp profile is
// not applied there; gVisor's kernel is the boundary). The engine must offer runsc: `make gvisor` registers it (`make test` runs that first;
// `make test GVISOR=0` leaves this file out on engines that cannot have gVisor, and says so).
import { readFile } from 'node:fs/promises';
import { release } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDockerClient } from '../../src/sandbox/index.js';
import { answerWith, FIX_PATCH } from '../helpers/python-fixture.js';
import { runCli } from './support/cli.js';
import { escapeAttempts } from './support/escape-attempts.js';
import { attackFileHooks } from './support/hooks.js';
import { attack } from './support/record.js';
import { expectCanarySafe, expectNoLeftovers, runScene } from './support/scene.js';

// first, so an engine without gVisor fails at once with what to do
beforeAll(async () => {
  const info = (await createDockerClient().info()) as { Runtimes?: Record<string, unknown> };
  const offered = Object.keys(info.Runtimes ?? {});
  if (!offered.includes('runsc')) {
    throw new Error(
      `the engine offers no gVisor runtime (runsc; it offers ${offered.join(', ') || 'none'}): run 'make gvisor' (root, local dockerd), ` +
        "or 'make test GVISOR=0' to leave the gVisor tests out on an engine that cannot have it",
    );
  }
});
const file = attackFileHooks();

describe('gVisor', () => {
  it('runtime "auto" runs the sandbox under gVisor when the engine offers it, and says so', async () => {
    // the kernel the tests see: a container shares the host's, gVisor brings its own
    const s = await file.scene({
      answers: [{ answer: answerWith(FIX_PATCH) }],
      env: { HAMMER_RUNTIME: 'auto' },
      testCommand: 'echo "HB_KERNEL $(uname -r) | $(cat /proc/version)"; python3 -m pytest -q',
    });
    const out = await runScene(s);
    const log = await readFile(join(s.fx.repo.path, '.hammer', 'runs', out.runId, 'baseline-test.log'), 'utf8');
    const doctor = await runCli(['doctor', '--json'], { ...s.env, HAMMER_RUNTIME: 'auto' });
    const runtimeRow = (JSON.parse(doctor.stdout) as { checks: { name: string; detail: string }[] }).checks.find(
      (c) => c.name === 'runtime',
    );
    await attack(
      'gVisor: [sandbox] runtime = "auto" on an engine with runsc',
      'the sandbox runs on gVisor; state, PR_SUMMARY.md and doctor say so',
      async () => {
        expect(out.result.code, out.result.stderr.slice(-600)).toBe(0);
        expect(out.state.status).toBe('stable');
        const kernel = /^HB_KERNEL (\S+) \| (.*)$/m.exec(log);
        expect(kernel, 'the test command printed its kernel').not.toBeNull();
        expect(kernel![1], "the sandbox runs on its own kernel, not the host's").not.toBe(release());
        expect((out.state.config['sandbox'] as { runtime: string }).runtime).toBe('runsc');
        expect(out.summary).toContain('| Sandbox runtime | gVisor (`runsc`) |');
        expect(runtimeRow?.detail).toContain('sandboxes run with gVisor (runsc)');
        await expectNoLeftovers(out.runId);
        await expectCanarySafe(s, out);
        return `stable; kernel in the sandbox ${kernel![1]} (host ${release()}); state and summary: runsc`;
      },
    );
  });

  it("network and kernel escape attempts fail under gVisor too, or stay in gVisor's kernel; each control works", async () => {
    await escapeAttempts({ prefix: 'gVisor: ', env: { HAMMER_RUNTIME: 'runsc' }, ownKernel: true, file });
  });
});
