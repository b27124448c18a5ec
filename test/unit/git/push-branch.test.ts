// The push `hammer-box pr` makes, with real git against a real bare repository: only the branch,
// under its own name; never a tag (even with push.followTags); and nothing the repository's local
// config or hooks name runs (its pre-push hook shown firing for plain git first). The credentials and
// ssh command come from your own git config, never from the repository's.
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { userRepoGit, resolveUserRepo } from '../../../src/git/index.js';
import { pushBranch, remotePushUrl, userPushConfig } from '../../../src/git/push-branch.js';
import { createFixtureRepo, fixtureGitEnv, tempDir } from '../../helpers/fixture-repo.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function temp(prefix: string): Promise<string> {
  const dir = await tempDir(prefix);
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function git(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = fixtureGitEnv(),
): { status: number | null; out: string } {
  const r = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}`.trim() };
}

describe('pushBranch', () => {
  it('pushes only the branch, never a tag, and runs nothing the repository config names', async () => {
    const dir = await temp('hb-push-');
    const canary = join(dir, 'CANARY');
    const script = join(dir, 'fire.sh');
    await writeFile(script, `#!/bin/sh\necho fired >> '${canary}'\ncat >/dev/null 2>&1\nexit 0\n`);
    await chmod(script, 0o755);
    const bare = join(dir, 'remote.git');
    await mkdir(bare);
    git(['init', '--bare', '-q', bare], dir);
    const repo = await createFixtureRepo({ files: { 'a.txt': 'a\n' } });
    cleanups.push(() => repo.cleanup());
    await repo.git(['branch', 'EngineerExternal/run-1']);
    await repo.git(['tag', '-a', '-m', 'release', 'v1.0']);
    await repo.git(['remote', 'add', 'origin', bare]);
    // the control: plain git push in this repository fires a pre-push hook
    const hooks = join(dir, 'hooks');
    await mkdir(hooks);
    await writeFile(join(hooks, 'pre-push'), `#!/bin/sh\n'${script}'\n`);
    await chmod(join(hooks, 'pre-push'), 0o755);
    await repo.git(['config', 'core.hooksPath', hooks]);
    expect(git(['push', '-q', '--dry-run', 'origin', 'main'], repo.path).status).toBe(0);
    expect(await readFile(canary, 'utf8')).toBe('fired\n');
    await rm(canary);
    // every other vector the local config has
    for (const [k, v] of [
      ['core.fsmonitor', script],
      ['credential.helper', `!${script}`],
      ['remote.origin.receivepack', script],
      ['core.sshCommand', script],
      ['push.followTags', 'true'],
      ['push.recurseSubmodules', 'on-demand'],
    ])
      await repo.git(['config', k!, v!]);

    const user = await resolveUserRepo(repo.path, '');
    const gitOpts = userRepoGit(user);
    const remote = await remotePushUrl(gitOpts, 'origin');
    expect(remote).toMatchObject({ transport: 'file', url: bare });
    const hostEnv = { ...fixtureGitEnv(), HOME: dir };
    expect(await pushBranch(gitOpts, remote, 'EngineerExternal/run-1', { hostEnv })).toBe('created');
    expect(await pushBranch(gitOpts, remote, 'EngineerExternal/run-1', { hostEnv })).toBe('up-to-date');
    expect(git(['for-each-ref', '--format=%(refname)'], bare).out).toBe('refs/heads/EngineerExternal/run-1');
    expect(await readFile(canary, 'utf8').catch(() => '')).toBe('');
  });
});

describe('userPushConfig', () => {
  it('takes the credential helpers and ssh command of your global config, with GIT_SSH_COMMAND first', async () => {
    const home = await temp('hb-home-');
    await writeFile(
      join(home, '.gitconfig'),
      '[credential]\n\thelper = store\n[credential "https://github.com"]\n\thelper = !gh auth git-credential\n[core]\n\tsshCommand = ssh -i ~/.ssh/work\n[user]\n\tname = me\n',
    );
    const env = { PATH: process.env['PATH'], HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
    expect(await userPushConfig('https', env)).toEqual([
      ['credential.helper', 'store'],
      ['credential.https://github.com.helper', '!gh auth git-credential'],
    ]);
    expect((await userPushConfig('ssh', env)).at(-1)).toEqual(['core.sshCommand', 'ssh -i ~/.ssh/work']);
    expect((await userPushConfig('ssh', { ...env, GIT_SSH_COMMAND: 'ssh -F /dev/null' })).at(-1)).toEqual([
      'core.sshCommand',
      'ssh -F /dev/null',
    ]);
    expect(await userPushConfig('ssh', { ...env, HOME: await temp('hb-empty-home-') })).toEqual([
      ['core.sshCommand', 'ssh -o BatchMode=yes'],
    ]);
  });
});
