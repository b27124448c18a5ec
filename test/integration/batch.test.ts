// `hammer-box batch` through the real CLI, the real engine, real git and the scripted model server:
// one batch of fixture tasks ending in every status it can produce cheaply (stable, tests_fail,
// no_patch, budget_exhausted, setup_failed, model_error, infra_error, timeout; a task fetched over
// git's HTTP protocol; one in agent mode; one with two attempts), then --resume, --retry infra,
// compare, and a Ctrl-C.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/batch/report-schema.js';
import { showRun } from '../../src/api/runs.js';
import { fixtureGitEnv, tempDir } from '../helpers/fixture-repo.js';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, trajectoryScript, type ModelServer, type Script } from '../helpers/model-server.js';
import {
  answerWith,
  createPythonFixture,
  FIX_PATCH,
  NOOP_PATCH_A,
  NOOP_PATCH_B,
  type PythonFixture,
} from '../helpers/python-fixture.js';
import { leftovers, refsOf, testEnv } from './run-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: NodeJS.ProcessEnv = testEnv()): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env, stdio: 'pipe' });
    child.stdin.end();
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The answer for a prompt, by the task tag its directive carries; per-tag answers go round. */
function router(hang: { on: boolean }) {
  const turns = new Map<string, number>();
  const answers: Record<string, Script[]> = {
    fix: [{ answer: answerWith(FIX_PATCH) }],
    remote: [{ answer: answerWith(FIX_PATCH) }],
    flaky: [{ answer: answerWith(FIX_PATCH) }],
    exhaust: [{ answer: answerWith(NOOP_PATCH_A) }, { answer: answerWith(NOOP_PATCH_B) }],
    dup: [{ answer: answerWith(NOOP_PATCH_A) }],
    nopatch: [{ answer: 'I see nothing to change here.' }],
    pass2: [{ answer: answerWith(FIX_PATCH) }, { answer: answerWith(NOOP_PATCH_A) }],
    slow: [{ hang: true }],
    agent: trajectoryScript(
      [
        { edit: { command: 'str_replace', path: 'calc.py', old_str: 'result -= item', new_str: 'result += item' } },
        { submit: true },
      ],
      'native',
    ),
  };
  return (prompt: string): Script | undefined => {
    const tag = /\[task:([a-z0-9]+)\]/.exec(prompt)?.[1];
    if (!tag) return undefined;
    if (tag === 'hang') return hang.on ? { hang: true } : { answer: answerWith(FIX_PATCH) };
    const list = answers[tag];
    if (!list) return undefined;
    const n = turns.get(tag) ?? 0;
    turns.set(tag, n + 1);
    return list[n % list.length];
  };
}

const task = (id: string, fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  id,
  repo: 'repo',
  commit: 'main',
  directive: `[task:${id}] total() in calc.py returns the wrong sum. Fix it so that every test in test_calc.py passes.`,
  ...fields,
});

async function readReport(dir: string): Promise<Report> {
  return ReportSchema.parse(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')));
}

/** Every run id of the batch's attempts (from their repositories' state directories). */
async function runIdsOf(out: string): Promise<string[]> {
  const ids: string[] = [];
  for (const t of await readdir(join(out, 'tasks')))
    for (const a of await readdir(join(out, 'tasks', t))) {
      const runs = await readdir(join(out, 'tasks', t, a, 'repo', '.hammer', 'runs')).catch(() => [] as string[]);
      ids.push(...runs.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5)));
    }
  return ids;
}

async function expectNothingLeft(out: string): Promise<void> {
  for (const id of await runIdsOf(out)) expect(await leftovers(id), id).toEqual({ containers: [], volumes: [] });
}

