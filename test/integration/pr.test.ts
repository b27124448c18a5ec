// `hammer-box run --pr` and `hammer-box pr <run_id>` through the built binary: the run's branch, and
// nothing else, pushed to a real local bare repository with an explicit refspec; the pull request
// opened through a fake `gh` or `glab` on PATH that records its argv, stdin and working directory,
// or found already open (the push updated it); nothing pushed, and the commands printed, when the
// forge is unknown or its tool missing or not logged in; the remotes refused (a remote helper, a
// rejected push, a URL with a token that is never printed).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureGitEnv, tempDir } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { answerWith, createPythonFixture, FIX_PATCH, type PythonFixture } from '../helpers/python-fixture.js';
import { testEnv } from './run-support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const TOKEN = 'gho_hammerBoxTestToken0123456789';

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One call the fake gh or glab received. */
interface ToolRecord {
  tool: string;
  argv: string[];
  stdin: string;
  cwd: string;
}

let fx: PythonFixture;
let server: ModelServer;
let dir: string;
let bare: string;
let bin: string;
let noForgeBin: string;
let log: string;

function cli(args: string[], extra: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env = testEnv({ PATH: bin, FAKE_FORGE_LOG: log, GH_TOKEN: TOKEN, ...extra });
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

/** Plain git (the fixture's isolated config), synchronously. */
function git(args: string[], cwd: string): string {
  const r = spawnSync('git', args, { cwd, env: fixtureGitEnv(), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** What the fake tools recorded since the log was last cleared. */
async function calls(): Promise<ToolRecord[]> {
  const text = await readFile(log, 'utf8').catch(() => '');
  await writeFile(log, '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ToolRecord);
}

/**
 * A fake gh/glab: records argv, stdin and cwd; `auth status` fails when FAKE_FORGE_AUTH=fail; `list`
 * prints FAKE_FORGE_OPEN (a JSON listing, default none); create prints a URL, or with
 * FAKE_FORGE_CREATE=exists fails as gh does when one is open already.
 */
const FAKE_TOOL = `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const tool = path.basename(process.argv[1]);
  const argv = process.argv.slice(2);
  fs.appendFileSync(process.env.FAKE_FORGE_LOG, JSON.stringify({ tool, argv, stdin: Buffer.concat(chunks).toString(), cwd: process.cwd() }) + '\\n');
  if (argv[0] === 'auth') process.exit(process.env.FAKE_FORGE_AUTH === 'fail' ? 1 : 0);
  if (argv[1] === 'list') {
    if (process.env.FAKE_FORGE_OPEN === 'fail') process.exit(1);
    process.stdout.write(process.env.FAKE_FORGE_OPEN || '[]');
    return;
  }
  if (process.env.FAKE_FORGE_CREATE === 'exists') {
    process.stderr.write('a pull request for branch "' + argv[3].slice(7) + '" into branch "main" already exists:\\nhttps://github.com/acme/widgets/pull/42\\n');
    process.exit(1);
  }
  if (tool === 'gh') process.stdout.write('https://github.com/acme/widgets/pull/7\\n');
  else process.stdout.write('\\n!5 change (branch)\\n https://gitlab.example.com/group/widgets/-/merge_requests/5\\n');
});
`;

let runId: string;
let branch: string;
let branchCommit: string;

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build it first with 'make build'`);
  await toolchainImage('python');
  dir = await tempDir('hb-pr-');
  log = join(dir, 'forge.log');
  // PATH: git (and perl, for the git launcher), plus the fake tools; the second without them
  bin = join(dir, 'bin');
  noForgeBin = join(dir, 'bin-no-forge');
  for (const d of [bin, noForgeBin]) {
    await mkdir(d);
    for (const tool of ['git', 'perl']) {
      const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      if (found) await symlink(found, join(d, tool));
    }
  }
  for (const tool of ['gh', 'glab']) {
    await writeFile(join(bin, tool), FAKE_TOOL);
    await chmod(join(bin, tool), 0o755);
  }
  bare = join(dir, 'remote', 'widgets.git');
  await mkdir(bare, { recursive: true });
  git(['init', '--bare', '-q', bare], dir);
  fx = await createPythonFixture();
  await fx.repo.git(['remote', 'add', 'origin', bare]);
  await fx.repo.git(['tag', 'v1.0']);
  server = await startModelServer({ script: [{ answer: answerWith(FIX_PATCH) }] });
}, 300_000);

/** A new empty bare repository added to the fixture as remote `name`; its path. */
async function freshRemote(name: string): Promise<string> {
  const path = join(dir, 'remote', `${name}.git`);
  await mkdir(path, { recursive: true });
  git(['init', '--bare', '-q', path], dir);
  await fx.repo.git(['remote', 'add', name, path]);
  return path;
}

afterAll(async () => {
  await server?.close();
  await fx?.cleanup();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('run --pr', () => {
  it('pushes only the branch to the bare remote and opens the pull request with gh', async () => {
    const r = await cli([
      'run',
      '--repo',
      fx.repo.path,
      '--directive',
      fx.directive,
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
      'acme/widgets',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as Record<string, unknown> & {
      pull_request: Record<string, unknown>;
    };
    runId = String(doc['run_id']);
    branch = String(doc['branch']);
    branchCommit = String(doc['branch_commit']);
    expect(doc['status']).toBe('stable');
    expect(doc.pull_request).toMatchObject({
      run_id: runId,
      branch,
      remote: 'origin',
      pushed_to: bare,
      push: 'created',
      forge: 'github',
      project: 'github.com/acme/widgets',
      draft: false,
      pull_request: { url: 'https://github.com/acme/widgets/pull/7' },
      reason: null,
    });
    // the remote got exactly the run's branch, at the run's commit: no main, no tag
    expect(git(['for-each-ref', '--format=%(refname) %(objectname)'], bare)).toBe(
      `refs/heads/${branch} ${branchCommit}`,
    );
    const recorded = await calls();
    expect(recorded.map((c) => [c.tool, ...c.argv])).toEqual([
      ['gh', 'auth', 'status', '--hostname', 'github.com'],
      [
        'gh',
        'pr',
        'list',
        '--repo=github.com/acme/widgets',
        `--head=${branch}`,
        '--state=open',
        '--json=url',
        '--limit=1',
      ],
      [
        'gh',
        'pr',
        'create',
        '--repo=github.com/acme/widgets',
        `--head=${branch}`,
        '--base=main',
        `--title=${String(doc['pr_title'])}`,
        '--body-file=-',
      ],
    ]);
    const body = await cli(['runs', 'show', runId, '--repo', fx.repo.path, '--pr-body']);
    expect(recorded[2]!.stdin).toBe(body.stdout);
    expect(recorded[2]!.stdin).toContain('Tests');
    for (const c of recorded) {
      expect(c.cwd.startsWith(fx.repo.path)).toBe(false);
      expect(c.argv.join(' ')).not.toContain(TOKEN);
    }
  });
});

describe('hammer-box pr', () => {
  it('opens a GitLab merge request through glab, the body as its description; the push is up to date', async () => {
    const r = await cli([
      'pr',
      runId,
      '--repo',
      fx.repo.path,
      '--forge',
      'gitlab',
      '--forge-repo',
      'gitlab.example.com/group/widgets',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `pushed     ${branch} to origin (${bare}): already up to date\nmerge request https://gitlab.example.com/group/widgets/-/merge_requests/5\n`,
    );
    const recorded = await calls();
    const body = await cli(['runs', 'show', runId, '--repo', fx.repo.path, '--pr-body']);
    expect(recorded.map((c) => [c.tool, ...c.argv])).toEqual([
      ['glab', 'auth', 'status', '--hostname', 'gitlab.example.com'],
      [
        'glab',
        'mr',
        'list',
        '--repo=https://gitlab.example.com/group/widgets',
        `--source-branch=${branch}`,
        '--output=json',
      ],
      [
        'glab',
        'mr',
        'create',
        '--repo=https://gitlab.example.com/group/widgets',
        `--source-branch=${branch}`,
        '--target-branch=main',
        expect.stringMatching(/^--title=/),
        `--description=${body.stdout}`,
        '--yes',
      ],
    ]);
  });

  it('pushes nothing, prints the exact commands and exits 3 (FORGE_UNAVAILABLE) when gh is not installed', async () => {
    const body = join(dir, 'body.md');
    await writeFile(body, 'My own words.\n');
    const fresh = await freshRemote('fresh-missing');
    const r = await cli(
      [
        'pr',
        runId,
        '--repo',
        fx.repo.path,
        '--remote',
        'fresh-missing',
        '--forge',
        'github',
        '--forge-repo',
        'acme/widgets',
        '--pr-body',
        body,
      ],
      { PATH: noForgeBin },
    );
    expect(r.code).toBe(3);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toEqual([
      `not pushed ${branch} (nothing left this machine)`,
      'to push and open it:',
      `  git -C ${fx.repo.path} push fresh-missing refs/heads/${branch}:refs/heads/${branch}`,
      expect.stringMatching(
        new RegExp(
          `^ {2}cat ${body.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\| gh pr create --repo github\\.com/acme/widgets --head ${branch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} --base main --title .+ --body-file -$`,
        ),
      ),
    ]);
    expect(r.stderr).toContain(
      'error [FORGE_UNAVAILABLE]: gh is not installed, so nothing was pushed and no pull request opened',
    );
    expect(await calls()).toEqual([]);
    expect(git(['for-each-ref'], fresh), 'nothing was pushed').toBe('');
  });

  it('pushes nothing and prints the commands when gh is not logged in, after asking it only that', async () => {
    const fresh = await freshRemote('fresh-logged-out');
    const r = await cli(
      [
        'pr',
        runId,
        '--repo',
        fx.repo.path,
        '--remote',
        'fresh-logged-out',
        '--forge',
        'github',
        '--forge-repo',
        'acme/widgets',
      ],
      { FAKE_FORGE_AUTH: 'fail' },
    );
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(`  git -C ${fx.repo.path} push fresh-logged-out refs/heads/${branch}`);
    expect(r.stdout).toContain(`  hammer-box runs show ${runId} --repo ${fx.repo.path} --pr-body | gh pr create`);
    expect(r.stderr).toContain('gh is not logged in to github.com');
    expect(r.stderr).toContain('gh auth login --hostname github.com');
    expect((await calls()).map((c) => c.argv.slice(0, 2))).toEqual([['auth', 'status']]);
    expect(git(['for-each-ref'], fresh), 'nothing was pushed').toBe('');
  });

  it('pushes nothing and says the forge is unknown for a remote that names none', async () => {
    const fresh = await freshRemote('fresh-unknown');
    const r = await cli(['pr', runId, '--repo', fx.repo.path, '--remote', 'fresh-unknown', '--json']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({
      push: null,
      forge: null,
      pull_request: null,
      reason: `${fresh} is not a host hammer-box knows as GitHub or GitLab, so nothing was pushed and no pull request opened`,
      commands: [`git -C ${fx.repo.path} push fresh-unknown refs/heads/${branch}:refs/heads/${branch}`],
    });
    expect(await calls()).toEqual([]);
    expect(git(['for-each-ref'], fresh), 'nothing was pushed').toBe('');
  });

  it('reports the pull request already open for the branch (its URL, updated), exit 0', async () => {
    const r = await cli(['pr', '--last', '--repo', fx.repo.path, '--forge', 'github', '--forge-repo', 'acme/widgets'], {
      FAKE_FORGE_OPEN: JSON.stringify([{ url: 'https://github.com/acme/widgets/pull/42' }]),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `pushed     ${branch} to origin (${bare}): already up to date\npull request https://github.com/acme/widgets/pull/42 (updated: it was open already and had these commits)\n`,
    );
    expect((await calls()).map((c) => c.argv.slice(0, 2))).toEqual([
      ['auth', 'status'],
      ['pr', 'list'],
    ]);
  });

  it('reports the pull request gh says is open already when the listing failed, exit 0', async () => {
    const r = await cli(
      ['pr', runId.slice(-6), '--repo', fx.repo.path, '--forge', 'github', '--forge-repo', 'acme/widgets', '--json'],
      { FAKE_FORGE_OPEN: 'fail', FAKE_FORGE_CREATE: 'exists' },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      push: 'up-to-date',
      pull_request: { url: 'https://github.com/acme/widgets/pull/42', existing: true },
    });
    await calls();
  });

  it('refuses a remote helper URL before running anything (REPO_INVALID, exit 2)', async () => {
    const canary = join(dir, 'ext-ran');
    await fx.repo.git(['remote', 'add', 'evil', `ext::sh -c touch% ${canary}`]);
    const r = await cli(['pr', runId, '--repo', fx.repo.path, '--remote', 'evil', '--forge', 'github']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error [REPO_INVALID]: remote evil');
    expect(r.stderr).toContain('names a remote helper');
    expect(existsSync(canary)).toBe(false);
  });

  it('never force-pushes: a remote branch with other commits is PUSH_FAILED and stays as it was', async () => {
    const other = join(dir, 'remote', 'other.git');
    git(['init', '--bare', '-q', other], dir);
    const stranger = git(['commit-tree', '-m', 'someone else', `${branchCommit}^{tree}`], fx.repo.path);
    git(['push', '-q', other, `${stranger}:refs/heads/${branch}`], fx.repo.path);
    await fx.repo.git(['remote', 'add', 'other', other]);
    const r = await cli([
      'pr',
      runId,
      '--repo',
      fx.repo.path,
      '--remote',
      'other',
      '--forge',
      'github',
      '--forge-repo',
      'acme/widgets',
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`error [PUSH_FAILED]: git could not push ${branch} to ${other}`);
    expect(r.stderr).toContain('hammer-box never force-pushes');
    expect(git(['rev-parse', `refs/heads/${branch}`], other)).toBe(stranger);
    await calls();
  });

  it('never prints a token the remote URL holds', async () => {
    await fx.repo.git(['remote', 'add', 'tok', `https://oauth2:${TOKEN}@127.0.0.1:9/acme/widgets.git`]);
    const r = await cli(['pr', runId, '--repo', fx.repo.path, '--remote', 'tok', '--forge', 'github']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('error [PUSH_FAILED]');
    expect(r.stderr).toContain('https://127.0.0.1:9/acme/widgets.git');
    expect(`${r.stdout}${r.stderr}`).not.toContain(TOKEN);
    await calls();
  });
});
