// `hammer-box run` end to end on a Python fixture (real engine, real git, a real HTTP model server):
// a scripted fix reaches tests-pass over Ollama's and the OpenAI wire formats, the user's repo gains
// exactly one branch and nothing else, the run is recorded and replays without the model, and a
// local core.hooksPath in the user's repo never fires.
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/api/run.js';
import { prBody } from '../../src/api/runs.js';
import replayCommand from '../../src/cli/commands/replay.js';
import { printRunResult } from '../../src/cli/run-result.js';
import type { RunOutcome } from '../../src/loop/run-types.js';
import { ITERATION_PHASES } from '../../src/state/run-state.js';
import { diffSnapshots, snapshotRepo, type RepoSnapshot } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import {
  answerWith,
  ASSERTION_TEXT,
  BUGGY_CALC,
  createPythonFixture,
  DIRECTIVE,
  FIX_PATCH,
  type PythonFixture,
} from '../helpers/python-fixture.js';
import { captureStdout, leftovers, modelFlags, promptText, readState, refsOf, testEnv } from './run-support.js';

const BRANCH = /^EngineerExternal\/\d{8}T\d{6}Z-[a-z2-7]{6}(-\d+)?$/;

beforeAll(async () => {
  // built once (content-addressed) before any run resolves it
  await toolchainImage('python');
});

