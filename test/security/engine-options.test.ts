// Engine options: `[sandbox] runtime` is honoured (a runtime the engine lacks fails closed before
// the run writes anything; one it has is used), and `doctor` reports rootless mode, userns-remap and
// the runtimes on offer.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDockerClient } from '../../src/sandbox/index.js';
import { answerWith, FIX_PATCH } from '../helpers/python-fixture.js';
import { runCli } from './support/cli.js';
import { attack } from './support/record.js';
import { expectCanarySafe, runScene, type Scene } from './support/scene.js';
import { runIdsIn } from '../integration/run-support.js';
import { attackFileHooks } from './support/hooks.js';

const { scene } = attackFileHooks();

const DoctorSchema = z.object({
  checks: z.array(z.object({ name: z.string(), status: z.string(), detail: z.string() })),
  engine: z
    .object({ runtimes: z.array(z.string()) })
    .passthrough()
    .nullable(),
});

describe('engine options', () => {
  it('[sandbox] runtime: a runtime the engine lacks fails closed; the default one runs', async () => {
    const info = (await createDockerClient().info()) as { Runtimes?: Record<string, unknown>; DefaultRuntime?: string };
    const offered = Object.keys(info.Runtimes ?? {});
    const missing = offered.includes('runsc') ? 'hb-no-such-runtime' : 'runsc';
    const s: Scene = await scene({ answers: [{ answer: answerWith(FIX_PATCH) }], env: { HAMMER_RUNTIME: missing } });
    const refused = await s.run();
    const ok: Scene = await scene({
      answers: [{ answer: answerWith(FIX_PATCH) }],
      env: { HAMMER_RUNTIME: info.DefaultRuntime ?? 'runc' },
    });
    const good = await runScene(ok);
    await attack(
      `[sandbox] runtime = "${missing}" (not offered by the engine)`,
      'fails closed with exit 3 (SANDBOX_HARDENING) before the run writes anything; a runtime it offers works',
      async () => {
        expect(refused.code, refused.stderr.slice(-600)).toBe(3);
        expect(refused.stderr).toContain(`error [SANDBOX_HARDENING]: [sandbox] runtime is "${missing}"`);
        expect(await runIdsIn(s.fx.repo.path)).toEqual([]);
        await expectCanarySafe(s, { result: refused }, 'not-run');
        expect(good.state.status).toBe('stable');
        return `exit 3: ${(refused.stderr.split('\n').find((l) => l.includes('error [')) ?? '').slice(0, 100)}; runtime "${info.DefaultRuntime ?? 'runc'}": stable`;
      },
    );
  });

  it('doctor reports rootless mode, userns-remap and the runtimes', async () => {
    const r = await runCli(['doctor', '--json'], process.env);
    const report = DoctorSchema.parse(JSON.parse(r.stdout));
    await attack(
      'doctor: engine isolation options',
      'reports rootless, userns-remap and runtimes (gVisor or not)',
      () => {
        const userns = report.checks.find((c) => c.name === 'user namespaces');
        const runtime = report.checks.find((c) => c.name === 'runtime');
        expect(userns?.detail).toMatch(/rootless: (yes|no), userns-remap: (yes|no)/);
        expect(runtime?.detail).toMatch(/gVisor \(runsc\)/);
        expect(report.engine?.runtimes.length).toBeGreaterThan(0);
        return `${userns!.detail.slice(0, 40)}; ${runtime!.detail.slice(0, 80)}`;
      },
    );
  });
});
