// How a run's outcome says what happened (real engine, real git, a scripted model server): a patch
// that fixes one of the two failing tests a directive targets ends `partial` (not stable: its own
// exit code through the CLI, a risk line that is not "pass", a draft pull request through `run --pr`,
// a monitor badge that is not green), after the loop went on working on what remained; a repository
// with no tests ends `untested` on the first applied patch (pytest's exit 5), the file delivered and
// no more model calls; a baseline failure that passes on a rerun is marked flaky, not a target.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/api/run.js';
import { RunSources } from '../../src/api/run-sources.js';
import { printRunResult } from '../../src/cli/run-result.js';
import { writeBundle } from '../../src/monitor/bundle.js';
import { createFixtureRepo, fixtureGitEnv, tempDir, type FixtureRepo } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { answerWith, BUGGY_CALC, FIX_PATCH } from '../helpers/python-fixture.js';
import { captureStdout, leftovers, modelFlags, promptText, readState, testEnv } from './run-support.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A fake gh: records its argv (one JSON line each); lists no open pull request and prints the created one's URL. */
const FAKE_GH = `#!${process.execPath}
const fs = require('node:fs');
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  fs.appendFileSync(process.env.FAKE_FORGE_LOG, JSON.stringify(process.argv.slice(2)) + '\\n');
  // no pull request is open for the branch yet; creating one prints its URL
  if (process.argv[2] === 'pr' && process.argv[3] === 'list') process.stdout.write('[]\\n');
  if (process.argv[2] === 'pr' && process.argv[3] === 'create') process.stdout.write('https://github.com/acme/calc/pull/3\\n');
});
`;

const CALC_JS = `// Sums.
function sum(items) {
  let s = 0;
  for (const item of items) s -= item;
  return s;
}

function total(items) {
  return sum(items);
}

module.exports = { sum, total };
`;

const CALC_TEST_JS = `const test = require('node:test');
const assert = require('node:assert');
const { total } = require('../src/calc');

test('total adds the items', () => {
  assert.strictEqual(total([1, 2, 3]), 6);
});

test('total keeps the sign of negative items', () => {
  assert.strictEqual(total([-1, -2]), -3);
});

test('total of nothing is zero', () => {
  assert.strictEqual(total([]), 0);
});
`;

/** Makes 'total adds the items' pass, and leaves 'total keeps the sign of negative items' failing. */
const ABS_PATCH = `diff --git a/src/calc.js b/src/calc.js
--- a/src/calc.js
+++ b/src/calc.js
@@ -7,5 +7,5 @@ function sum(items) {
 
 function total(items) {
-  return sum(items);
+  return Math.abs(sum(items));
 }
 
`;

