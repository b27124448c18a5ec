// Edits that must never be applied, through the real binary (`node dist/cli/main.js run`) against
// a scripted OpenAI-compatible server, a real sandbox and real git: an answer the server cut off at
// the token limit (finish_reason "length") is not applied and the next prompt says so, and so is
// one whose <patch> block never closes from a server that sends no finish reason at all; a line
// already in the file is not inserted a second time; a change that breaks the file's syntax is
// skipped at every rung by the syntax gate, with the error and its lines in the feedback; then the
// fix lands. `runs show` and PR_SUMMARY.md say the answer was cut off and name [model]
// num_predict; `hammer-box replay` plays the cut-off answer back with the server's finish reason and
// refuses it again. With `[edits] syntax_gate = false` the syntax-breaking change is applied.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { answerWith, createPythonFixture, FIX_PATCH, type PythonFixture } from '../helpers/python-fixture.js';
import { promptText, readState, testEnv } from './run-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** The fix, cut off by the server in the middle of its added line (the fence never closes). */
const CUT_OFF = `Here is the change:\n\n\`\`\`diff\n${FIX_PATCH.slice(0, FIX_PATCH.indexOf('+        result += item') + 17)}`;

/** The whole fix in a <patch> block that never closes, as a server that sends no finish reason ends it. */
const UNCLOSED_PATCH_TAG = `The fix:\n\n<patch>\n${FIX_PATCH}`;

/** "result = 0" after the docstring, with no context after it: git would insert it a second time. */
const ALREADY_THERE = `--- a/calc.py
+++ b/calc.py
@@ -5,1 +5,2 @@
     """Return the sum of items."""
+    result = 0
`;

