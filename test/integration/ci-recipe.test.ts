// The CI recipe in docs/ci.md: the script part of examples/ci/github-workflow.yml (and of the GitLab
// job), run as bash on a CI-style checkout (detached HEAD, no local branch, an `origin` remote) with
// the built CLI on PATH, a scripted model server and a stub `gh`/`curl` that records what it was given.
import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { answerWith, createPythonFixture, FIX_PATCH, type PythonFixture } from '../helpers/python-fixture.js';
import { testEnv } from './run-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(ROOT, 'dist/cli/main.js');

/** The lines between `# hammer-box-ci: begin` and `# hammer-box-ci: end`, unindented. */
function ciScript(yaml: string): string {
  const lines = yaml.split('\n');
  const begin = lines.findIndex((l) => l.trim() === '# hammer-box-ci: begin');
  const end = lines.findIndex((l) => l.trim() === '# hammer-box-ci: end');
  if (begin < 0 || end < begin) throw new Error('no hammer-box-ci block');
  const indent = /^\s*/.exec(lines[begin]!)![0].length;
  return lines
    .slice(begin + 1, end)
    .map((l) => l.slice(indent))
    .join('\n');
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

async function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(out.trim()) : reject(new Error(`git ${args.join(' ')}: ${code}`)),
    );
  });
}

let fx: PythonFixture;
let server: ModelServer;
let work: string;

beforeAll(async () => {
  await toolchainImage('python');
  await readFile(MAIN).catch(() => {
    throw new Error(`${MAIN} is missing: build it with 'make build'`);
  });
  fx = await createPythonFixture();
  server = await startModelServer({
    script: [
      { answer: answerWith(FIX_PATCH, 'The loop subtracts; it must add.') },
      { answer: answerWith(FIX_PATCH, 'The loop subtracts; it must add.') },
    ],
  });
  work = join(fx.repo.path, '..', `ci-${Date.now()}`);
  await mkdir(work);
  // a bare "origin" and a checkout the way CI makes one: the commit fetched and checked out detached
  await git(work, ['clone', '--quiet', '--bare', fx.repo.path, 'origin.git']);
  await git(work, ['init', '--quiet', 'checkout']);
  const checkout = join(work, 'checkout');
  await git(checkout, ['remote', 'add', 'origin', join(work, 'origin.git')]);
  await git(checkout, ['fetch', '--quiet', 'origin', 'main']);
  await git(checkout, ['checkout', '--quiet', '--detach', 'FETCH_HEAD']);
  // the tools the script calls: the built CLI as `hammer-box`, and stubs that record their input
  const bin = join(work, 'bin');
  await mkdir(bin);
  const stub = (name: string, body: string) =>
    writeFile(join(bin, name), `#!/bin/sh\n${body}\n`).then(() => chmod(join(bin, name), 0o755));
  await stub('hammer-box', `exec "${process.execPath}" "${MAIN}" "$@"`);
  await stub('gh', `printf '%s\\n' "$@" > "${work}/gh.args"; cat > "${work}/gh.body"`);
  await stub('curl', `printf '%s\\n' "$@" > "${work}/curl.args"; cat > "${work}/curl.body"`);
}, 600_000);

afterAll(async () => {
  await server?.close();
  await fx?.cleanup();
  if (work) await rm(work, { recursive: true, force: true });
});

function ciEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = testEnv({
    HAMMER_PROVIDER: 'ollama',
    HAMMER_MODEL: 'test-model',
    HAMMER_LLM_URL: server.url,
    HAMMER_DIRECTIVE: 'Fix total() in calc.py so the tests pass',
    HAMMER_PR_BASE: 'main',
    ...extra,
  });
  env.PATH = `${join(work, 'bin')}:${env.PATH ?? ''}`;
  return env;
}

describe('the CI recipe', () => {
  it('is in docs/ci.md as it is in examples/ci', async () => {
    const page = await readFile(join(ROOT, 'docs/ci.md'), 'utf8');
    for (const file of ['github-workflow.yml', 'gitlab-ci.yml']) {
      const text = await readFile(join(ROOT, 'examples/ci', file), 'utf8');
      expect(page).toContain(text.trimEnd());
    }
  });

  it('GitHub Actions: runs on a detached HEAD, pushes the branch and opens a PR with PR_SUMMARY.md as its body', async () => {
    const yaml = await readFile(join(ROOT, 'examples/ci/github-workflow.yml'), 'utf8');
    const checkout = join(work, 'checkout');
    const r = await bash(ciScript(yaml), checkout, ciEnv({}));
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(await readFile(join(checkout, 'hammer-result.json'), 'utf8')) as Record<string, unknown>;
    expect(result.status).toBe('stable');
    const branch = String(result.branch);
    // the base was the detached HEAD's commit (no local branch exists)
    expect(result.base_commit).toBe(await git(checkout, ['rev-parse', 'HEAD']));
    // pushed to origin
    expect(await git(join(work, 'origin.git'), ['rev-parse', `refs/heads/${branch}`])).toBe(result.branch_commit);
    // the PR: head, base, title from the run, not a draft, the body is `runs show --pr-body`
    const args = (await readFile(join(work, 'gh.args'), 'utf8')).trim().split('\n');
    expect(args).toEqual([
      'pr',
      'create',
      '--head',
      branch,
      '--base',
      'main',
      '--title',
      String(result.pr_title),
      '--body-file',
      '-',
    ]);
    const body = await readFile(join(work, 'gh.body'), 'utf8');
    expect(body).toContain('**Tests: failing before, passing now**');
    expect(body).not.toContain(work);
    // the run's files are where the artifact step uploads them from
    await readFile(join(checkout, '.hammer/runs', String(result.run_id), 'PR_SUMMARY.md'), 'utf8');
  }, 600_000);

  it('GitLab CI: the same steps, the merge request made through the API', async () => {
    const yaml = await readFile(join(ROOT, 'examples/ci/gitlab-ci.yml'), 'utf8');
    const checkout = join(work, 'checkout');
    const r = await bash(
      ciScript(yaml),
      checkout,
      ciEnv({ GITLAB_TOKEN: 't', CI_API_V4_URL: 'https://gitlab.invalid/api/v4', CI_PROJECT_ID: '7' }),
    );
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(await readFile(join(checkout, 'hammer-result.json'), 'utf8')) as Record<string, unknown>;
    const branch = String(result.branch);
    expect(await git(join(work, 'origin.git'), ['rev-parse', `refs/heads/${branch}`])).toBe(result.branch_commit);
    expect(await readFile(join(work, 'curl.args'), 'utf8')).toContain(
      'https://gitlab.invalid/api/v4/projects/7/merge_requests',
    );
    const mr = JSON.parse(await readFile(join(work, 'curl.body'), 'utf8')) as Record<string, string>;
    expect(mr.source_branch).toBe(branch);
    expect(mr.target_branch).toBe('main');
    expect(mr.title).toBe(result.pr_title);
    expect(mr.description).toContain('**Tests: failing before, passing now**');
  }, 600_000);
});