/** A comment: applies after ABS_PATCH and fixes nothing more. */
const COMMENT_PATCH = `diff --git a/src/calc.js b/src/calc.js
--- a/src/calc.js
+++ b/src/calc.js
@@ -1,2 +1,2 @@
-// Sums.
+// Sums of lists of numbers.
 function sum(items) {
`;

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env, stdio: 'pipe' });
    child.stdin.end('');
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('a partial fix through the CLI: run --pr --json on a Node repository', () => {
  let dir: string;
  let repo: FixtureRepo;
  let server: ModelServer;
  let result: CliResult;
  let doc: Record<string, unknown>;
  let gh: string[][];

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build it first with 'make build'`);
    await toolchainImage('node');
    dir = await tempDir('hb-outcomes-');
    const bin = join(dir, 'bin');
    await mkdir(bin);
    for (const tool of ['git', 'perl']) {
      const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      if (found) await symlink(found, join(bin, tool));
    }
    await writeFile(join(bin, 'gh'), FAKE_GH);
    await chmod(join(bin, 'gh'), 0o755);
    const bare = join(dir, 'calc.git');
    spawnSync('git', ['init', '--bare', '-q', bare], { env: fixtureGitEnv() });
    repo = await createFixtureRepo({
      files: {
        'package.json':
          '{ "name": "calc", "version": "1.0.0", "private": true, "scripts": { "test": "node --test" } }\n',
        'src/calc.js': CALC_JS,
        'test/calc.test.js': CALC_TEST_JS,
      },
    });
    await repo.git(['remote', 'add', 'origin', bare]);
    const directive = join(dir, 'directive.md');
    await writeFile(directive, 'Make all tests in test/calc.test.js pass.\n');
    server = await startModelServer({
      script: [{ answer: answerWith(ABS_PATCH) }, { answer: answerWith(COMMENT_PATCH) }],
    });
    const log = join(dir, 'gh.log');
    result = await cli(
      [
        'run',
        '--repo',
        repo.path,
        '--directive',
        directive,
        '--model',
        'test-model',
        '--llm-url',
        server.url,
        '--max-iterations',
        '2',
        '--pr',
        '--forge',
        'github',
        '--forge-repo',
        'acme/calc',
        '--json',
      ],
      testEnv({ PATH: bin, FAKE_FORGE_LOG: log, GH_TOKEN: 'gho_test' }),
    );
    doc = JSON.parse(result.stdout) as Record<string, unknown>;
    gh = (await readFile(log, 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as string[]);
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    await repo?.cleanup();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('ends partial with its own exit code, after the loop went on working on the test that still fails', async () => {
    expect(result.code, result.stderr).toBe(4);
    expect(doc['status']).toBe('partial');
    expect(doc['reason']).toBe('max_iterations');
    expect(server.chatRequests()).toHaveLength(2);
    const state = await readState(repo.path, String(doc['run_id']));
    expect(state.status).toBe('partial');
    expect(state.iterations.map((it) => it.outcome)).toEqual(['applied', 'applied']);
    expect(state.iterations.at(-1)?.test?.exit_code).not.toBe(0);
    // the second prompt says which targeted test still fails
    expect(promptText(server.chatRequests()[1])).toContain('total keeps the sign of negative items');
  });

  it('says partial in PR_SUMMARY.md: the risk line is not pass, the title is WIP', async () => {
    const summary = await readFile(String(doc['summary_path']), 'utf8');
    expect(summary).toMatch(/\*\*Risk: partial\*\* - 1 of the 2 targeted tests/);
    expect(summary).not.toContain('Risk: pass');
    expect(summary).toContain('total keeps the sign of negative items');
    expect(String(doc['pr_title'])).toMatch(/^WIP: /);
  });

  it('opens a draft pull request', () => {
    expect(doc['pull_request']).toMatchObject({
      draft: true,
      pull_request: { url: 'https://github.com/acme/calc/pull/3' },
    });
    const create = gh.find((argv) => argv[0] === 'pr' && argv[1] === 'create');
    expect(create).toContain('--draft');
  });

  it("shows a badge that is not green on the monitor's run page and list", async () => {
    const out = join(dir, 'bundle');
    const sources = await RunSources.open({ repo: repo.path, env: testEnv() });
    const report = await writeBundle({ sources, out });
    const list = await readFile(report.index, 'utf8');
    expect(list).toMatch(/<span class="badge o-partial c-orange"[^>]*>partial<\/span/);
    expect(list).not.toMatch(/class="badge o-stable/);
    const page = await readFile(join(out, 'runs', `0-${String(doc['run_id'])}`, 'index.html'), 'utf8');
    expect(page).toMatch(/<span class="badge o-partial c-orange" title="1 of the 2 targeted tests[^>]*>partial<\/span/);
  });
});

describe('a repository with no tests (pytest exit 5)', () => {
  const GREET = 'def greet(name):\n    return "Hello, " + name\n';
  const SHOUT_PATCH = `diff --git a/greet.py b/greet.py
--- a/greet.py
+++ b/greet.py
@@ -1,2 +1,6 @@
 def greet(name):
     return "Hello, " + name
+
+
+def shout(name):
+    return greet(name).upper() + "!"
`;
  let repo: FixtureRepo;
  let server: ModelServer;
  let dir: string;
  let outcome: Awaited<ReturnType<typeof run>>;

  beforeAll(async () => {
    await toolchainImage('python');
    repo = await createFixtureRepo({ files: { 'greet.py': GREET, 'README.md': '# greet\n' } });
    dir = await tempDir('hb-untested-');
    const directive = join(dir, 'directive.md');
    await writeFile(directive, 'Add shout(name) to greet.py: the greeting in capitals with "!" after it.\n');
    // more answers than the run should ask for: the run must stop after the first applied patch
    server = await startModelServer({
      script: [{ answer: answerWith(SHOUT_PATCH) }, { answer: 'NO_CHANGES' }, { answer: 'NO_CHANGES' }],
    });
    outcome = await run({
      repo: repo.path,
      directive,
      env: testEnv(),
      flags: modelFlags(server, { maxIterations: 4 }),
    });
    expect(await leftovers(outcome.state.run_id)).toEqual({ containers: [], volumes: [] });
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    await repo?.cleanup();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('ends untested after the first applied patch, with no more model calls', () => {
    expect(outcome.state.baseline?.exit_code).toBe(5);
    expect(outcome.state.baseline?.parsed?.no_tests).toBe(true);
    expect(outcome.state.status).toBe('untested');
    expect(outcome.state.reason).toBe('no_tests');
    expect(outcome.state.iterations.map((it) => it.outcome)).toEqual(['applied']);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('delivers the file on the branch', async () => {
    const branch = outcome.state.branch?.name ?? '';
    expect(await repo.git(['show', `refs/heads/${branch}:greet.py`])).toContain('def shout(name):');
  });

  it('says so: its own exit code, the summary line, and the risk line', async () => {
    const { result: code, stdout } = await captureStdout(() => printRunResult(outcome, false, 0));
    expect(code).toBe(5);
    expect(stdout).toMatch(/^hammer-box: untested: /);
    const summary = await readFile(outcome.summaryPath ?? '', 'utf8');
    expect(summary).toMatch(/\*\*Risk: untested\*\* - the repository has no tests to run/);
  });
});

describe('a baseline failure that passes on a rerun', () => {
  // fails on the first run in a fresh tree, passes on the next (the count is kept beside the test)
  const FLAKY_TEST = `from pathlib import Path

RUNS = Path(__file__).with_name(".flaky-runs")


def test_sometimes():
    runs = int(RUNS.read_text()) if RUNS.exists() else 0
    RUNS.write_text(str(runs + 1))
    assert runs % 2 == 1, "fails on every other run"
`;
  const TEST_CALC = 'from calc import total\n\n\ndef test_total():\n    assert total([1, 2, 3]) == 6\n';
  let repo: FixtureRepo;
  let server: ModelServer;
  let dir: string;
  let outcome: Awaited<ReturnType<typeof run>>;

  beforeAll(async () => {
    await toolchainImage('python');
    repo = await createFixtureRepo({
      files: { 'calc.py': BUGGY_CALC, 'test_calc.py': TEST_CALC, 'test_flaky.py': FLAKY_TEST },
    });
    dir = await tempDir('hb-flaky-');
    const directive = join(dir, 'directive.md');
    await writeFile(directive, 'total() in calc.py returns the wrong sum. Fix it.\n');
    server = await startModelServer({ script: [{ answer: answerWith(FIX_PATCH) }] });
    // the whole suite every time, so the last test run fails the flaky test again
    outcome = await run({
      repo: repo.path,
      directive,
      env: testEnv(),
      flags: { ...modelFlags(server, { maxIterations: 2 }), tools: { focus: false } },
    });
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    await repo?.cleanup();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reruns the baseline failures and records the rerun', () => {
    const failing = (outcome.state.baseline?.parsed?.failing ?? []).map((t) => t.id).sort();
    expect(failing).toEqual(['test_calc.py::test_total', 'test_flaky.py::test_sometimes']);
    const rerun = outcome.state.baseline_rerun;
    expect(rerun?.parsed?.failing.map((t) => t.id)).toEqual(['test_calc.py::test_total']);
  });

  it('does not hold the run to the flaky test: it ends stable though the flaky test failed again', () => {
    expect(outcome.state.iterations.at(-1)?.test?.parsed?.failing.map((t) => t.id)).toEqual([
      'test_flaky.py::test_sometimes',
    ]);
    expect(outcome.state.status).toBe('stable');
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('says the test is flaky in the prompt, the terminal summary and PR_SUMMARY.md', async () => {
    expect(promptText(server.chatRequests()[0])).toMatch(
      /test_flaky\.py::test_sometimes[^\n]*flaky|flaky[^\n]*test_flaky\.py::test_sometimes/,
    );
    const { stdout } = await captureStdout(() => printRunResult(outcome, false, 0));
    expect(stdout).toMatch(/flaky\s+test_flaky\.py::test_sometimes/);
    const summary = await readFile(outcome.summaryPath ?? '', 'utf8');
    expect(summary).toContain('Flaky at baseline');
    expect(summary).toContain('test_flaky.py::test_sometimes');
  });
});
