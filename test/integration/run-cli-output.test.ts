// What `run`, `replay` and `runs` print through the real binary, as a new user meets it: the run
// started from a checkout with work in progress says what it leaves out; --repo is `.` by default;
// the summary shows the branch (named after the run) and its diffstat, --json carries the diffstat;
// the commit is one a maintainer would keep (the user as author, the directive's title, the model's
// words about the change, trailers); the pull request's title is whole; --last and short ids find
// runs; replay says whether it reproduced the run and where it diverged; a wrong model lists the
// server's; and the small things (the toolchain line, runs show's rows, a missing path, --help).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import {
  answerWith,
  createPythonFixture,
  FIX_PATCH,
  NOOP_PATCH_A,
  type PythonFixture,
} from '../helpers/python-fixture.js';
import { TEST_STATE_SECRET } from '../helpers/state-key.js';
import { testEnv } from './run-support.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const DIRECTIVE =
  'Make every test in test_calc.py pass without changing the tests, keeping total() and mean() as they are called today';
const ANSWER = answerWith(
  FIX_PATCH,
  'Here is the corrected unified diff with proper hunk headers.\n\ntotal() subtracted each item instead of adding it, so every sum came out negative; it adds them now.',
);

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

let fx: PythonFixture;
let server: ModelServer;
let home: string;
let bareHome: string;

function cli(
  args: string[],
  opts: { cwd?: string; home?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env = testEnv({ HOME: opts.home ?? home, HAMMER_STATE_KEY: TEST_STATE_SECRET, ...opts.env });
    delete env['GIT_AUTHOR_NAME'];
    delete env['GIT_AUTHOR_EMAIL'];
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: opts.cwd ?? fx.repo.path, env, stdio: 'pipe' });
    child.stdin.end('');
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const model = (): string[] => ['--provider', 'ollama', '--model', 'test-model', '--llm-url', server.url];

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build it first with 'make build'`);
  await toolchainImage('python');
  fx = await createPythonFixture();
  server = await startModelServer({ models: ['test-model', 'qwen2.5-coder:7b'], script: [] });
  home = await tempDir('hb-home-');
  bareHome = await tempDir('hb-home-bare-');
  await writeFile(join(home, '.gitconfig'), '[user]\n  name = Ada Lovelace\n  email = ada@example.com\n');
}, 300_000);

afterAll(async () => {
  await server?.close();
  await fx?.cleanup();
});

let first: { runId: string; branch: string; commit: string };

describe('a run from a checkout with work in progress, without --repo', () => {
  it('says what it leaves out, and ends with the branch named after the run and its diffstat', async () => {
    await writeFile(join(fx.repo.path, 'calc.py'), `${await readFile(join(fx.repo.path, 'calc.py'), 'utf8')}# wip\n`);
    await writeFile(join(fx.repo.path, 'notes.txt'), 'my notes\n');
    server.enqueue({ answer: ANSWER });
    const r = await cli(['run', '-m', DIRECTIVE, ...model()]);
    expect(r.code, r.stderr).toBe(0);
    const base = (await fx.repo.git(['rev-parse', 'main'])).trim().slice(0, 12);
    expect(r.stderr).toContain(
      `hammer-box: 1 changed file and 1 untracked file of your checkout are not in this run: it starts from the committed tip of main (${base})\n`,
    );
    // a test file found among the sources is named once
    const toolchain = /toolchain python \S+ \(([^)]*)\)/.exec(r.stderr)?.[1]?.split(', ') ?? [];
    expect(toolchain.length).toBeGreaterThan(0);
    expect(new Set(toolchain).size).toBe(toolchain.length);
    const runId = /run (\d{8}T\d{6}Z-[a-z2-7]{6})/.exec(r.stderr)![1]!;
    const branch = `EngineerExternal/${runId}`;
    const lines = r.stdout.split('\n');
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^ {2}branch {5}${branch.replace('/', '\\/')} \\(`)));
    expect(lines).toContain('   calc.py | 2 +-');
    expect(lines).toContain('   1 file changed, 1 insertion(+), 1 deletion(-)');
    // stdout is not a terminal: the summary only, no diff
    expect(r.stdout).not.toContain('change:');
    first = { runId, branch, commit: (await fx.repo.git(['rev-parse', branch])).trim() };
  });

  it('commits as the user, with hammer-box committing: the title as subject, the words about the change, trailers', async () => {
    const show = await fx.repo.git(['show', '-s', '--format=%an <%ae>|%cn <%ce>%n%B', first.commit]);
    expect(show).toBe(
      [
        'Ada Lovelace <ada@example.com>|hammer-box <hammer-box@localhost>',
        'Make every test in test_calc.py pass without changing the tests, keeping',
        '',
        'total() subtracted each item instead of adding it, so every sum came out',
        'negative; it adds them now.',
        '',
        `Hammer-Box-Run: ${first.runId}`,
        'Hammer-Box-Model: ollama:test-model',
        'Hammer-Box-Iteration: 1',
        '',
        '',
      ].join('\n'),
    );
  });
});

describe('run --json', () => {
  it('carries the diffstat and the whole title, and commits as hammer-box for a user without a git identity', async () => {
    server.enqueue({ answer: ANSWER });
    const r = await cli(['run', '--repo', fx.repo.path, '-m', DIRECTIVE, ...model(), '--json'], { home: bareHome });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(doc['diffstat']).toEqual({
      files: [{ path: 'calc.py', added: 1, removed: 1 }],
      changed: 1,
      insertions: 1,
      deletions: 1,
    });
    expect(doc['pr_title']).toBe(DIRECTIVE);
    const author = await fx.repo.git(['show', '-s', '--format=%an <%ae>', String(doc['branch'])]);
    expect(author.trim()).toBe('hammer-box <hammer-box@localhost>');
  });
});

describe('finding runs', () => {
  it('lists with `runs` alone, and shows a run by --last or by the letters after its dash', async () => {
    const list = await cli(['runs']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(first.runId);
    const last = await cli(['runs', 'show', '--last']);
    expect(last.code, last.stderr).toBe(0);
    expect(last.stdout).not.toContain(first.runId);
    const short = await cli(['runs', 'show', first.runId.slice(-6, -2)]);
    expect(short.code, short.stderr).toBe(0);
    expect(short.stdout).toMatch(new RegExp(`^run {8}${first.runId}$`, 'm'));
    // the longest label keeps a space before its value
    expect(short.stdout).toMatch(/^environment toolchain python /m);
  });

  it('says a path that does not exist does not exist', async () => {
    const r = await cli(['runs', '--repo', join(fx.repo.path, 'nowhere')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error [REPO_INVALID]: ${join(fx.repo.path, 'nowhere')} does not exist`);
  });
});

