// How `hammer-box run` goes on and how it stops when the model's diffs are not a clean fix: a diff
// git rejects is fed back (git's message and the patch) and the next one lands; the same patch
// twice stops the run as a loop; answers that never fix the tests stop at the iteration limit.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/api/run.js';
import { printRunResult } from '../../src/cli/run-result.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer, type Script } from '../helpers/model-server.js';
import {
  answerWith,
  createPythonFixture,
  FIX_PATCH,
  NOOP_PATCH_A,
  NOOP_PATCH_B,
  UNPLACEABLE_PATCH,
  type PythonFixture,
} from '../helpers/python-fixture.js';
import { captureStdout, leftovers, modelFlags, promptText, refsOf, testEnv } from './run-support.js';

let fx: PythonFixture | undefined;
let server: ModelServer | undefined;

beforeAll(async () => {
  await toolchainImage('python');
});

afterEach(async () => {
  await server?.close();
  await fx?.cleanup();
  server = undefined;
  fx = undefined;
});

/** A fresh fixture and server, and one run against them. */
async function runWith(
  script: Script[],
  maxIterations = 3,
  git: Record<string, unknown> = {},
): Promise<{ fx: PythonFixture; server: ModelServer; outcome: Awaited<ReturnType<typeof run>> }> {
  fx = await createPythonFixture();
  server = await startModelServer({ script });
  const outcome = await run({
    repo: fx.repo.path,
    directive: fx.directive,
    env: testEnv(),
    flags: { ...modelFlags(server, { maxIterations }), git },
  });
  expect(await leftovers(outcome.state.run_id)).toEqual({ containers: [], volumes: [] });
  return { fx, server, outcome };
}

/** Subjects of the commits the delivered branch adds on top of main, oldest first. */
/** The iterations the branch's commits came from, oldest first (their Hammer-Box-Iteration trailers). */
async function branchCommits(f: PythonFixture, branch: string): Promise<string[]> {
  const out = await f.repo.git([
    'log',
    '--reverse',
    '--format=%(trailers:key=Hammer-Box-Iteration,valueonly,separator=)',
    `main..refs/heads/${branch}`,
  ]);
  return out.split('\n').filter(Boolean);
}

async function exitCode(outcome: Awaited<ReturnType<typeof run>>): Promise<number> {
  return (await captureStdout(() => printRunResult(outcome, false, 0))).result;
}

