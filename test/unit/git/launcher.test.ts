// The git launcher: the host's git commands started by a small helper process instead of by node's
// own fork. The same command gives the same result either way (output, exit code, input, working
// directory, environment); the output cap and an abort still kill it; a host without perl, or a
// helper that dies, leaves the work to node's spawn (an idle helper never keeps node alive: see
// test/integration/workbench-exit.test.ts).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runGitResult, type GitResult } from '../../../src/git/git-exec.js';
import { streamGit } from '../../../src/git/git-stream.js';
import { GitLauncher, gitLauncher, setGitLauncher } from '../../../src/git/launcher.js';
import { createFixtureRepo, type FixtureRepo } from '../../helpers/fixture-repo.js';

const execFileP = promisify(execFile);
let repo: FixtureRepo;
beforeAll(async () => {
  repo = await createFixtureRepo({ files: { 'a.txt': 'alpha\n', 'dir/b.txt': 'beta\n' } });
});
afterAll(async () => {
  await repo?.cleanup();
});
afterEach(() => {
  setGitLauncher(true);
});

const git = (args: string[], opts: Parameters<typeof runGitResult>[1] = {}): Promise<GitResult> =>
  runGitResult(args, { gitDir: join(repo.path, '.git'), ...opts });

/** Run `body` once through the launcher and once through node's spawn; both answers. */
async function bothWays<T>(body: () => Promise<T>): Promise<[T, T]> {
  setGitLauncher(true);
  expect(gitLauncher()).not.toBeNull();
  const launched = await body();
  setGitLauncher(false);
  const spawned = await body();
  return [launched, spawned];
}

describe('git through the launcher', () => {
  it('gives what node spawning git gives: output, stderr, exit code, input, cwd and environment', async () => {
    const [a, b] = await bothWays(async () => ({
      tree: await git(['ls-tree', '-r', '-z', 'HEAD']),
      hashed: await git(['hash-object', '--stdin'], { input: Buffer.from([0, 1, 2, 255, 10]) }),
      missing: await git(['rev-parse', '--verify', 'no-such-ref']),
      // the working directory: a path relative to it
      cwd: await runGitResult(['rev-parse', '--show-prefix'], { cwd: join(repo.path, 'dir') }),
      // the environment: exactly the hardened one plus the extras
      env: await git(['var', 'GIT_AUTHOR_IDENT'], { env: { GIT_AUTHOR_NAME: 'Ann', GIT_AUTHOR_EMAIL: 'ann@x' } }),
    }));
    expect(a.tree.stdout.equals(b.tree.stdout)).toBe(true);
    expect(a.tree.stdout.toString()).toContain('dir/b.txt');
    expect(a.hashed.stdout.toString()).toBe(b.hashed.stdout.toString());
    expect(a.missing.exitCode).toBe(128);
    expect(b.missing.exitCode).toBe(128);
    expect(a.missing.stderr).toBe(b.missing.stderr);
    expect(a.cwd.stdout.toString()).toBe('dir/\n');
    expect(a.env.stdout.toString()).toMatch(/^Ann <ann@x> /);
    expect(a.env.stdout.toString().split(' ').slice(0, 2)).toEqual(b.env.stdout.toString().split(' ').slice(0, 2));
  });

  it('runs many commands at once, each with its own output', async () => {
    setGitLauncher(true);
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => git(['hash-object', '--stdin'], { input: `content ${i}\n` })),
    );
    setGitLauncher(false);
    const alone = await git(['hash-object', '--stdin'], { input: 'content 7\n' });
    expect(new Set(runs.map((r) => r.stdout.toString())).size).toBe(20);
    expect(runs[7]!.stdout.toString()).toBe(alone.stdout.toString());
  });

  it('passes a large input and a large output whole', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 'x');
    const [a, b] = await bothWays(async () => {
      const oid = (await git(['hash-object', '-w', '--stdin'], { input: big })).stdout.toString().trim();
      return (await git(['cat-file', 'blob', oid])).stdout;
    });
    expect(a.equals(big)).toBe(true);
    expect(b.equals(big)).toBe(true);
  });

  it('kills a command whose output passes the cap, and one aborted', async () => {
    setGitLauncher(true);
    const big = Buffer.alloc(2 * 1024 * 1024, 'y');
    const oid = (await git(['hash-object', '-w', '--stdin'], { input: big })).stdout.toString().trim();
    await expect(git(['cat-file', 'blob', oid], { maxBuffer: 64 * 1024 })).rejects.toMatchObject({
      code: 'GIT_FAILED',
      message: expect.stringContaining('more than 65536 bytes'),
    });
    const controller = new AbortController();
    // aborted before git can answer: killed, and reported as the abort
    const pending = git(['cat-file', '--batch'], {
      input: `${oid}\n`,
      maxBuffer: 64 * 1024 * 1024,
      signal: controller.signal,
    });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
    // the launcher still serves the next command
    expect((await git(['rev-parse', 'HEAD'])).exitCode).toBe(0);
    expect(gitLauncher()?.alive).toBe(true);
  });

  it('says git is missing the way node spawning it does', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'hb-nogit-'));
    try {
      const [a, b] = await bothWays(() =>
        runGitResult(['--version'], { hostEnv: { PATH: empty } }).then(
          () => null,
          (err: { code?: string; message?: string }) => ({ code: err.code, message: err.message }),
        ),
      );
      expect(a).toEqual({ code: 'GIT_FAILED', message: 'git is not installed or not on PATH' });
      expect(b).toEqual(a);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('streams through the launcher with the same bytes and exit checks', async () => {
    const [a, b] = await bothWays(async () => {
      const s = streamGit(['ls-tree', '-r', '-z', 'HEAD'], { gitDir: join(repo.path, '.git') });
      const parts: Buffer[] = [];
      for (let c = await s.reader.chunk(); c !== null; c = await s.reader.chunk()) parts.push(Buffer.from(c));
      await s.finish();
      const bad = streamGit(['ls-tree', 'no-such-tree'], { gitDir: join(repo.path, '.git') });
      while ((await bad.reader.chunk()) !== null);
      const failed = await bad.finish().then(
        () => null,
        (err: { code?: string }) => err.code,
      );
      return { out: Buffer.concat(parts), failed };
    });
    expect(a.out.equals(b.out)).toBe(true);
    expect(a.failed).toBe('GIT_FAILED');
    expect(b.failed).toBe('GIT_FAILED');
  });
});