describe('run: a failing pytest test fixed by a scripted diff (Ollama NDJSON)', () => {
  let fx: PythonFixture;
  let server: ModelServer;
  let base: string;
  let before: RepoSnapshot;
  let after: RepoSnapshot;
  let outcome: RunOutcome;

  beforeAll(async () => {
    fx = await createPythonFixture();
    base = await fx.repo.head();
    // the user's own work in progress: an uncommitted edit, a staged file and an untracked file
    await fx.repo.write({ 'calc.py': `${BUGGY_CALC}# LOCAL-UNCOMMITTED-EDIT\n`, 'staged.txt': 'STAGED-WORK\n' });
    await fx.repo.git(['add', 'staged.txt']);
    await fx.repo.write({ 'notes.txt': 'UNTRACKED-NOTE\n' });
    before = await snapshotRepo(fx.repo.path);
    server = await startModelServer({
      script: [{ answer: answerWith(FIX_PATCH, 'The loop subtracts; it must add.') }],
    });
    outcome = await run({
      repo: fx.repo.path,
      directive: fx.directive,
      env: testEnv(),
      flags: modelFlags(server, { numCtx: 8192 }),
    });
    after = await snapshotRepo(fx.repo.path);
  });

  afterAll(async () => {
    await server?.close();
    await fx?.cleanup();
  });

  it('ends stable because the tests pass, and maps to exit code 0', async () => {
    expect(outcome.state.status).toBe('stable');
    expect(outcome.state.reason).toBe('tests_pass');
    const { result: code, stdout } = await captureStdout(() => printRunResult(outcome, false, 0));
    expect(code).toBe(0);
    expect(stdout).toContain(outcome.state.branch?.name ?? '(no branch)');
  });

  it('adds exactly one branch holding one commit per applied patch on top of base', async () => {
    const branch = outcome.state.branch?.name ?? '';
    expect(branch).toMatch(BRANCH);
    expect(await refsOf(fx.repo)).toEqual([`refs/heads/${branch}`, 'refs/heads/main'].sort());
    const commits = (await fx.repo.git(['rev-list', `${base}..refs/heads/${branch}`])).split('\n').filter(Boolean);
    expect(commits).toHaveLength(1);
    expect((await fx.repo.git(['rev-parse', `${commits[0]}^`])).trim()).toBe(base);
    // the directive's title is the subject; the run, model and iteration are trailers
    expect((await fx.repo.git(['log', '-1', '--format=%s', commits[0]!])).trim()).toBe(
      'Total() in calc.py returns the wrong sum. Fix it so that every test in',
    );
    expect(await fx.repo.git(['log', '-1', '--format=%(trailers:only,unfold)', commits[0]!])).toContain(
      `Hammer-Box-Run: ${outcome.state.run_id}\nHammer-Box-Model: ollama:test-model\nHammer-Box-Iteration: 1`,
    );
    expect(commits[0]).toBe(outcome.state.branch?.commit);
    const fixed = await fx.repo.git(['show', `${commits[0]}:calc.py`]);
    expect(fixed).toContain('result += item');
    expect(fixed).not.toContain('LOCAL-UNCOMMITTED-EDIT');
  });

  it('leaves main, HEAD, the index and the working tree untouched (only the new ref and .hammer differ)', async () => {
    const branch = outcome.state.branch?.name ?? '';
    const d = diffSnapshots(before, after);
    expect(d.removed).toEqual([]);
    expect(d.changed).toEqual([]);
    const unexpected = d.added.filter(
      (p) => p !== '.hammer' && !p.startsWith('.hammer/') && !`.git/refs/heads/${branch}`.startsWith(p),
    );
    expect(unexpected).toEqual([]);
    expect(d.added).toContain(`.git/refs/heads/${branch}`);
    expect((await fx.repo.git(['rev-parse', 'main'])).trim()).toBe(base);
    expect((await fx.repo.git(['symbolic-ref', 'HEAD'])).trim()).toBe('refs/heads/main');
    expect(await readFile(join(fx.repo.path, 'calc.py'), 'utf8')).toContain('LOCAL-UNCOMMITTED-EDIT');
    expect(await fx.repo.git(['diff', '--cached', '--name-only'])).toBe('staged.txt\n');
  });

  it('writes a valid state file with the baseline and every phase of the iteration done, and PR_SUMMARY.md', async () => {
    const id = outcome.state.run_id;
    expect(outcome.statePath).toBe(join(fx.repo.path, '.hammer', 'runs', `${id}.json`));
    const state = await readState(fx.repo.path, id);
    expect(state.status).toBe('stable');
    expect(state.baseline?.exit_code).not.toBe(0);
    expect(state.baseline?.stdout_tail).toContain(ASSERTION_TEXT);
    expect(state.iterations).toHaveLength(1);
    const it1 = state.iterations[0]!;
    expect(it1.outcome).toBe('applied');
    expect(it1.test?.exit_code).toBe(0);
    for (const phase of ITERATION_PHASES) expect(it1.phases[phase]?.status, phase).toBe('done');
    for (const phase of ['prepare', 'baseline', 'deliver'] as const)
      expect(state.phases[phase]?.status, phase).toBe('done');
    expect(state.branch).toEqual(outcome.state.branch);

    expect(outcome.summaryPath).toBe(join(fx.repo.path, '.hammer', 'runs', id, 'PR_SUMMARY.md'));
    const summary = await readFile(outcome.summaryPath!, 'utf8');
    expect(summary).toContain(state.branch!.name);
  });

  it('writes PR_SUMMARY.md as a PR body: title, tests before and after, diffstat, explanation, no local path or runner line', async () => {
    const summary = await readFile(outcome.summaryPath!, 'utf8');
    const title = summary.split('\n')[0]!;
    expect(title).toBe(
      '# Total() in calc.py returns the wrong sum. Fix it so that every test in test_calc.py passes; do not change the tests',
    );
    expect(title.length).toBeLessThanOrEqual(2 + 256);
    expect(summary).toContain('**Tests: failing before, passing now**');
    expect(summary).toContain('```text\n calc.py | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n```');
    expect(summary).toContain("The model's explanation:\n\n> The loop subtracts; it must add.");
    expect(summary).toContain('| 1 | applied |');
    expect(summary).not.toContain(fx.repo.path);
    expect(summary).not.toContain(fx.directive);
    expect(summary).not.toContain('hammer-runner');
    expect(summary).not.toMatch(/HAMMER_(STAGE|RESULT)/);
    // runs show --pr-body prints the same body, without the title line
    const body = await prBody({ repo: fx.repo.path, runId: outcome.state.run_id, env: testEnv() });
    expect(`${title}\n\n${body}`).toBe(summary);
  });

  it('asked the model with num_ctx and temperature set, showing the directive, the failing test and the buggy file', () => {
    const chats = server.chatRequests();
    expect(chats).toHaveLength(1);
    expect(chats[0]!.path).toBe('/api/chat');
    const body = chats[0]!.body as { options?: Record<string, unknown>; stream?: unknown };
    expect(body.stream).toBe(true);
    expect(body.options?.num_ctx).toBe(8192);
    expect(body.options?.temperature).toBe(0);
    const prompt = promptText(chats[0]);
    expect(prompt).toContain(DIRECTIVE.trim());
    expect(prompt).toContain(ASSERTION_TEXT);
    // the buggy file is shown whole, though the function at fault may be shown apart (as code in focus)
    for (const line of BUGGY_CALC.split('\n').filter((l) => l.trim() !== '')) expect(prompt).toContain(line);
    // uncommitted and untracked work never reaches the model
    expect(prompt).not.toContain('LOCAL-UNCOMMITTED-EDIT');
    expect(prompt).not.toContain('UNTRACKED-NOTE');
    expect(prompt).not.toContain('STAGED-WORK');
  });

  it('leaves no container or volume of the run on the engine', async () => {
    expect(outcome.state.sandbox?.container_id).toBeTruthy();
    expect(await leftovers(outcome.state.run_id)).toEqual({ containers: [], volumes: [] });
  });

  it('replays the run from its recorded answers with the same outcome and no model request', async () => {
    const requestsBefore = server.requests.length;
    // the command installs Ctrl-C handlers in this process; take them away again after it
    const signalsBefore = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    const { result: code, stdout } = await captureStdout(() =>
      replayCommand({ runId: outcome.state.run_id, repo: fx.repo.path, json: true }),
    ).finally(() => {
      for (const sig of ['SIGINT', 'SIGTERM'] as const) {
        for (const l of process.listeners(sig)) if (!signalsBefore[sig].includes(l)) process.off(sig, l);
      }
    });
    expect(code).toBe(0);
    const doc = JSON.parse(stdout) as {
      run_id: string;
      status: string;
      reason: string;
      branch: string;
      patches: unknown[];
    };
    expect(server.requests.length).toBe(requestsBefore);
    expect(doc.run_id).not.toBe(outcome.state.run_id);
    expect(doc.status).toBe('stable');
    expect(doc.reason).toBe('tests_pass');
    expect(doc.patches).toHaveLength(1);
    expect(doc.branch).toMatch(BRANCH);
    expect(doc.branch).not.toBe(outcome.state.branch?.name);
    const replayed = await readState(fx.repo.path, doc.run_id);
    expect(replayed.model.provider).toBe('replay');
    expect(replayed.iterations.map((i) => i.patch?.hash)).toEqual(outcome.state.iterations.map((i) => i.patch?.hash));
    expect(replayed.image?.id).toBe(outcome.state.image?.id);
    const tree = (ref: string): Promise<string> => fx.repo.git(['rev-parse', `refs/heads/${ref}^{tree}`]);
    expect(await tree(doc.branch)).toBe(await tree(outcome.state.branch!.name));
  });
});

