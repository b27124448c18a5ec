// Hostile test code: the repository's test command attacks the sandbox and the host. Every case
// runs the built CLI on a fixture whose attack.sh attacks at baseline; the model's patch switches
// it to a control that must work in the same sandbox right after. A host canary must stay
// untouched and appear nowhere.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerWith } from '../helpers/python-fixture.js';
import { attackScript, EVIL_PRINTF, EVIL_PROSE, RAW_CONTROL, SWITCH_ANSWER } from './support/attack-script.js';
import { attack } from './support/record.js';
import {
  expectCanarySafe,
  expectNoLeftovers,
  expectRepoIntact,
  runScene,
  sceneRuntime,
  type Outcome,
  type Scene,
  type SceneOptions,
} from './support/scene.js';
import { attackFileHooks } from './support/hooks.js';

const { scene } = attackFileHooks();

/** A scene whose attack.sh attacks at baseline and runs `control` after the model's switch patch. */
async function attackRun(
  attackSh: string,
  controlSh: string,
  opts: Partial<SceneOptions> = {},
): Promise<{ s: Scene; out: Outcome }> {
  const s = await scene({
    files: { 'attack.sh': attackScript(attackSh, controlSh) },
    answers: [{ answer: SWITCH_ANSWER }],
    testCommand: 'sh attack.sh',
    maxIterations: 1,
    ...opts,
  });
  const out = await runScene(s);
  return { s, out };
}

/**
 * Under gVisor the memory and pids limits hold the whole sandbox, gVisor's kernel included: a bomb
 * stops the sandbox, and the run must end with SANDBOX_BROKEN saying so (exit 3), leaving nothing
 * behind and the host untouched. Checks that and returns the row's observation.
 */
async function expectStoppedUnderGvisor(s: Scene, out: Outcome): Promise<string> {
  expect(out.result.code, out.result.stderr.slice(-600)).toBe(3);
  expect(out.result.stderr).toMatch(/error \[SANDBOX_BROKEN\]: the sandbox stopped while running/);
  expect(out.result.stderr).toMatch(/under gVisor, sandbox.memory and sandbox.pids_limit hold the whole sandbox/);
  expect(out.state.status).toBe('error');
  await expectNoLeftovers(out.runId);
  // the probe's report went down with the sandbox; the host side of the canary is still checked
  await expectCanarySafe(s, out, 'not-run');
  expect(await expectRepoIntact(s), 'no branch').toEqual([]);
  return `${(/the sandbox stopped while running [^\n]*/.exec(out.result.stderr)?.[0] ?? '').slice(0, 90)}; exit 3; nothing left`;
}

const GVISOR_BOMB = 'gVisor: stops the whole sandbox; SANDBOX_BROKEN says so and why (exit 3); host fine; nothing left';

/** The baseline's and iteration 1's test records of a run. */
function tests(out: Outcome) {
  const baseline = out.state.baseline;
  const iter = out.state.iterations[0]?.test ?? null;
  if (!baseline || !iter)
    throw new Error(
      `the run did not reach iteration 1's tests: ${out.state.status} ${out.state.reason_detail ?? ''} ${out.result.stderr.slice(-600)}`,
    );
  return { baseline, iter };
}

