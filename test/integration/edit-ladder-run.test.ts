// The apply ladder end to end through run(): a real sandbox, real git and a scripted model server.
// A drifted diff (no hunk line numbers, trailing spaces on its context) lands by relocation, and
// a SEARCH/REPLACE answer in a search-replace run lands too; the rung is in the state, the
// iteration's summary line and PR_SUMMARY.md, and the branch holds the fix.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/api/run.js';
import type { RunOutcome } from '../../src/loop/run-types.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { answerWith, createPythonFixture, type PythonFixture } from '../helpers/python-fixture.js';
import { modelFlags, promptText, testEnv } from './run-support.js';

/** The fix as local models write it: "@@ ... @@" instead of numbers, and trailing spaces on its context. */
const DRIFTED = `--- a/calc.py
+++ b/calc.py
@@ ... @@
     """Return the sum of items."""  
     result = 0 
     for item in items:
-        result -= item
+        result += item
     return result
`;

const SEARCH_REPLACE = `The loop subtracts.

calc.py
\`\`\`python
<<<<<<< SEARCH
        result -= item
=======
        result += item
>>>>>>> REPLACE
\`\`\`
`;

beforeAll(async () => {
  await toolchainImage('python');
});

describe('run: a drifted diff lands through the apply ladder', () => {
  let fx: PythonFixture;
  let server: ModelServer;
  let outcome: RunOutcome;

  beforeAll(async () => {
    fx = await createPythonFixture();
    server = await startModelServer({ script: [{ answer: answerWith(DRIFTED, 'Fix the sign:') }] });
    outcome = await run({ repo: fx.repo.path, directive: fx.directive, env: testEnv(), flags: modelFlags(server) });
  });
  afterAll(async () => {
    await server?.close();
    await fx?.cleanup();
  });

  it('applies it at rung 4 (relocated), records the rung and the rewritten patch, and the tests pass', async () => {
    expect(outcome.state.status).toBe('stable');
    const it1 = outcome.state.iterations[0]!;
    expect(it1.outcome).toBe('applied');
    expect(it1.patch?.rung).toBe('relocated');
    expect(it1.extraction?.fixes).toEqual([expect.stringMatching(/without line numbers/)]);
    expect(it1.summary).toBe('update calc.py (applied: hunks relocated by their context); tests pass');
    const applied = await readFile(join(outcome.state.artifacts_dir, it1.patch!.applied_artifact!), 'utf8');
    expect(applied).toMatch(
      /^diff --git a\/calc\.py b\/calc\.py\n--- a\/calc\.py\n\+\+\+ b\/calc\.py\n@@ -5,7 \+5,7 @@\n {5}"""Return the sum of items\."""\n {5}result = 0\n/,
    );
    const recorded = await readFile(join(outcome.state.artifacts_dir, it1.patch!.artifact), 'utf8');
    expect(recorded).toContain('@@ ... @@');
    const branch = outcome.state.branch!.name;
    const fixed = await fx.repo.git(['show', `refs/heads/${branch}:calc.py`]);
    expect(fixed).toContain('        result += item\n');
    expect(fixed).toContain('    """Return the sum of items."""\n    result = 0\n');
  });

  it('shows the rung in PR_SUMMARY.md', async () => {
    const md = await readFile(outcome.summaryPath!, 'utf8');
    expect(md).toContain('| 1 | applied | 4 relocated |');
    expect(md).toMatch(
      /iteration 1: update calc\.py \(applied: hunks relocated by their context\); tests pass \[rung 4: hunks relocated by their context, applied patch `iter-01\.applied\.patch`\]/,
    );
  });
});

describe('run: SEARCH/REPLACE blocks in a search-replace run', () => {
  let fx: PythonFixture;
  let server: ModelServer;
  let outcome: RunOutcome;

  beforeAll(async () => {
    fx = await createPythonFixture();
    server = await startModelServer({ script: [{ answer: SEARCH_REPLACE }] });
    const flags = modelFlags(server);
    outcome = await run({
      repo: fx.repo.path,
      directive: fx.directive,
      env: testEnv(),
      flags: { ...flags, model: { ...(flags.model as Record<string, unknown>), edit_format: 'search-replace' } },
    });
  });
  afterAll(async () => {
    await server?.close();
    await fx?.cleanup();
  });

  it('teaches the format, applies the block at rung 5 and records it', async () => {
    expect(promptText(server.chatRequests()[0])).toContain('<<<<<<< SEARCH');
    expect(outcome.state.status).toBe('stable');
    const it1 = outcome.state.iterations[0]!;
    expect(it1.patch?.rung).toBe('search_replace');
    expect(it1.patch?.files).toEqual([{ path: 'calc.py', status: 'modified' }]);
    const recorded = await readFile(join(outcome.state.artifacts_dir, it1.patch!.artifact), 'utf8');
    expect(recorded).toBe(
      'calc.py\n<<<<<<< SEARCH\n        result -= item\n=======\n        result += item\n>>>>>>> REPLACE\n',
    );
    expect(await fx.repo.git(['show', `refs/heads/${outcome.state.branch!.name}:calc.py`])).toContain(
      '        result += item\n',
    );
    expect(await readFile(outcome.summaryPath!, 'utf8')).toContain('| 1 | applied | 5 search_replace |');
  });
});
