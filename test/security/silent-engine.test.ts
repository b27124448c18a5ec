// An engine that accepts connections and never answers (a real unix socket or TCP listener passed
// as DOCKER_HOST) must not hang hammer-box: `doctor` and `run` end with ENGINE_UNAVAILABLE, exit 3,
// after the connect timeout; an engine that answers the connect check and then goes silent is left
// by SIGTERM within five seconds. Control: the same commands against the real engine get past it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPythonFixture, type PythonFixture } from '../helpers/python-fixture.js';
import { startSilentEngine, type SilentEngine } from '../helpers/silent-engine.js';
import { testEnv } from '../integration/run-support.js';
import { plantCanary, type Canary } from './support/canary.js';
import { requireBuiltCli, startCli, waitFor, type CliProcess, type CliResult } from './support/cli.js';
import { attack } from './support/record.js';
import { snapshotRepo, diffSnapshots } from '../helpers/fixture-repo.js';

/** The connect timeout (10 s) plus a generous margin for a loaded machine; a hang never ends. */
const EXIT_BOUND_MS = 30_000;
/** SIGTERM must end the process within five seconds; one more for the process to be reaped. */
const SIGTERM_BOUND_MS = 6_000;

let fx: PythonFixture;
let canary: Canary;
const engines: SilentEngine[] = [];

beforeAll(async () => {
  requireBuiltCli();
  fx = await createPythonFixture();
  canary = await plantCanary();
});
afterAll(async () => {
  for (const e of engines) await e.close();
  await fx?.cleanup();
  await canary?.remove();
});

async function silent(kind: 'unix' | 'tcp', answerPing = false): Promise<SilentEngine> {
  const e = await startSilentEngine(kind, { answerPing });
  engines.push(e);
  return e;
}

/** The process's end, or a failure (after SIGKILL) when it is still running after `ms`. */
async function endsWithin(p: CliProcess, ms: number, what: string): Promise<CliResult> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      p.child.kill('SIGKILL');
      reject(
        new Error(`${what} was still running after ${ms / 1000} s (killed); it said: ${p.output().stderr.slice(-400)}`),
      );
    }, ms);
  });
  try {
    return await Promise.race([p.done, hung]);
  } finally {
    clearTimeout(timer);
  }
}

const runArgs = (): string[] => ['run', '--repo', fx.repo.path, '--directive', fx.directive];

describe('an engine that accepts connections and never answers', () => {
  it('doctor: the engine check fails with ENGINE_UNAVAILABLE and the process exits 3', async () => {
    const e = await silent('unix');
    const p = startCli(['doctor', '--json'], testEnv({ DOCKER_HOST: e.dockerHost }));
    const r = await endsWithin(p, EXIT_BOUND_MS, 'doctor');
    await attack('silent engine (unix socket): doctor', 'engine check FAIL, exit 3, no hang', () => {
      expect(r.code, r.stderr).toBe(3);
      const report = JSON.parse(r.stdout) as { checks: { name: string; status: string; detail: string }[] };
      const check = report.checks.find((c) => c.name === 'engine');
      expect(check?.status).toBe('fail');
      expect(check?.detail).toMatch(/^no Docker engine answers at \S+ \(DOCKER_HOST\) \(no answer within 10 s\)$/);
      expect(canary.hits({ stdout: r.stdout, stderr: r.stderr })).toEqual([]);
      return `exit ${r.code}: ${check?.detail ?? ''}`;
    });
  });

  it('run: ENGINE_UNAVAILABLE, exit 3, nothing written to the repository', async () => {
    const e = await silent('tcp');
    const before = await snapshotRepo(fx.repo.path);
    const p = startCli(runArgs(), testEnv({ DOCKER_HOST: e.dockerHost }));
    const r = await endsWithin(p, EXIT_BOUND_MS, 'run');
    await attack(
      'silent engine (TCP listener): run',
      'ENGINE_UNAVAILABLE, exit 3, no hang, repo untouched',
      async () => {
        expect(r.code, r.stderr).toBe(3);
        expect(r.stderr).toMatch(
          /error \[ENGINE_UNAVAILABLE\]: no Docker engine answers at \S+ \(DOCKER_HOST\) \(no answer within 10 s\)\n/,
        );
        const d = diffSnapshots(before, await snapshotRepo(fx.repo.path));
        expect(d).toEqual({ added: [], removed: [], changed: [] });
        expect(await canary.untouched()).toBe(true);
        expect(canary.hits({ stdout: r.stdout, stderr: r.stderr })).toEqual([]);
        return `exit ${r.code}, ENGINE_UNAVAILABLE; repository unchanged`;
      },
    );
  });

  it('run on an engine that answers the connect check, then never again: SIGTERM ends it within 5 s', async () => {
    const e = await silent('unix', true);
    const p = startCli(runArgs(), testEnv({ DOCKER_HOST: e.dockerHost }));
    // the ping was answered and a later request is left hanging
    await waitFor(() => e.requests().length >= 2, EXIT_BOUND_MS, 'a request after the ping');
    p.child.kill('SIGTERM');
    const r = await endsWithin(p, SIGTERM_BOUND_MS, 'run after SIGTERM');
    await attack('engine silent after the ping, then SIGTERM', 'exit 130 within 5 s', () => {
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toContain('terminated, cleaning up');
      return `exit ${r.code} after SIGTERM; requests it was left waiting on: ${e.requests().slice(1).join(', ')}`;
    });
  });

  it('control: doctor against the real engine passes the engine check', async () => {
    const p = startCli(['doctor', '--json'], testEnv());
    const r = await endsWithin(p, 120_000, 'doctor');
    await attack('control: doctor against the real engine', 'engine check ok', () => {
      const report = JSON.parse(r.stdout) as { checks: { name: string; status: string }[] };
      expect(report.checks.find((c) => c.name === 'engine')?.status).toBe('ok');
      return 'engine check ok';
    });
  });
});
