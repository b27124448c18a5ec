// Faults: kill -9 and Ctrl-C of the real CLI at each phase, a model server that hangs, dribbles,
// fails or talks garbage, no space left for the state directory, and two runs at once. After each:
// `hammer-box resume` continues to the end (or says why it cannot), no container or volume of the
// run survives, the state file parses, and the user's repository gains only the one branch.
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { answerWith, FIX_PATCH, NOOP_PATCH_A } from '../helpers/python-fixture.js';
import type { Script } from '../helpers/model-server.js';
import { runIdsIn } from '../integration/run-support.js';
import type { RunState } from '../../src/state/run-state.js';
import { RunStateSchema } from '../../src/state/run-state.js';
import { unsealedBody } from '../../src/state/state-mac.js';
import { runCli, waitFor, type CliResult } from './support/cli.js';
import { attack } from './support/record.js';
import { expectCanarySafe, expectNoLeftovers, expectRepoIntact, stateNow, type Scene } from './support/scene.js';
import { snapshotRepo } from '../helpers/fixture-repo.js';
import { attackFileHooks } from './support/hooks.js';

const exec = promisify(execFile);
const { cleanups, scene } = attackFileHooks();

/** `hammer-box resume <id>` through the CLI. */
function resumeCli(s: Scene, runId: string): Promise<CliResult> {
  return runCli(['resume', runId, '--repo', s.fx.repo.path, '--config', s.configFile], s.env);
}

const newFile = (path: string, body: string): string =>
  `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+${body}\n`;
const SLOW_TESTS = 'if [ -e slow.flag ]; then sleep 4; fi; python3 -m pytest -q';

/** A phase to stop the CLI in: how to make it last, and how to see from the state that it is under way. */
interface PhaseCase {
  phase: string;
  answers: Script[];
  files?: Record<string, string>;
  /** True once the run is inside the phase (from the state file). */
  inside(st: RunState): boolean;
  /** True when the phase had not finished when the process stopped. */
  unfinished(st: RunState): boolean;
}

const PHASES: PhaseCase[] = [
  {
    phase: 'prepare',
    // 30 MB of files to copy in
    files: Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [`data/blob-${i}.txt`, `${String(i).repeat(1024 * 1024)}\n`]),
    ),
    answers: [{ answer: answerWith(FIX_PATCH) }],
    // past setup (a run stopped in setup is not resumed: it has no environment yet)
    inside: (st) => st.image !== null,
    unfinished: (st) => st.phases.prepare?.status !== 'done',
  },
  {
    phase: 'baseline',
    files: { 'slow.flag': '1\n' },
    answers: [{ answer: answerWith(FIX_PATCH) }],
    inside: (st) => st.phases.prepare?.status === 'done',
    unfinished: (st) => st.baseline === null,
  },
  {
    phase: 'generate',
    answers: [{ answer: answerWith(FIX_PATCH), chunkSize: 2, delayMs: 60 }, { answer: answerWith(FIX_PATCH) }],
    inside: (st) => st.iterations[0]?.phases.read_state?.status === 'done',
    unfinished: (st) => (st.iterations[0]?.answer ?? null) === null,
  },
  {
    phase: 'test',
    answers: [{ answer: answerWith(`${NOOP_PATCH_A}${newFile('slow.flag', '1')}`) }, { answer: answerWith(FIX_PATCH) }],
    inside: (st) => (st.iterations[0]?.answer ?? null) !== null,
    unfinished: (st) => (st.iterations[0]?.outcome ?? null) === null,
  },
];

describe.each([
  { how: 'kill -9', signal: 'SIGKILL' as const },
  { how: 'Ctrl-C', signal: 'SIGINT' as const },
])('$how of the CLI', ({ how, signal }) => {
  it.each(PHASES.map((p) => [p.phase, p] as const))(
    `in %s: ${how === 'kill -9' ? 'resume cleans up and continues' : 'exit 130, state interrupted, nothing left; resume continues'}`,
    async (phase, c) => {
      const s = await scene({ answers: c.answers, files: c.files ?? {}, testCommand: SLOW_TESTS, maxIterations: 3 });
      const cli = s.start();
      let st: RunState | null = null;
      await waitFor(
        async () => {
          st = await stateNow(s);
          return st !== null && c.inside(st);
        },
        120_000,
        `the run to enter ${phase}`,
      );
      cli.child.kill(signal);
      // a CLI still running 90 s after the signal hangs: stop it, and the failure shows what it printed
      const hung = await Promise.race([
        cli.done.then(() => false),
        new Promise<boolean>((r) => setTimeout(() => r(true), 90_000)),
      ]);
      if (hung) cli.child.kill('SIGKILL');
      const stopped = await cli.done;
      if (hung)
        throw new Error(`the CLI still ran 90 s after ${how} in ${phase}; it printed: ${stopped.stderr.slice(-2000)}`);
      const after = (await stateNow(s))!;
      const runId = after.run_id;
      await attack(
        `${how} in ${phase}`,
        how === 'kill -9'
          ? 'state parses; resume removes leftovers and continues to stable'
          : 'exit 130, interrupted, no leftovers; resume continues to stable',
        async () => {
          expect(c.unfinished(after), `the ${how} landed after ${phase} had finished`).toBe(true);
          if (signal === 'SIGINT') {
            expect(stopped.code, stopped.stderr.slice(-600)).toBe(130);
            expect(after.status).toBe('interrupted');
            await expectNoLeftovers(runId);
          } else {
            expect(stopped.signal).toBe('SIGKILL');
            expect(after.status).toBe('running');
          }
          const resumed = await resumeCli(s, runId);
          expect(resumed.code, resumed.stderr.slice(-800)).toBe(0);
          const final = (await stateNow(s))!;
          expect(final.run_id).toBe(runId);
          expect(final.status).toBe('stable');
          expect(final.resumed).toBe(1);
          await expectNoLeftovers(runId);
          expect(await expectRepoIntact(s)).toHaveLength(1);
          await expectCanarySafe(s, {
            result: {
              ...resumed,
              stdout: `${stopped.stdout}${resumed.stdout}`,
              stderr: `${stopped.stderr}${resumed.stderr}`,
            },
          });
          return `${signal === 'SIGINT' ? `exit ${stopped.code}, state ${after.status}, nothing left` : `killed; state ${after.status} and valid`}; resume: ${final.status} after ${final.iterations.length} iteration(s), one branch, no leftovers`;
        },
      );
    },
  );
});