describe('hostile test code', () => {
  it('a fork bomb is stopped by the pids limit; the same sandbox forks normally right after', async () => {
    // the script itself forks nothing after the bomb (it waits on /proc/uptime), so its exit is
    // always 7: the runner must report that, though the bomb holds every pid when the script ends
    const { s, out } = await attackRun(
      `bomb() { bomb | bomb & }\nbomb\nread -r t0 _ </proc/uptime\nwhile read -r t _ </proc/uptime && [ "\${t%.*}" -lt $((\${t0%.*} + 3)) ]; do :; done\necho bomb-launched\nexit 7`,
      `for i in 1 2 3 4 5 6 7 8 9 10; do sleep 0.1 & done; wait; echo forked-10-ok`,
      { config: '[sandbox]\npids_limit = 64\n', testTimeout: 20 },
    );
    if ((await sceneRuntime()) === 'runsc')
      return attack('fork bomb in the tests', GVISOR_BOMB, () => expectStoppedUnderGvisor(s, out));
    await attack('fork bomb in the tests', 'stopped by pids_limit; host fine; control forks after', async () => {
      const { baseline, iter } = tests(out);
      expect(`${baseline.stdout_tail}\n${baseline.stderr_tail}`).toMatch(
        /Cannot fork|Resource temporarily unavailable|fork/i,
      );
      // the runner outlived the bomb and reported the script's own exit (not its own death, exit 2)
      expect(baseline.exit_code, baseline.stderr_tail.slice(-300)).toBe(7);
      expect(baseline.stdout_tail).toContain('bomb-launched');
      expect(iter.exit_code).toBe(0);
      expect(iter.stdout_tail).toContain('forked-10-ok');
      await expectNoLeftovers(out.runId);
      await expectCanarySafe(s, out);
      await expectRepoIntact(s);
      return `baseline: fork failed at pids_limit 64, the script's exit 7 reported; control: 10 forks ok; run ${out.state.status}`;
    });
  });

  it('a fork bomb that retries every failed fork is killed by the runner itself; the sandbox forks right after', async () => {
    // every bomb process retries a failed fork at once, so a pid that comes free (the script's own,
    // when it exits) is taken again before anything else can start: the runner must kill the bomb
    // without starting a process, and the host can start none until it has
    const { s, out } = await attackRun(
      `python3 -c 'import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass' >/dev/null 2>&1 &\nread -r t0 _ </proc/uptime\nwhile read -r t _ </proc/uptime && [ "\${t%.*}" -lt $((\${t0%.*} + 3)) ]; do :; done\necho bomb-launched\nexit 7`,
      `for i in 1 2 3 4 5 6 7 8 9 10; do sleep 0.1 & done; wait; echo forked-10-ok`,
      { config: '[sandbox]\npids_limit = 64\n', testTimeout: 20 },
    );
    if ((await sceneRuntime()) === 'runsc')
      return attack('fork bomb retrying every fork', GVISOR_BOMB, () => expectStoppedUnderGvisor(s, out));
    await attack(
      'fork bomb retrying every fork',
      'killed by the runner (no process needed); exit reported; control forks after',
      async () => {
        const { baseline, iter } = tests(out);
        expect(baseline.exit_code, baseline.stderr_tail.slice(-300)).toBe(7);
        expect(baseline.timed_out).toBe(false);
        expect(iter.exit_code).toBe(0);
        expect(iter.stdout_tail).toContain('forked-10-ok');
        await expectNoLeftovers(out.runId);
        await expectCanarySafe(s, out);
        await expectRepoIntact(s);
        return `baseline: exit 7 reported in ${Math.round(baseline.duration_ms / 1000)} s, not timed out; control: 10 forks ok; run ${out.state.status}`;
      },
    );
  });

  it('a memory bomb is killed at the memory limit and recorded as out of memory', async () => {
    const { s, out } = await attackRun(
      `python3 -c "
b = []
while True:
    b.append(bytearray(16 * 1024 * 1024))
"`,
      `python3 -c "b = bytearray(16 * 1024 * 1024); print('alloc-16m-ok')"`,
      { config: '[sandbox]\nmemory = "160m"\n' },
    );
    if ((await sceneRuntime()) === 'runsc')
      return attack('memory bomb in the tests', GVISOR_BOMB, () => expectStoppedUnderGvisor(s, out));
    await attack(
      'memory bomb in the tests',
      'killed at sandbox.memory; recorded as out of memory; control allocates after',
      async () => {
        const { baseline, iter } = tests(out);
        expect(baseline.exit_code).toBe(137);
        expect(baseline.stderr_tail).toMatch(/out of memory: the kernel killed \d+ test process/);
        expect(iter.stdout_tail).toContain('alloc-16m-ok');
        await expectCanarySafe(s, out);
        return `exit 137, stderr: "${/out of memory[^\n]{0,40}/.exec(baseline.stderr_tail)?.[0] ?? ''}..."; control allocated 16 MiB`;
      },
    );
  });

  it('a test that sleeps forever ignoring SIGTERM, and the daemon it started, are killed at the timeout; none is left', async () => {
    // processes whose command line starts with `pattern` (the runner's own argv may quote the script)
    const count = (pattern: string): string =>
      `n=0; for f in /proc/[0-9]*/cmdline; do case "$(tr '\\0' ' ' < "$f" 2>/dev/null)" in "${pattern}"*) n=$((n+1));; esac; done; echo "$n"`;
    const { s, out } = await attackRun(
      `setsid sh -c 'hbdaemon=1; while :; do sleep 1; done' >/dev/null 2>&1 </dev/null &\nsleep 0.5\necho "daemons=$(${count('sh -c hbdaemon=1')})"\n` +
        `trap '' TERM\nsh -c "trap '' TERM; sleep 100000" &\nsleep 100000\nwait`,
      `echo "leftover-daemons=$(${count('sh -c hbdaemon=1')})"; echo "leftover-sleepers=$(${count('sleep 100000')})"`,
      { testTimeout: 5 },
    );
    const { baseline, iter } = tests(out);
    await attack(
      'test sleeping forever, ignoring SIGTERM',
      'killed at test_timeout; recorded as timed out; nothing left',
      async () => {
        expect(baseline.timed_out).toBe(true);
        expect(iter.stdout_tail).toContain('leftover-sleepers=0');
        await expectCanarySafe(s, out);
        return `baseline timed out after ${Math.round(baseline.duration_ms / 1000)} s; 0 sleepers left in the next iteration`;
      },
    );
    await attack('daemon left behind by a test', 'gone before the next iteration', async () => {
      expect(baseline.stdout_tail).toMatch(/daemons=[1-9]/);
      expect(iter.stdout_tail).toContain('leftover-daemons=0');
      await expectNoLeftovers(out.runId);
      return 'daemon ran during the baseline; 0 left at the next iteration; container removed after';
    });
  });

  it('1 GB of output without newlines and with invalid UTF-8 is capped: host memory bounded, state small and valid', async () => {
    const { s, out } = await attackRun(
      `head -c 1073741824 /dev/zero | tr '\\0' '\\377'\nexit 1`,
      `echo small-output-ok`,
      { testTimeout: 240 },
    );
    await attack(
      '1 GB of output, no newlines, invalid UTF-8',
      'capped at output_cap; CLI RSS bounded; state file small and valid',
      async () => {
        const { baseline, iter } = tests(out);
        expect(baseline.total_bytes).toBeGreaterThanOrEqual(2 ** 30);
        expect(baseline.dropped_bytes).toBeGreaterThanOrEqual(2 ** 30 - 4 * 1024 * 1024);
        const stateBytes = (await readFile(join(s.fx.repo.path, '.hammer', 'runs', `${out.runId}.json`))).length;
        expect(stateBytes).toBeLessThan(512 * 1024);
        const log = await readFile(join(s.fx.repo.path, '.hammer', 'runs', out.runId, 'baseline-test.log'));
        expect(log.length).toBeLessThan(8 * 1024 * 1024);
        expect(out.result.peakRss).toBeGreaterThan(0);
        expect(out.result.peakRss).toBeLessThan(400 * 1024 * 1024);
        expect(iter.stdout_tail).toContain('small-output-ok');
        await expectCanarySafe(s, out);
        return `${(baseline.total_bytes / 2 ** 30).toFixed(2)} GiB written, ${(baseline.dropped_bytes / 2 ** 30).toFixed(2)} GiB dropped; state ${(stateBytes / 1024).toFixed(0)} KiB (valid); CLI peak RSS ${(out.result.peakRss / 2 ** 20).toFixed(0)} MiB`;
      },
    );
  }, 400_000);

  it('terminal escape sequences in test output and in the model answer never reach the terminal, the state or PR_SUMMARY.md', async () => {
    const evil = EVIL_PRINTF;
    const prose = EVIL_PROSE;
    const { s, out } = await attackRun(
      `printf '${evil}\\n'; printf '${evil}' >&2; exit 1`,
      `printf '${evil}\\n'; echo control-printed`,
      {
        answers: [
          { answer: answerWith('--- a/x\u001b[2J.py\n+++ b/x\u001b[2J.py\n@@ -1 +1 @@\n-a\n+b\n', prose) },
          { answer: `${prose}\n${SWITCH_ANSWER}` },
        ],
        maxIterations: 2,
      },
    );
    await attack(
      'escape sequences in test output and model answers',
      'none reach terminal, state or PR_SUMMARY.md raw',
      async () => {
        const stateText = await readFile(join(s.fx.repo.path, '.hammer', 'runs', `${out.runId}.json`), 'utf8');
        const raw = RAW_CONTROL;
        for (const [where, text] of Object.entries({
          state: stateText,
          summary: out.summary,
          stdout: out.result.stdout,
          stderr: out.result.stderr,
        })) {
          expect(raw.test(text), `${where} holds a raw escape or bidi character`).toBe(false);
        }
        // control: the output did arrive (sanitised), and the bidi mark is shown, not applied
        expect(out.state.baseline?.stdout_tail).toContain('RED');
        expect(out.state.baseline?.stdout_tail).toContain('<U+202E>');
        expect(out.state.iterations.at(-1)?.test?.stdout_tail).toContain('control-printed');
        expect(out.summary.length).toBeGreaterThan(0);
        await expectCanarySafe(s, out);
        return 'no ESC, BEL, C1 or bidi override in state/summary/terminal; text kept, marks shown as <U+202E>';
      },
    );
  });

  it('a test that prints "all tests passed" and exits non-zero is recorded as failed', async () => {
    const { s, out } = await attackRun(
      `echo "all tests passed"; echo "============ 3 passed in 0.01s ============"; echo OK; exit 1`,
      `echo "============ 1 passed in 0.01s ============"; exit 0`,
      { answers: [{ answer: 'NO_CHANGES' }, { answer: SWITCH_ANSWER }], maxIterations: 2 },
    );
    await attack('"all tests passed" printed, exit 1', 'recorded as failed (exit code decides)', async () => {
      expect(out.state.baseline?.exit_code).toBe(1);
      expect(out.state.iterations[0]?.outcome).toBe('no_changes');
      expect(out.state.reason).not.toBe('tests_pass_baseline');
      // control: the same script exiting 0 after the switch ends the run stable
      expect(out.state.iterations[1]?.outcome).toBe('applied');
      expect(out.state.iterations[1]?.test?.exit_code).toBe(0);
      expect(out.state.status).toBe('stable');
      expect(out.state.reason).toBe('tests_pass');
      await expectCanarySafe(s, out);
      return `baseline exit 1 recorded as failing; NO_CHANGES did not end the run; status ${out.state.status}`;
    });
  });
});
