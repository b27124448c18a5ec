// One smoke test of the real binary (`node dist/cli/main.js`, as built by `make build`): help,
// a usage error, a whole `run --json` against a scripted Ollama server, and `tools list --json`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { answerWith, createPythonFixture, FIX_PATCH, type PythonFixture } from '../helpers/python-fixture.js';
import { refsOf, testEnv } from './run-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the built CLI asynchronously (the model server lives in this process and must keep answering). */
function cli(args: string[], env: NodeJS.ProcessEnv = testEnv(), stdin?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env, stdio: 'pipe' });
    child.stdin.end(stdin ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  if (!existsSync(MAIN)) {
    throw new Error(
      `${MAIN} is missing: the CLI smoke test runs the built binary. Build it first with 'make build' (or 'npx tsc -p tsconfig.json').`,
    );
  }
  await toolchainImage('python');
});

describe('the hammer-box binary', () => {
  let fx: PythonFixture;
  let server: ModelServer;

  beforeAll(async () => {
    fx = await createPythonFixture();
    server = await startModelServer({
      script: [{ answer: answerWith(FIX_PATCH) }, { answer: answerWith(FIX_PATCH) }],
    });
  });

  afterAll(async () => {
    await server?.close();
    await fx?.cleanup();
  });

  it('prints help listing run, and exits 0', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\s+run \[options\]/m);
    expect(r.stdout).toContain('replay');
  });

  it('exits 2 for run without a directive, naming the ways to give one', async () => {
    const r = await cli(['run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error [USAGE]: no directive');
    expect(r.stderr).toContain('--directive <file>');
    expect(r.stdout).toBe('');
  });

  it('runs the loop with --json: one JSON document on stdout, progress on stderr, exit 0', async () => {
    const r = await cli([
      'run',
      '--repo',
      fx.repo.path,
      '--directive',
      fx.directive,
      '--provider',
      'ollama',
      '--model',
      'test-model',
      '--llm-url',
      server.url,
      '--max-iterations',
      '2',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({ status: 'stable', reason: 'tests_pass', iterations: 1 });
    expect(doc.run_id).toMatch(/^\d{8}T\d{6}Z-/);
    expect(doc.branch).toMatch(/^EngineerExternal\/\d{8}T\d{6}Z/);
    expect(typeof doc.summary_path).toBe('string');
    await access(String(doc.summary_path));
    await access(String(doc.state_path));
    expect(await refsOf(fx.repo)).toEqual([`refs/heads/${String(doc.branch)}`, 'refs/heads/main'].sort());
    expect(r.stderr).toContain(`run ${String(doc.run_id)}`);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('--directive - --quiet: reads the directive from stdin, prints nothing on stderr and one summary on stdout', async () => {
    const r = await cli(
      ['run', '--repo', fx.repo.path, '--directive', '-', '--quiet', '--model', 'test-model', '--llm-url', server.url],
      testEnv(),
      'Make the sum tests pass.\n',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^hammer-box: stable: tests pass \(tests_pass\) after /);
    expect(lines.filter((l) => /stable/.test(l))).toHaveLength(1);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}baseline {3}failed \(exit 1 after /));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}tokens {5}[\d,]+ in, [\d,]+ out$/));
    const next = lines.slice(lines.indexOf('next:') + 1);
    expect(next[0]).toMatch(/^ {2}hammer-box pr \S+ --repo \S+$/);
    expect(next[1]).toMatch(
      /^ {2}git -C \S+ push origin refs\/heads\/EngineerExternal\/\S+:refs\/heads\/EngineerExternal\//,
    );
    expect(next[2]).toMatch(
      /--pr-body \| gh pr create --head EngineerExternal\/\S+ --base main --title 'Make the sum tests pass' --body-file -$/,
    );
    const chat = server.chatRequests().at(-1);
    expect(JSON.stringify(chat?.body)).toContain('Make the sum tests pass.');
  });

  it('lists the tools as JSON', async () => {
    const r = await cli(['tools', 'list', '--json']);
    expect(r.code).toBe(0);
    const tools = JSON.parse(r.stdout) as { name: string }[];
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['git_status', 'git_apply_check', 'pytest']));
  });
});