/** The loop's "+=" with an opening parenthesis never closed: a Python syntax error at line 8. */
const SYNTAX_BREAK = `--- a/calc.py
+++ b/calc.py
@@ -7,3 +7,3 @@ def total(items):
     for item in items:
-        result -= item
+        result += (item
     return result
`;

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      cwd: ROOT,
      env: testEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build it first with 'make build'.`);
  await toolchainImage('python');
});

describe('hammer-box run: answers that must not be applied', () => {
  let fx: PythonFixture;
  let server: ModelServer;
  let doc: { run_id: string; status: string; summary_path: string };

  beforeAll(async () => {
    fx = await createPythonFixture();
    server = await startModelServer({
      script: [
        { answer: CUT_OFF, doneReason: 'length' },
        { answer: UNCLOSED_PATCH_TAG, doneReason: null },
        { answer: answerWith(ALREADY_THERE) },
        { answer: answerWith(SYNTAX_BREAK) },
        { answer: answerWith(FIX_PATCH) },
      ],
    });
    const r = await cli([
      'run',
      '--repo',
      fx.repo.path,
      '--directive',
      fx.directive,
      '--provider',
      'openai',
      '--model',
      'test-model',
      '--llm-url',
      server.url,
      '--max-iterations',
      '6',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    doc = JSON.parse(r.stdout) as typeof doc;
  });
  afterAll(async () => {
    await server?.close();
    await fx?.cleanup();
  });

  it('applies nothing of the cut-off answer, records why, and says so plainly in the next prompt', async () => {
    const state = await readState(fx.repo.path, doc.run_id);
    const it1 = state.iterations[0]!;
    expect(it1.outcome).toBe('unusable');
    expect(it1.answer?.finish_reason).toBe('length');
    expect(it1.extraction?.cut_off).toEqual({
      by: 'server',
      where:
        'in hunk @@ -5,6 +5,6 @@ of calc.py (it has 4 of its 6 old lines) inside its ```diff block, which was never closed',
    });
    expect(it1.summary).toBe('cut off at the token limit, nothing applied: raise [model] num_predict (now 4096)');
    const next = promptText(server.chatRequests()[1]);
    expect(next).toContain('your answer was cut off at the token limit in hunk @@ -5,6 +5,6 @@ of calc.py');
    expect(next).toContain('nothing of it was applied. Send a smaller change');
  });

  it('takes a <patch> block that never closes, from a server that sends no finish reason, as cut off, and says so', async () => {
    const state = await readState(fx.repo.path, doc.run_id);
    const it2 = state.iterations[1]!;
    expect(it2.outcome).toBe('unusable');
    expect(it2.answer?.finish_reason).toBeUndefined();
    expect(it2.extraction?.cut_off).toEqual({
      by: 'text',
      where: 'in hunk @@ -5,6 +5,6 @@ of calc.py inside its <patch> block, which was never closed',
    });
    expect(it2.summary).toBe('cut off mid-edit, nothing applied: raise [model] num_predict (now 4096)');
    const next = promptText(server.chatRequests()[2]);
    expect(next).toContain(
      'your answer stops in hunk @@ -5,6 +5,6 @@ of calc.py inside its <patch> block, which was never closed, as if it was cut off at the token limit; nothing of it was applied. Send a smaller change',
    );
  });

  it('does not insert a line that is already there, and tells the model the hunk is already applied', async () => {
    const state = await readState(fx.repo.path, doc.run_id);
    const it3 = state.iterations[2]!;
    expect(it3.outcome).toBe('rejected');
    expect(it3.validation?.message).toMatch(
      /^calc\.py, hunk 1 \(@@ -5,1 \+5,2 @@\): it is already applied: its lines are in calc\.py at lines 5-6/,
    );
    expect(promptText(server.chatRequests()[3])).toContain('it is already applied');
    expect(doc.status).toBe('stable');
    const fixed = await fx.repo.git(['show', `refs/heads/${state.branch!.name}:calc.py`]);
    expect(fixed.match(/^ {4}result = 0$/gm)).toHaveLength(1);
    expect(fixed).toContain('        result += item\n');
  });

  it('skips a candidate that adds a syntax error at every rung, recording it, and shows the error in the next prompt', async () => {
    const state = await readState(fx.repo.path, doc.run_id);
    const it4 = state.iterations[3]!;
    expect(it4.outcome).toBe('rejected');
    expect(it4.syntax_gate?.on).toBe(true);
    expect(it4.syntax_gate?.files).toEqual(['calc.py']);
    expect(it4.syntax_gate?.skipped.map((s) => s.rung)).toEqual(['as_is', 'whitespace', 'relocated']);
    expect(it4.syntax_gate?.skipped[0]).toMatchObject({
      path: 'calc.py',
      line: 8,
      message: 'syntax error near "result += (item"',
    });
    const feedback = [
      'calc.py, the edit: every way it could be applied leaves a syntax error calc.py did not have, at line 8, column 9: syntax error near "result += (item". The lines around it would read:',
      '   6 |     result = 0',
      '   7 |     for item in items:',
      '>  8 |         result += (item',
      '   9 |     return result',
      '  10 | ',
    ].join('\n');
    expect(it4.validation?.message).toBe(feedback);
    expect(promptText(server.chatRequests()[4])).toContain(feedback.trimEnd());
    // the iteration after it applied the fix: the tree never held the broken line
    expect(state.iterations[4]!.outcome).toBe('applied');
  });

  it('says in runs show and PR_SUMMARY.md that the answer was cut off, naming [model] num_predict', async () => {
    const shown = await cli(['runs', 'show', doc.run_id, '--repo', fx.repo.path]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(
      / 1 {2}unusable {4}cut off at the token limit, nothing applied: raise \[model\] num_predict/,
    );
    expect(shown.stdout).toContain('cut off at the token limit after');
    // PR_SUMMARY.md holds it as inert markdown (`\[model\] num\_predict` renders as [model] num_predict)
    const md = await readFile(doc.summary_path, 'utf8');
    expect(md).toMatch(
      /- Iteration 1: answer cut off at the token limit after \d+ tokens \(in hunk @@ -5,6 \+5,6 @@ of calc\.py .*\), nothing applied; raise \\\[model\\\] num\\_predict/,
    );
  });

  it('replays the cut-off answer with the finish reason the server gave it, and refuses it again', async () => {
    const requestsBefore = server.requests.length;
    const r = await cli(['replay', doc.run_id, '--repo', fx.repo.path, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests.length).toBe(requestsBefore);
    const replayed = await readState(fx.repo.path, (JSON.parse(r.stdout) as { run_id: string }).run_id);
    const original = await readState(fx.repo.path, doc.run_id);
    expect(replayed.iterations.map((i) => i.outcome)).toEqual(original.iterations.map((i) => i.outcome));
    const it1 = replayed.iterations[0]!;
    expect(it1.answer?.finish_reason).toBe('length');
    expect(it1.extraction?.cut_off?.by).toBe('server');
    // the answer that came with no finish reason is played back with none, and refused again
    const it2 = replayed.iterations[1]!;
    expect(it2.answer?.finish_reason).toBeUndefined();
    expect(it2.extraction?.cut_off?.by).toBe('text');
  });
});

describe('hammer-box run with [edits] syntax_gate = false', () => {
  let fx: PythonFixture;
  let server: ModelServer;

  beforeAll(async () => {
    fx = await createPythonFixture();
    server = await startModelServer({ script: [{ answer: answerWith(SYNTAX_BREAK) }] });
  });
  afterAll(async () => {
    await server?.close();
    await fx?.cleanup();
  });

  it('applies the syntax-breaking change, and records that the gate was off', async () => {
    const config = join(dirname(fx.directive), 'no-gate.toml');
    await writeFile(config, '[edits]\nsyntax_gate = false\n');
    const r = await cli([
      'run',
      '--repo',
      fx.repo.path,
      '--directive',
      fx.directive,
      '--config',
      config,
      '--provider',
      'openai',
      '--model',
      'test-model',
      '--llm-url',
      server.url,
      '--max-iterations',
      '1',
      '--json',
    ]);
    const doc = JSON.parse(r.stdout) as { run_id: string };
    const it1 = (await readState(fx.repo.path, doc.run_id)).iterations[0]!;
    expect(it1.outcome).toBe('applied');
    expect(it1.syntax_gate).toEqual({ on: false, files: [], skipped: [] });
  });
});