describe('replay', () => {
  it('says every phase reproduced the run', async () => {
    const r = await cli(['replay', first.runId.slice(0, 16)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `^ {2}replay {5}every phase reproduced run ${first.runId} \\(3 compared: the baseline, each iteration, the end\\)$`,
        'm',
      ),
    );
  });

  it('says where it diverged when the recorded answer is not the one the run had', async () => {
    // the answer now holds a patch that fixes nothing: the replay goes another way, and runs out of answers
    const answer = join(fx.repo.path, '.hammer', 'runs', first.runId, 'iter-01-answer.md');
    await writeFile(answer, answerWith(NOOP_PATCH_A));
    const r = await cli(['replay', first.runId]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('error [MODEL_ERROR]: replay has no more recorded answers');
    expect(r.stderr).toMatch(
      new RegExp(
        `what to do: the replay diverged from run ${first.runId} at iteration 1 extract: the patch was [0-9a-f]{12} in the run, [0-9a-f]{12} in the replay; `,
      ),
    );
  });
});

describe('a model the server does not have', () => {
  it.each(['ollama', 'openai'] as const)('%s: MODEL_NOT_FOUND names the models the server has', async (provider) => {
    const r = await cli(['run', '-m', DIRECTIVE, '--provider', provider, '--model', 'nope', '--llm-url', server.url]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('error [MODEL_NOT_FOUND]');
    expect(r.stderr).toContain(
      provider === 'ollama' ? 'it has: test-model:latest, qwen2.5-coder:7b' : 'it has: test-model, qwen2.5-coder:7b',
    );
  });
});

describe('help and usage', () => {
  it('shows a default once, and names the help after an unknown option', async () => {
    const help = await cli(['plan', '--help']);
    expect(help.stdout).toMatch(/--out <file> +where the plan goes \(default: "plan\.md"\)\n/);
    expect(help.stdout).toMatch(/--repo <path> +the git repository \(default: "\."\)\n/);
    const wrong = await cli(['run', '--frobnicate']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe("error: unknown option '--frobnicate'\n(see 'hammer-box run --help')\n");
  });
});

describe('a run outside a repository', () => {
  it('takes . as the repository and says it is not one', async () => {
    const dir = await tempDir('hb-not-a-repo-');
    await mkdir(join(dir, 'sub'));
    const r = await cli(['run', '-m', DIRECTIVE, ...model()], { cwd: join(dir, 'sub') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error [REPO_INVALID]: not a git repository');
  });
});