describe('hammer-box batch', () => {
  let fx: PythonFixture;
  let server: ModelServer;
  let gitServer: GitHttpServer;
  let work: string;
  let out: string;
  let modelArgs: string[];
  const hang = { on: true };
  let refsBefore: string[];

  beforeAll(async () => {
    await toolchainImage('python');
    fx = await createPythonFixture();
    refsBefore = await refsOf(fx.repo);
    server = await startModelServer({ script: [], route: router(hang) });
    work = await tempDir('hb-batch-');
    out = join(work, 'out');
    // the fixture served over HTTP, as a bare repository
    const served = join(work, 'served');
    await mkdir(served);
    await new Promise<void>((resolve, reject) => {
      const c = spawn('git', ['clone', '--quiet', '--bare', fx.repo.path, join(served, 'calc.git')], {
        env: fixtureGitEnv(),
      });
      c.once('error', reject).once('close', (code) => (code === 0 ? resolve() : reject(new Error(`clone ${code}`))));
    });
    gitServer = await startGitHttpServer(served);
    // tasks name the repository relative to the tasks file
    await symlink(fx.repo.path, join(work, 'repo'));
    const head = await fx.repo.head();
    const flakyTest = 'if [ -n "$BATCH_FLAKY" ]; then kill -KILL -1; sleep 5; fi; python3 -m pytest -q';
    const tasks = [
      // the sandbox's time zone and hash seed are pinned
      task('fix', { test_command: 'test "$TZ" = UTC && test "$PYTHONHASHSEED" = 0 && python3 -m pytest -q' }),
      task('remote', { repo: `${gitServer.url}/calc.git`, commit: head }),
      task('agent', { mode: 'agent' }),
      task('exhaust', { max_iterations: 2 }),
      task('dup', { max_iterations: 3 }),
      task('nopatch', { max_iterations: 1 }),
      task('badcommit', { commit: '0'.repeat(40) }),
      task('nomodel', { model: 'no-such-model' }),
      task('flaky', { test_command: flakyTest }),
      task('slow', { timeout: 4 }),
      task('pass2', { max_iterations: 1, attempts: 2 }),
    ];
    await writeFile(join(work, 'tasks.jsonl'), `${tasks.map((t) => JSON.stringify(t)).join('\n')}\n`);
    await writeFile(join(work, 'flaky.toml'), '[model]\nretries = 0\n\n[sandbox]\nenv = { BATCH_FLAKY = "1" }\n');
    await writeFile(join(work, 'steady.toml'), '[model]\nretries = 0\n');
    modelArgs = ['--provider', 'ollama', '--model', 'test-model', '--llm-url', server.url];
  });

  afterAll(async () => {
    await server?.close();
    await gitServer?.close();
    await fx?.cleanup();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('runs every task to a status of its own, writes the report, and leaves nothing behind', async () => {
    const r = await cli([
      'batch',
      join(work, 'tasks.jsonl'),
      '--out',
      out,
      '--jobs',
      '3',
      '--config',
      join(work, 'flaky.toml'),
      ...modelArgs,
    ]);
    // infra_error and model_error are no verdict on their tasks: exit 1
    expect(r.code, r.stderr.slice(-3000)).toBe(1);
    const report = await readReport(out);
    const status = Object.fromEntries(report.tasks.map((t) => [t.id, t.status]));
    expect(status).toEqual({
      fix: 'stable',
      remote: 'stable',
      agent: 'stable',
      exhaust: 'budget_exhausted',
      dup: 'tests_fail',
      nopatch: 'no_patch',
      badcommit: 'setup_failed',
      nomodel: 'model_error',
      flaky: 'infra_error',
      slow: 'timeout',
      pass2: 'stable',
    });
    expect(report.state).toBe('finished');
    expect(report.ids.infra_error).toEqual(['flaky']);
    expect(report.counts.stable).toBe(4);
    expect(report.resolved).toEqual({ stable: 4, finished: 11 });
    const pass2 = report.tasks.find((t) => t.id === 'pass2')!;
    expect([pass2.samples, pass2.solved]).toEqual([2, 1]);
    // pass@1 over the 9 tasks with a verdict (infra_error and model_error are none): fix, remote, agent, and pass2's 1 of 2
    expect(report.pass_at_k.map((p) => p.k)).toEqual([1, 2]);
    expect(report.pass_at_k[0]!.value).toBeCloseTo((3 + 0.5) / 9, 5);
    expect(report.pass_at_k[1]).toEqual({ k: 2, value: 1, tasks: 1 });
    const fix = report.tasks.find((t) => t.id === 'fix')!;
    expect(fix.iterations).toBe(1);
    expect(fix.tokens_in).toBeGreaterThan(0);
    expect(fix.attempts[0]!.branch).toMatch(/^EngineerExternal\//);
    expect(report.tasks.find((t) => t.id === 'badcommit')!.attempts[0]!.error?.code).toBe('REPO_INVALID');
    expect(report.tasks.find((t) => t.id === 'flaky')!.attempts[0]!.error?.code).toBe('SANDBOX_BROKEN');
    expect(report.tasks.find((t) => t.id === 'nomodel')!.attempts[0]!.error?.code).toBe('MODEL_NOT_FOUND');
    // the markdown table, the progress on stderr, the summary and next step on stdout
    const md = await readFile(join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/\| fix \| `stable` \|/);
    expect(md).toMatch(/\| flaky \| `infra_error` \|.*SANDBOX\\_BROKEN/);
    expect(r.stderr).toMatch(/ended {4}fix attempt 1: stable .*\[\d+ done, \d+ running, \d+ left; resolved \d+\/\d+/);
    expect(r.stdout).toContain('resolved 4 of 11 finished');
    expect(r.stdout).toMatch(/--resume --retry infra,model/);
    // each attempt is an ordinary run: `runs show` reads it in the attempt's repository
    const shown = await showRun({
      repo: join(out, fix.attempts[0]!.repo),
      runId: fix.attempts[0]!.run_id!,
      env: testEnv(),
    });
    expect(shown.state.status).toBe('stable');
    expect(shown.state.directive.text).toContain('[task:fix]');
    // a task's mode is its run's [loop] mode
    const agent = report.tasks.find((t) => t.id === 'agent')!.attempts[0]!;
    const agentRun = await showRun({ repo: join(out, agent.repo), runId: agent.run_id!, env: testEnv() });
    expect(agentRun.state.config).toMatchObject({ loop: { mode: 'agent' } });
    expect(agentRun.state.iterations[0]!.trajectory?.steps.map((st) => st.tool)).toEqual(['edit', 'submit']);
    // the user's repository gained nothing, and every sandbox is gone
    expect(await refsOf(fx.repo)).toEqual(refsBefore);
    await expect(readdir(join(fx.repo.path, '.hammer'))).rejects.toThrow();
    expect(gitServer.requests.some((q) => q.includes('git-upload-pack'))).toBe(true);
    await expectNothingLeft(out);
    await copyFile(join(out, 'report.json'), join(work, 'before-retry.json'));
  });

  it('--resume runs nothing when every task finished', async () => {
    const chats = server.chatRequests().length;
    const r = await cli([
      'batch',
      join(work, 'tasks.jsonl'),
      '--out',
      out,
      '--resume',
      '--config',
      join(work, 'flaky.toml'),
      ...modelArgs,
    ]);
    expect(r.code, r.stderr.slice(-2000)).toBe(1);
    expect(r.stderr).toContain('0 attempts to run, 11 tasks already done');
    expect(server.chatRequests().length).toBe(chats);
    expect((await readReport(out)).counts.infra_error).toBe(1);
  });

  it('refuses to start over a batch, and to continue it with another model', async () => {
    const again = await cli(['batch', join(work, 'tasks.jsonl'), '--out', out, ...modelArgs]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/holds a batch already[\s\S]*--resume/);
    const other = await cli([
      'batch',
      join(work, 'tasks.jsonl'),
      '--out',
      out,
      '--resume',
      ...modelArgs,
      '--model',
      'other',
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('was run with the model ollama:test-model');
  });

  it('--retry infra reruns only the infrastructure failure, as a new attempt of the same sample', async () => {
    const r = await cli([
      'batch',
      join(work, 'tasks.jsonl'),
      '--out',
      out,
      '--resume',
      '--retry',
      'infra',
      '--config',
      join(work, 'steady.toml'),
      ...modelArgs,
    ]);
    // nomodel is still a model_error
    expect(r.code, r.stderr.slice(-2000)).toBe(1);
    expect(r.stderr).toContain('1 attempt to run, 10 tasks already done');
    const report = await readReport(out);
    const flaky = report.tasks.find((t) => t.id === 'flaky')!;
    expect(flaky.status).toBe('stable');
    expect(flaky.attempts.map((a) => [a.attempt, a.sample, a.status, a.counted, a.replaces])).toEqual([
      [1, 1, 'infra_error', false, null],
      [2, 1, 'stable', true, 1],
    ]);
    expect(report.counts.stable).toBe(5);
    await expectNothingLeft(out);
  });

  it('compare: the paired table with the ids, and pass@k', async () => {
    const r = await cli(['batch', 'compare', join(work, 'before-retry.json'), out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\| \*\*A stable\*\* \| 4 \(both\) \| 0 \(only A\) \|/);
    expect(r.stdout).toMatch(/\| \*\*A not stable\*\* \| 0 \(only B\) \| 5 \(neither\) \|/);
    expect(r.stdout).toContain('- neither (5): exhaust, dup, nopatch, badcommit, slow');
    expect(r.stdout).toContain(
      'left out (2, no verdict on one side): nomodel (A model_error, B model_error), flaky (A infra_error, B stable)',
    );
    expect(r.stdout).toMatch(/\| 2 \| 100\.0% \(1\) \| 100\.0% \(1\) \|/);
    const j = await cli(['batch', 'compare', join(work, 'before-retry.json'), out, '--json']);
    expect(JSON.parse(j.stdout)).toMatchObject({ both: ['fix', 'remote', 'agent', 'pass2'], only_a: [], only_b: [] });
  });

  it('Ctrl-C stops the batch, writes the report and leaves nothing; --resume finishes it', async () => {
    const out2 = join(work, 'out2');
    await writeFile(
      join(work, 'hang.jsonl'),
      `${[task('hang'), { ...task('hang'), id: 'hang2' }].map((t) => JSON.stringify(t)).join('\n')}\n`,
    );
    hang.on = true;
    const r = await cli(
      [
        'batch',
        join(work, 'hang.jsonl'),
        '--out',
        out2,
        '--jobs',
        '2',
        '--config',
        join(work, 'steady.toml'),
        ...modelArgs,
      ],
      testEnv({ HAMMER_FAULT: 'SIGINT@generate' }),
    );
    expect(r.code, r.stderr.slice(-2000)).toBe(130);
    const report = await readReport(out2);
    expect(report.state).toBe('interrupted');
    expect(report.counts.pending).toBe(2);
    await expectNothingLeft(out2);
    await expect(readFile(join(out2, 'batch.lock'))).rejects.toThrow();
    hang.on = false;
    const resumed = await cli([
      'batch',
      join(work, 'hang.jsonl'),
      '--out',
      out2,
      '--resume',
      '--config',
      join(work, 'steady.toml'),
      ...modelArgs,
    ]);
    expect(resumed.code, resumed.stderr.slice(-2000)).toBe(0);
    const done = await readReport(out2);
    expect(done.tasks.map((t) => [t.id, t.status, t.attempts.map((a) => a.status)])).toEqual([
      ['hang', 'stable', ['unfinished', 'stable']],
      ['hang2', 'stable', ['unfinished', 'stable']],
    ]);
    await expectNothingLeft(out2);
  });
});