describe('run: the loop goes on and stops', () => {
  it("feeds the rejection of a diff no rung applies (git's message, the lines not found, the closest region) into the next prompt, and lands the next diff", async () => {
    const {
      fx: f,
      server: s,
      outcome,
    } = await runWith([{ answer: answerWith(UNPLACEABLE_PATCH) }, { answer: answerWith(FIX_PATCH) }]);
    expect(outcome.state.status).toBe('stable');
    expect(outcome.state.reason).toBe('tests_pass');
    const [first, second] = outcome.state.iterations;
    expect(first?.outcome).toBe('rejected');
    expect(first?.validation?.message).toContain('patch does not apply');
    expect(first?.apply).toBeNull();
    expect(second?.outcome).toBe('applied');

    const chats = s.chatRequests();
    expect(chats).toHaveLength(2);
    const [p1, p2] = [promptText(chats[0]), promptText(chats[1])];
    expect(p1).not.toContain('patch does not apply');
    expect(p2).toContain('patch does not apply');
    expect(p2).toContain('calc.py, hunk 1 (@@ -5,6 +5,6 @@): its lines (context and removed) were not found');
    expect(p2).toMatch(/These lines are not in calc\.py at all:\n {8}result = 1\n {12}result -= items/);
    expect(p2).toMatch(/The closest region of calc\.py \(lines \d+-\d+\) is:\n[^]* 8 \| {9}result -= item\n/);
    // the rejected patch itself, recognisable by its wrong lines
    expect(p1).not.toContain('     result = 1');
    expect(p2).toContain('     result = 1\n');
    expect(p2).toContain('-        result -= items\n+        result += item');

    const branch = outcome.state.branch?.name ?? '';
    expect(await branchCommits(f, branch)).toEqual(['2']);
    expect(await f.repo.git(['show', `refs/heads/${branch}:calc.py`])).toContain('result += item');
    expect(await exitCode(outcome)).toBe(0);
  });

  it('stops with duplicate_patch when the model repeats a patch that applied but fixed nothing', async () => {
    // the second answer is byte-identical: caught by its hash before git would refuse it as already applied
    const {
      fx: f,
      server: s,
      outcome,
    } = await runWith([
      { answer: answerWith(NOOP_PATCH_A) },
      { answer: answerWith(NOOP_PATCH_A) },
      { answer: answerWith(FIX_PATCH) },
    ]);
    expect(outcome.state.status).toBe('failed');
    expect(outcome.state.reason).toBe('duplicate_patch');
    expect(outcome.state.iterations.map((i) => i.outcome)).toEqual(['applied', 'duplicate']);
    expect(outcome.state.iterations[0]?.test?.exit_code).not.toBe(0);
    expect(outcome.state.iterations[1]?.patch?.hash).toBe(outcome.state.iterations[0]?.patch?.hash);
    expect(outcome.state.iterations[1]?.validation).toBeNull();
    expect(s.chatRequests()).toHaveLength(2);
    // the applied patch is still delivered, for the user to look at
    expect(await branchCommits(f, outcome.state.branch?.name ?? '')).toEqual(['1']);
    expect(await exitCode(outcome)).toBe(1);
  });

  it('stops at loop.max_iterations when no answer makes the tests pass, with exit code 1', async () => {
    const {
      fx: f,
      server: s,
      outcome,
    } = await runWith(
      [{ answer: answerWith(NOOP_PATCH_A) }, { answer: answerWith(NOOP_PATCH_B) }, { answer: answerWith(FIX_PATCH) }],
      2,
    );
    expect(outcome.state.status).toBe('failed');
    expect(outcome.state.reason).toBe('max_iterations');
    expect(outcome.state.iterations.map((i) => i.outcome)).toEqual(['applied', 'applied']);
    expect(outcome.state.iterations.every((i) => i.test !== null && i.test.exit_code !== 0)).toBe(true);
    // the third scripted answer (the fix) was never asked for
    expect(s.chatRequests()).toHaveLength(2);
    expect(await refsOf(f.repo)).toEqual([`refs/heads/${outcome.state.branch?.name ?? ''}`, 'refs/heads/main'].sort());
    expect(await branchCommits(f, outcome.state.branch?.name ?? '')).toEqual(['1', '2']);
    expect(await exitCode(outcome)).toBe(1);
  });

  it('makes no branch when no patch applied, and one at the base with git.keep_empty_branch', async () => {
    const unplaceable = [{ answer: answerWith(UNPLACEABLE_PATCH) }, { answer: answerWith(UNPLACEABLE_PATCH) }];
    const none = await runWith(unplaceable, 2);
    expect(none.outcome.state.iterations.map((i) => i.outcome)).not.toContain('applied');
    expect(none.outcome.state.branch).toBeNull();
    expect(none.outcome.state.phases.deliver).toMatchObject({ status: 'skipped', detail: 'no patch was applied' });
    expect(await refsOf(none.fx.repo)).toEqual(['refs/heads/main']);
    expect(await exitCode(none.outcome)).toBe(1);
    await server?.close();
    await fx?.cleanup();

    const kept = await runWith(unplaceable, 2, { keep_empty_branch: true });
    const branch = kept.outcome.state.branch;
    expect(branch?.commit).toBe(kept.outcome.state.repo.base_commit);
    expect(branch?.diffstat).toEqual([]);
    expect(await refsOf(kept.fx.repo)).toEqual([`refs/heads/${branch?.name ?? ''}`, 'refs/heads/main'].sort());
  });

  it('records the diffstat of the delivered branch against the base', async () => {
    const { outcome } = await runWith([{ answer: answerWith(FIX_PATCH) }]);
    expect(outcome.state.branch?.diffstat).toEqual([{ path: 'calc.py', added: 1, removed: 1 }]);
  });
});
