// The Docker daemon restarting mid-run: dockerd is stopped (SIGTERM) and started again while the
// run's tests execute in the sandbox. The run must stop with a typed error (exit 3) and a state file
// that parses and records it; `hammer-box resume` must then continue to the end in a new sandbox,
// leaving no container or volume of the run and the user's repository changed only by its branch.
// It restarts the engine for everything on it, so it runs only in `make security`
// (HAMMER_SECURITY=full), after every other security file (see support/run-last-sequencer.ts),
// and always brings the engine back up.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolchainImage } from '../helpers/images.js';
import { answerWith, FIX_PATCH } from '../helpers/python-fixture.js';
import { leftovers } from '../integration/run-support.js';
import type { RunState } from '../../src/state/run-state.js';
import { requireBuiltCli, runCli, waitFor, type CliResult } from './support/cli.js';
import { dockerdPid, engineAnswers, startEngine, stopEngine } from './support/engine-restart.js';
import { attack } from './support/record.js';
import { createScene, expectCanarySafe, expectNoLeftovers, expectRepoIntact, stateNow } from './support/scene.js';

if (process.env['HAMMER_SECURITY'] !== 'full') {
  throw new Error(
    'daemon-restart.test.ts restarts the Docker engine: it runs only with HAMMER_SECURITY=full (make security)',
  );
}

const exec = promisify(execFile);
const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => {
  requireBuiltCli();
  await toolchainImage('python');
});
afterAll(async () => {
  // the engine first: every other cleanup, and whatever runs next, needs it
  try {
    if (!(await engineAnswers())) await startEngine();
  } finally {
    for (const c of cleanups.splice(0).reverse()) await c();
  }
});

describe('the Docker daemon restarting mid-run', () => {
  it('stops the run with a typed error and a valid state; resume continues in a new sandbox and leaves nothing', async () => {
    const s = await createScene({
      answers: [
        { answer: answerWith(FIX_PATCH) },
        { answer: answerWith(FIX_PATCH) },
        { answer: answerWith(FIX_PATCH) },
      ],
      // long enough for the restart to land inside the iteration's test run
      testCommand: 'sleep 8; python3 -m pytest -q',
      maxIterations: 3,
    });
    cleanups.push(() => s.cleanup());
    const cli = s.start();
    cleanups.push(async () => {
      if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
    });
    let st: RunState | null = null;
    await waitFor(
      async () => {
        st = await stateNow(s);
        const it1 = st?.iterations[0];
        // extract is the last phase recorded before the one exec that validates, applies and tests
        return it1 !== undefined && it1.phases.extract?.status === 'done' && it1.outcome === null;
      },
      180_000,
      "the first iteration's test phase",
    );
    // past validate and apply (well under a second), into the test's sleep
    await new Promise((r) => setTimeout(r, 2_000));
    const oldPid = await stopEngine();
    // the run may stop while the engine is down or only once it is back: give it the whole restart
    await startEngine();
    const newPid = await dockerdPid();
    // a CLI still running two minutes after the engine is back hangs: stop it, and the row says so
    const hung = await Promise.race([
      cli.done.then(() => false),
      new Promise<boolean>((r) => setTimeout(() => r(true), 120_000)),
    ]);
    if (hung) cli.child.kill('SIGKILL');
    const stopped: CliResult = await cli.done;
    const after = (await stateNow(s))!;
    const runId = after.run_id;
    // if the test fails before resume cleaned up, what the run left goes with the fixture
    cleanups.push(async () => {
      const left = await leftovers(runId);
      if (left.containers.length) await exec('docker', ['rm', '-f', ...left.containers]);
      if (left.volumes.length) await exec('docker', ['volume', 'rm', ...left.volumes]);
    });

    await attack(
      'Docker daemon restarted during the test phase',
      'exit 3 SANDBOX_BROKEN/ENGINE_UNAVAILABLE recorded in a valid state, with the resume command; resume reaches stable in a new sandbox; one branch; no leftovers',
      async () => {
        expect(newPid, 'dockerd was restarted').not.toBe(oldPid);
        expect(hung, `the CLI still ran 120 s after the engine was back: ${stopped.stderr.slice(-600)}`).toBe(false);
        expect(stopped.signal).toBeNull();
        expect(stopped.code, stopped.stderr.slice(-1200)).toBe(3);
        const code = /SANDBOX_BROKEN|ENGINE_UNAVAILABLE/.exec(stopped.stderr)?.[0];
        expect(code, `the CLI named neither error: ${stopped.stderr.slice(-800)}`).toBeDefined();
        expect(stopped.stderr, 'the CLI says how to continue').toContain(`hammer-box resume ${runId} --repo `);
        expect(after.status).toBe('error');
        expect(after.errors.map((e) => e.code)).toContain(code);
        expect(after.iterations[0]?.outcome ?? null, 'the restart landed after the test phase had finished').toBeNull();
        const oldBox = after.sandbox?.container_id;

        const resumed = await runCli(['resume', runId, '--repo', s.fx.repo.path, '--config', s.configFile], s.env);
        expect(resumed.code, resumed.stderr.slice(-1200)).toBe(0);
        const final = (await stateNow(s))!;
        expect(final.run_id).toBe(runId);
        expect(final.status).toBe('stable');
        expect(final.resumed).toBe(1);
        expect(final.sandbox?.container_id, 'resume started a new sandbox').not.toBe(oldBox);
        await expectNoLeftovers(runId);
        expect(await expectRepoIntact(s)).toHaveLength(1);
        await expectCanarySafe(s, {
          result: {
            ...resumed,
            stdout: `${stopped.stdout}${resumed.stdout}`,
            stderr: `${stopped.stderr}${resumed.stderr}`,
          },
        });
        const line = stopped.stderr.split('\n').find((l) => l.includes(code!)) ?? code!;
        return `exit ${stopped.code}: ${line.trim().slice(0, 100)}; state error, parses; resume: ${final.status} after ${final.iterations.length} iteration(s), one branch, no leftovers`;
      },
    );
  });
});