describe('a stream nobody reads', () => {
  it('is paused by its credit, and an abort or a stop still ends it', async () => {
    setGitLauncher(true);
    const big = Buffer.alloc(8 * 1024 * 1024, 'z');
    const oid = (await git(['hash-object', '-w', '--stdin'], { input: big })).stdout.toString().trim();
    const gitDir = join(repo.path, '.git');
    const controller = new AbortController();
    const aborted = streamGit(['cat-file', 'blob', oid], { gitDir, signal: controller.signal });
    await new Promise((r) => setTimeout(r, 200));
    controller.abort();
    await expect(aborted.finish()).rejects.toMatchObject({ code: 'ABORTED' });
    const stopped = streamGit(['cat-file', 'blob', oid], { gitDir });
    await new Promise((r) => setTimeout(r, 200));
    await stopped.stop();
    expect((await git(['rev-parse', 'HEAD'])).exitCode).toBe(0);
  });
});

describe('when the launcher is not there', () => {
  it("runs git as node's child on a host without perl", async () => {
    // a PATH with git and nothing else: perl cannot be found, git can
    const only = await mkdtemp(join(tmpdir(), 'hb-noperl-'));
    const { stdout } = await execFileP('sh', ['-c', 'command -v git']);
    await symlink(stdout.trim(), join(only, 'git'));
    const saved = process.env.PATH;
    process.env.PATH = only;
    try {
      setGitLauncher(true);
      const r = await git(['rev-parse', 'HEAD'], { hostEnv: { PATH: only } });
      expect(r.exitCode).toBe(0);
      expect(r.stdout.toString()).toMatch(/^[0-9a-f]{40}\n$/);
      // and every later command too
      expect((await git(['rev-parse', 'HEAD~0'], { hostEnv: { PATH: only } })).exitCode).toBe(0);
      expect(gitLauncher()).toBeNull();
    } finally {
      process.env.PATH = saved;
      await rm(only, { recursive: true, force: true });
    }
  });

  it('fails a command the helper was running when it dies, and spawns the next ones itself', async () => {
    const launcher = GitLauncher.start()!;
    const ended = new Promise<{ stage: string; errno: number | null; started: boolean }>((resolve) => {
      launcher.run(
        ['sh', '-c', 'sleep 3'],
        { cwd: tmpdir(), env: { PATH: process.env.PATH ?? '' }, input: Buffer.alloc(0) },
        { stdout: () => undefined, stderr: () => undefined, exit: () => undefined, failed: resolve },
      );
    });
    await new Promise((r) => setTimeout(r, 200));
    process.kill(launcher.pid!, 'SIGKILL');
    expect(await ended).toEqual({ stage: 'launcher', errno: null, started: true });
    expect(launcher.alive).toBe(false);

    // the process's own launcher, killed: the next command still runs (node spawns it)
    setGitLauncher(true);
    const shared = gitLauncher()!;
    expect((await git(['rev-parse', 'HEAD'])).exitCode).toBe(0);
    process.kill(shared.pid!, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    expect((await git(['rev-parse', 'HEAD'])).exitCode).toBe(0);
    expect(gitLauncher()).toBeNull();
  });
});