describe('run: the OpenAI-compatible SSE path', () => {
  let fx: PythonFixture;
  let server: ModelServer;

  beforeAll(async () => {
    fx = await createPythonFixture();
    server = await startModelServer({ script: [{ answer: answerWith(FIX_PATCH), chunkSize: 7 }] });
  });

  afterAll(async () => {
    await server?.close();
    await fx?.cleanup();
  });

  it('reaches tests-pass over /v1/chat/completions, sending the API key from the environment', async () => {
    const outcome = await run({
      repo: fx.repo.path,
      directive: fx.directive,
      env: testEnv({ OPENAI_API_KEY: 'sk-hammer-test' }),
      flags: modelFlags(server, { provider: 'openai' }),
    });
    expect(outcome.state.status).toBe('stable');
    expect(outcome.state.reason).toBe('tests_pass');
    expect(outcome.state.model.provider).toBe('openai');
    const chats = server.chatRequests();
    expect(chats).toHaveLength(1);
    expect(chats[0]!.path).toBe('/v1/chat/completions');
    expect(chats[0]!.headers.authorization).toBe('Bearer sk-hammer-test');
    expect((chats[0]!.body as { stream?: unknown }).stream).toBe(true);
    expect(promptText(chats[0])).toContain(ASSERTION_TEXT);
    const branch = outcome.state.branch?.name ?? '';
    expect(await fx.repo.git(['show', `refs/heads/${branch}:calc.py`])).toContain('result += item');
  });
});

const HOOKS = [
  'pre-commit',
  'commit-msg',
  'post-commit',
  'reference-transaction',
  'post-checkout',
  'post-index-change',
  'pre-auto-gc',
  'post-rewrite',
];

describe('run: a user repo with a local core.hooksPath and hooks in .git/hooks', () => {
  let fx: PythonFixture;
  let server: ModelServer;
  let canaryDir: string;
  let canary: string;

  beforeAll(async () => {
    canaryDir = await mkdtemp(join(tmpdir(), 'hb-canary-'));
    canary = join(canaryDir, 'fired');
    const hook = (where: string, name: string): { content: string; executable: boolean } => ({
      content: `#!/bin/sh\necho "${where}/${name}" >> '${canary}'\n`,
      executable: true,
    });
    fx = await createPythonFixture(Object.fromEntries(HOOKS.map((h) => [`.githooks/${h}`, hook('hooksPath', h)])));
    // set after the fixture's own commits, like a repo whose developer installed the hooks later
    await fx.repo.git(['config', 'core.hooksPath', '.githooks']);
    await fx.repo.write(Object.fromEntries(HOOKS.map((h) => [`.git/hooks/${h}`, hook('git-dir', h)])));
    server = await startModelServer({ script: [{ answer: answerWith(FIX_PATCH) }] });
  });

  afterAll(async () => {
    await server?.close();
    await fx?.cleanup();
    await rm(canaryDir, { recursive: true, force: true });
  });

  it('delivers the branch without running any hook, while the same hooks fire on a plain git commit', async () => {
    await expect(access(canary)).rejects.toThrow();
    const outcome = await run({
      repo: fx.repo.path,
      directive: fx.directive,
      env: testEnv(),
      flags: modelFlags(server),
    });
    expect(outcome.state.status).toBe('stable');
    expect(outcome.state.branch?.name).toMatch(BRANCH);
    await expect(access(canary)).rejects.toThrow();

    // control: the user's own commit in the same repo runs the core.hooksPath hooks ...
    await writeFile(join(fx.repo.path, 'CHANGELOG.md'), 'control commit\n');
    await fx.repo.git(['add', 'CHANGELOG.md']);
    await fx.repo.git(['commit', '--quiet', '-m', 'control']);
    const fired = await readFile(canary, 'utf8');
    expect(fired).toContain('hooksPath/post-commit');
    expect(fired).toContain('hooksPath/reference-transaction');
    // ... and without core.hooksPath, the ones in .git/hooks
    await fx.repo.git(['config', '--unset', 'core.hooksPath']);
    await fx.repo.git(['commit', '--quiet', '--allow-empty', '-m', 'control 2']);
    expect(await readFile(canary, 'utf8')).toContain('git-dir/post-commit');
  });
});
