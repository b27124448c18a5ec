// Failing tests first, end to end (real engine, real pytest, a scripted model): after a failing run
// the next iteration runs the tests it named, the whole suite only when they pass, and only the
// whole suite decides that the run is stable; `tools.focus = false` always runs the whole suite.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/api/run.js';
import type { RunOutcome } from '../../src/loop/run-types.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import {
  answerWith,
  createPythonFixture,
  FIX_PATCH,
  NOOP_PATCH_A,
  type PythonFixture,
} from '../helpers/python-fixture.js';
import { leftovers, modelFlags, testEnv } from './run-support.js';

/** Passes on the buggy total() and fails once it is fixed: only the whole suite sees it. */
const TEST_GUARD = `from calc import total


def test_guard():
    assert total([1]) != 1
`;

const GUARD_PATCH = `diff --git a/test_guard.py b/test_guard.py
--- a/test_guard.py
+++ b/test_guard.py
@@ -3,3 +3,3 @@ from calc import total
 
 def test_guard():
-    assert total([1]) != 1
+    assert total([1]) == 1
`;

const SUITE = 'python3 -m pytest -q';
const FOCUSED = `${SUITE} test_calc.py::test_total test_calc.py::test_mean`;

beforeAll(async () => {
  await toolchainImage('python');
});

describe('run: failing tests first (pytest)', () => {
  let fx: PythonFixture;
  let server: ModelServer;
  let outcome: RunOutcome;

  beforeAll(async () => {
    fx = await createPythonFixture({ 'test_guard.py': TEST_GUARD });
    server = await startModelServer({
      script: [
        { answer: answerWith(NOOP_PATCH_A) },
        { answer: answerWith(FIX_PATCH) },
        { answer: answerWith(GUARD_PATCH) },
      ],
    });
    outcome = await run({
      repo: fx.repo.path,
      directive: fx.directive,
      env: testEnv(),
      flags: { ...modelFlags(server, { maxIterations: 4 }), tools: { test_command: SUITE } },
    });
  });

  afterAll(async () => {
    await server?.close();
    await fx?.cleanup();
  });

  it('the baseline runs the whole suite', () => {
    expect(outcome.state.baseline?.command).toBe(SUITE);
    expect(outcome.state.baseline?.scope).toBeUndefined();
    expect(outcome.state.baseline?.parsed?.failing.map((t) => t.id)).toEqual([
      'test_calc.py::test_total',
      'test_calc.py::test_mean',
    ]);
  });

  it('a patch that fixes nothing: only the failing tests ran, and their record says so', async () => {
    const it1 = outcome.state.iterations[0]!;
    expect(it1.outcome).toBe('applied');
    expect(it1.test?.command).toBe(FOCUSED);
    expect(it1.test?.scope).toBe('focused');
    expect(it1.test?.exit_code).toBe(1);
    expect(it1.test?.focus).toBeUndefined();
    expect(it1.summary).toContain('the failing tests, run first, fail');
    // the guard passed at baseline and was not run: pytest reports two tests, not three
    expect(it1.test?.stdout_tail).toMatch(/2 failed in/);
    const log = await readFile(
      join(fx.repo.path, '.hammer', 'runs', outcome.state.run_id, it1.test!.artifact!),
      'utf8',
    );
    expect(log).toContain(`$ ${FOCUSED}`);
    expect(log).not.toContain(`$ ${SUITE}\n`);
  });

  it('the focused tests pass, then the whole suite runs and decides (it fails: not stable yet)', () => {
    const it2 = outcome.state.iterations[1]!;
    expect(it2.test?.command).toBe(SUITE);
    expect(it2.test?.scope).toBeUndefined();
    expect(it2.test?.focus).toMatchObject({ command: FOCUSED, exit_code: 0, timed_out: false });
    expect(it2.test?.exit_code).toBe(1);
    expect(it2.test?.parsed?.failing.map((t) => t.id)).toEqual(['test_guard.py::test_guard']);
  });

  it('the next focus is the whole suite’s failure; the run is stable only when the whole suite passes', () => {
    const it3 = outcome.state.iterations[2]!;
    expect(it3.test?.focus?.command).toBe(`${SUITE} test_guard.py::test_guard`);
    expect(it3.test?.command).toBe(SUITE);
    expect(it3.test?.exit_code).toBe(0);
    expect(outcome.state.iterations).toHaveLength(3);
    expect(outcome.state.status).toBe('stable');
    expect(outcome.state.reason).toBe('tests_pass');
    expect(it3.phases.test?.duration_ms).toBeGreaterThanOrEqual(it3.test!.duration_ms);
  });

  it('leaves no container or volume behind', async () => {
    expect(await leftovers(outcome.state.run_id)).toEqual({ containers: [], volumes: [] });
  });
});

describe('run: tools.focus = false runs the whole suite every time', () => {
  let fx: PythonFixture;
  let server: ModelServer;
  let outcome: RunOutcome;

  beforeAll(async () => {
    fx = await createPythonFixture();
    server = await startModelServer({ script: [{ answer: answerWith(NOOP_PATCH_A) }] });
    outcome = await run({
      repo: fx.repo.path,
      directive: fx.directive,
      env: testEnv(),
      flags: { ...modelFlags(server, { maxIterations: 1 }), tools: { test_command: SUITE, focus: false } },
    });
  });

  afterAll(async () => {
    await server?.close();
    await fx?.cleanup();
  });

  it('the iteration after a failing baseline ran the whole suite', () => {
    const it1 = outcome.state.iterations[0]!;
    expect(it1.test?.command).toBe(SUITE);
    expect(it1.test?.scope).toBeUndefined();
    expect(it1.test?.focus).toBeUndefined();
    expect(outcome.state.status).toBe('failed');
  });
});