describe('a second Ctrl-C', () => {
  it('exits at once with 130; resume removes what is left and continues', async () => {
    // the run freezes itself as its cleanup starts (SIGSTOP at the `cleanup` fault point), so the
    // second Ctrl-C lands during the cleanup however fast or slow the machine is
    const s = await scene({
      answers: [{ answer: answerWith(FIX_PATCH) }],
      files: { 'slow.flag': '1\n' },
      testCommand: SLOW_TESTS,
      env: { HAMMER_FAULT: 'SIGSTOP@cleanup' },
    });
    const cli = s.start();
    await waitFor(async () => (await stateNow(s))?.phases.prepare?.status === 'done', 120_000, 'the baseline');
    cli.child.kill('SIGINT');
    await waitFor(() => isStopped(cli.child.pid!), 120_000, 'the run to stop as its cleanup starts');
    await waitFor(() => cli.output().stderr.includes('cleaning up'), 120_000, 'the first interrupt to be seen');
    cli.child.kill('SIGINT');
    cli.child.kill('SIGCONT');
    const stopped = await cli.done;
    await attack('second Ctrl-C', 'forces exit 130; resume cleans up and continues', async () => {
      expect(stopped.code).toBe(130);
      expect(stopped.stderr).toContain('interrupted again, exiting now');
      const runId = (await stateNow(s))!.run_id;
      const { HAMMER_FAULT: _fault, ...env } = s.env;
      const resumed = await runCli(['resume', runId, '--repo', s.fx.repo.path, '--config', s.configFile], env);
      expect(resumed.code, resumed.stderr.slice(-800)).toBe(0);
      expect((await stateNow(s))!.status).toBe('stable');
      await expectNoLeftovers(runId);
      expect(await expectRepoIntact(s)).toHaveLength(1);
      return 'exit 130 at once, during the cleanup; resume: stable, no leftovers';
    });
  });
});

/** True once process `pid` is stopped (state T in /proc/<pid>/stat). */
async function isStopped(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return /^\d+ \(.*\) T /.test(stat);
}

const MODEL_FAULTS: { fault: string; script: Script; code: RegExp }[] = [
  { fault: 'hangs (no headers)', script: { hang: true }, code: /MODEL_TIMEOUT|MODEL_UNREACHABLE|MODEL_ERROR/ },
  {
    fault: 'dribbles one character at a time',
    script: { dribble: answerWith(FIX_PATCH).repeat(20), intervalMs: 300 },
    code: /MODEL_TIMEOUT/,
  },
  { fault: 'returns 500', script: { status: 500, body: { error: 'internal server error' } }, code: /MODEL_ERROR/ },
  {
    fault: 'sends an error chunk mid-stream',
    script: { errorAfter: answerWith(FIX_PATCH).slice(0, 60), error: 'CUDA error: out of memory' },
    code: /MODEL_ERROR/,
  },
  { fault: 'sends garbage', script: { garbage: '<html>\u001b[2Jnot json at all {{{\n' }, code: /MODEL_ERROR/ },
];

