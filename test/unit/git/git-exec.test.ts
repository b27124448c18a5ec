import { afterEach, describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { HARDENING_CONFIG, gitEnv, hardeningArgs, runGit, runGitResult } from '../../../src/git/index.js';
import { createFixtureRepo, type FixtureRepo } from '../../helpers/fixture-repo.js';

let repo: FixtureRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

describe('gitEnv', () => {
  it('drops every host GIT_* variable and relative PATH entries, then sets the hardening', () => {
    const env = gitEnv(
      { GIT_INDEX_FILE: '/tmp/x' },
      {
        GIT_DIR: '/elsewhere',
        GIT_SSH_COMMAND: 'touch /tmp/pwned',
        GIT_EXTERNAL_DIFF: 'evil',
        GIT_CONFIG_PARAMETERS: "'core.hooksPath'='/evil'",
        SSH_ASKPASS: '/evil',
        PATH: '.:/usr/bin::bin:/bin',
        HOME: '/home/u',
      },
    );
    expect(env.GIT_DIR).toBeUndefined();
    expect(env.GIT_SSH_COMMAND).toBeUndefined();
    expect(env.GIT_EXTERNAL_DIFF).toBeUndefined();
    expect(env.GIT_CONFIG_PARAMETERS).toBeUndefined();
    expect(env.SSH_ASKPASS).toBeUndefined();
    expect(env.PATH).toBe('/usr/bin:/bin');
    expect(env.HOME).toBe('/home/u');
    expect(env).toMatchObject({
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_OPTIONAL_LOCKS: '0',
      GIT_NO_LAZY_FETCH: '1',
      LC_ALL: 'C',
      GIT_INDEX_FILE: '/tmp/x',
    });
  });

  it('puts every override before the subcommand as -c key=value', () => {
    const args = hardeningArgs();
    expect(args[0]).toBe('--no-pager');
    for (const key of [
      'core.hooksPath=/dev/null',
      'core.fsmonitor=false',
      'protocol.ext.allow=never',
      'protocol.file.allow=never',
      'credential.helper=',
    ]) {
      expect(args).toContain(key);
    }
    expect(args.filter((a) => a === '-c')).toHaveLength(HARDENING_CONFIG.length);
  });
});

describe('runGit', () => {
  it("wins over the repository's own config for every override", async () => {
    repo = await createFixtureRepo({ files: { 'a.txt': 'a\n' } });
    await repo.git(['config', 'core.hooksPath', '/tmp/evil-hooks']);
    await repo.git(['config', 'core.fsmonitor', '/tmp/evil-fsmonitor']);
    await repo.git(['config', 'protocol.ext.allow', 'always']);
    await repo.git(['config', 'core.sshCommand', 'touch /tmp/evil']);
    for (const [key, value] of HARDENING_CONFIG) {
      const got = await runGitResult(['config', '--get', key], { cwd: repo.path });
      expect(got.stdout.toString().replace(/\n$/, ''), key).toBe(value);
    }
  });

  it('ignores GIT_DIR and friends in the host environment', async () => {
    repo = await createFixtureRepo({ files: { 'a.txt': 'a\n' } });
    const other = await createFixtureRepo({ files: { 'b.txt': 'b\n' } });
    try {
      const top = await runGit(['rev-parse', '--show-toplevel'], {
        cwd: repo.path,
        hostEnv: { ...process.env, GIT_DIR: `${other.path}/.git`, GIT_WORK_TREE: other.path },
      });
      expect(top.stdout.toString().trim()).toBe(repo.path);
    } finally {
      await other.cleanup();
    }
  });

  it("throws GIT_FAILED carrying git's stderr, and runGitResult returns the failure as data", async () => {
    repo = await createFixtureRepo({ files: { 'a.txt': 'a\n' } });
    const result = await runGitResult(['rev-parse', '--verify', 'no-such-ref'], { cwd: repo.path });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/Needed a single revision/);
    const err = await runGit(['rev-parse', '--verify', 'no-such-ref'], { cwd: repo.path }).catch((e: unknown) => e);
    expect(isHammerError(err, 'GIT_FAILED')).toBe(true);
    expect((err as Error).message).toMatch(/git rev-parse failed.*Needed a single revision/s);
  });

  it('passes input on stdin and returns stdout as bytes', async () => {
    repo = await createFixtureRepo({ files: { 'a.txt': 'a\n' } });
    const { stdout } = await runGit(['hash-object', '--stdin'], { cwd: repo.path, input: 'hello\n' });
    expect(stdout.toString().trim()).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });

  it('fails when the output exceeds maxBuffer', async () => {
    repo = await createFixtureRepo({ files: { 'a.txt': 'x'.repeat(10_000) } });
    const err = await runGit(['cat-file', '-p', 'HEAD:a.txt'], { cwd: repo.path, maxBuffer: 100 }).catch(
      (e: unknown) => e,
    );
    expect(isHammerError(err, 'GIT_FAILED')).toBe(true);
  });

  it('rejects with ABORTED when the signal fires', async () => {
    repo = await createFixtureRepo({ files: { 'a.txt': 'a\n' } });
    const controller = new AbortController();
    // cat-file --batch waits for stdin forever unless killed; stdin is closed by runGit, so use a pre-aborted signal.
    controller.abort();
    const err = await runGit(['status'], { cwd: repo.path, signal: controller.signal }).catch((e: unknown) => e);
    expect(isHammerError(err, 'ABORTED')).toBe(true);
  });
});