describe('model server faults', () => {
  it.each(MODEL_FAULTS.map((f) => [f.fault, f] as const))(
    'the model server %s: a typed error, nothing applied; resume continues',
    async (_name, f) => {
      const s = await scene({
        answers: [f.script, { answer: answerWith(FIX_PATCH) }],
        modelConfig: 'first_token_timeout = 3\nidle_timeout = 3\ntimeout = 6\nconnect_timeout = 3\n',
      });
      const first = await s.run();
      const st = (await stateNow(s))!;
      await attack(
        `model server ${f.fault}`,
        'typed error (exit 3), no partial answer applied; resume reaches stable',
        async () => {
          expect(first.code, first.stderr.slice(-600)).toBe(3);
          expect(first.stderr).toMatch(f.code);
          expect(st.status).toBe('error');
          expect(st.iterations.every((i) => i.outcome !== 'applied')).toBe(true);
          expect(/[\u001b]/.test(first.stderr)).toBe(false);
          await expectNoLeftovers(st.run_id);
          const resumed = await resumeCli(s, st.run_id);
          expect(resumed.code, resumed.stderr.slice(-800)).toBe(0);
          expect((await stateNow(s))!.status).toBe('stable');
          await expectNoLeftovers(st.run_id);
          expect(await expectRepoIntact(s)).toHaveLength(1);
          await expectCanarySafe(s, {
            result: {
              ...resumed,
              stdout: `${first.stdout}${resumed.stdout}`,
              stderr: `${first.stderr}${resumed.stderr}`,
            },
          });
          return `exit 3 ${f.code.exec(first.stderr)?.[0] ?? ''}; nothing applied; resume: stable`;
        },
      );
    },
  );
});

describe('no space left for the state directory', () => {
  it('the run stops with an error naming it and leaves nothing; with room again, resume continues', async () => {
    const s = await scene({
      // a third answer: where the 64k fill up lands decides whether the second was already taken
      answers: [
        { answer: answerWith(NOOP_PATCH_A) },
        { answer: answerWith(FIX_PATCH) },
        { answer: answerWith(FIX_PATCH) },
      ],
      maxIterations: 3,
    });
    const stateDir = join(s.fx.repo.path, '.hammer');
    await mkdir(stateDir);
    await exec('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0755', 'hb-state', stateDir]);
    cleanups.push(() =>
      exec('umount', [stateDir]).then(
        () => undefined,
        () => undefined,
      ),
    );
    s.before = await snapshotRepo(s.fx.repo.path);
    const first = await s.run();
    const st = await stateNow(s);
    await attack(
      'no space left for the state directory (64k tmpfs)',
      'run stops with an error naming ENOSPC; state parses; no leftovers; resume continues',
      async () => {
        // a typed environment error (exit 3) that names the cause and says how to continue
        expect(first.code, first.stdout + first.stderr.slice(-600)).toBe(3);
        expect(first.stderr).toMatch(/STATE_UNWRITABLE/);
        expect(first.stderr).toMatch(/ENOSPC|no space left/i);
        expect(first.stderr).toMatch(/hammer-box resume /);
        expect(st, 'the first state file was written and parses').not.toBeNull();
        await expectNoLeftovers(st!.run_id);
        await exec('mount', ['-o', 'remount,size=16m', stateDir]);
        const resumed = await resumeCli(s, st!.run_id);
        expect(resumed.code, resumed.stderr.slice(-800)).toBe(0);
        expect((await stateNow(s))!.status).toBe('stable');
        await expectNoLeftovers(st!.run_id);
        expect(await expectRepoIntact(s)).toHaveLength(1);
        return `exit ${first.code}: ${(/[^\n]*(ENOSPC|no space left)[^\n]*/i.exec(first.stderr)?.[0] ?? '').slice(0, 90)}; after remount resume: stable`;
      },
    );
  });
});

describe('two runs on the same repository at once', () => {
  it('get distinct run ids, containers and branches, and leave no lock file', async () => {
    const s = await scene({ answers: [{ answer: answerWith(FIX_PATCH) }, { answer: answerWith(FIX_PATCH) }] });
    const a = s.start();
    const b = s.start();
    const [ra, rb] = await Promise.all([a.done, b.done]);
    await attack(
      'two runs at once on one repo',
      'distinct run ids, containers, branches; both stable; no lock files',
      async () => {
        expect(ra.code, ra.stderr.slice(-500)).toBe(0);
        expect(rb.code, rb.stderr.slice(-500)).toBe(0);
        const ids = await runIdsIn(s.fx.repo.path);
        expect(new Set(ids).size).toBe(2);
        const states = await Promise.all(
          ids.map(async (id) =>
            RunStateSchema.parse(
              JSON.parse(unsealedBody(await readFile(join(s.fx.repo.path, '.hammer', 'runs', `${id}.json`), 'utf8'))),
            ),
          ),
        );
        const boxes = new Set(states.map((x) => x.sandbox?.container_id));
        expect(boxes.size).toBe(2);
        const branches = await expectRepoIntact(s);
        expect(new Set(states.map((x) => x.branch?.name)).size).toBe(2);
        expect(branches).toHaveLength(2);
        const { stdout } = await exec('find', [s.fx.repo.path, '-name', '*.lock']);
        expect(stdout.trim()).toBe('');
        for (const id of ids) await expectNoLeftovers(id);
        expect((await readdir(join(s.fx.repo.path, '.hammer', 'runs'))).filter((n) => n.endsWith('.tmp'))).toEqual([]);
        return `run ids ${ids.map((i) => i.slice(-6)).join(', ')}; ${boxes.size} containers; branches ${states.map((x) => x.branch?.name.replace('EngineerExternal/', '')).join(', ')}; no *.lock`;
      },
    );
  });
});
