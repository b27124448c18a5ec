// Hostile local git configuration in the user's repository, end to end through `hammer-box run`:
// fsmonitor, hooks (core.hooksPath and .git/hooks), filter and diff drivers, external diff,
// include.path, alternates, and every other config key that runs a program. Plain git in the same
// repository fires each of them (the control); the whole run fires none.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureRepo, snapshotRepo } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { answerWith, FIX_PATCH } from '../helpers/python-fixture.js';
import { requireBuiltCli } from './support/cli.js';
import { attack } from './support/record.js';
import {
  createScene,
  expectCanarySafe,
  expectNoLeftovers,
  expectRepoIntact,
  runScene,
  type Scene,
} from './support/scene.js';

let s: Scene;
const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => {
  requireBuiltCli();
  await toolchainImage('python');
  s = await createScene({
    files: { '.gitattributes': '* filter=evil diff=evil\n' },
    answers: [{ answer: answerWith(FIX_PATCH) }],
  });
});
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await s?.cleanup();
});

describe('hostile git config in the user repository', () => {
  it('runs no configured program on the host during a whole run, while plain git does', async () => {
    const repo = s.fx.repo;
    const fired = join(s.canary.dir, 'fired.log');
    const script = async (tag: string, body = ''): Promise<string> => {
      const path = join(s.canary.dir, `evil-${tag}.sh`);
      // appends its tag, also tries to read the canary file out through stdout
      await writeFile(
        path,
        `#!/bin/sh\necho ${tag} >> '${fired}'\ncat '${s.canary.file}' 2>/dev/null\n${body}\nexit 0\n`,
      );
      await chmod(path, 0o755);
      return path;
    };
    const set = async (key: string, value: string): Promise<void> => void (await repo.git(['config', key, value]));
    const hooks = join(s.canary.dir, 'hooks');
    await mkdir(hooks);
    const hook = await script('hook');
    for (const name of [
      'pre-commit',
      'commit-msg',
      'post-commit',
      'post-checkout',
      'reference-transaction',
      'post-index-change',
      'pre-auto-gc',
      'post-rewrite',
      'pre-push',
      'post-merge',
      'pre-receive',
      'update',
      'post-update',
    ]) {
      for (const dir of [hooks, join(repo.path, '.git', 'hooks')]) {
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, name), `#!/bin/sh\nexec '${hook}' "$@"\n`);
        await chmod(join(dir, name), 0o755);
      }
    }
    await set('core.hooksPath', hooks);
    // control for the hooks (before the filters below make plain git's commit fail early)
    await repo.git(['commit', '--allow-empty', '-m', 'control']).catch(() => '');
    await repo.git(['reset', '--soft', 'HEAD~1']).catch(() => '');
    await set('core.fsmonitor', await script('fsmonitor'));
    const filter = await script('filter', 'cat');
    await set('filter.evil.clean', filter);
    await set('filter.evil.smudge', filter);
    await set('filter.evil.process', filter);
    await set('filter.evil.required', 'true');
    await set('diff.external', await script('diff-external'));
    await set('diff.evil.command', await script('diff-driver'));
    await set('diff.evil.textconv', await script('textconv'));
    await set('core.pager', await script('pager'));
    await set('core.editor', await script('editor'));
    await set('core.sshCommand', await script('ssh'));
    await set('core.askPass', await script('askpass'));
    await set('credential.helper', `!${await script('credential')}`);
    await set('gpg.program', await script('gpg'));
    await set('commit.gpgsign', 'true');
    await set('core.alternateRefsCommand', await script('alternate-refs'));
    await set('uploadpack.packObjectsHook', await script('pack-objects-hook'));
    await set('alias.status', `!${await script('alias')}`);
    const included = join(s.canary.dir, 'included.gitconfig');
    await writeFile(
      included,
      `[core]\n\tfsmonitor = ${await script('include-fsmonitor')}\n[diff]\n\texternal = ${await script('include-diff')}\n`,
    );
    await set('include.path', included);
    // alternates: another repository's objects, whose config also carries a hook path
    const other = await createFixtureRepo({ files: { 'o.txt': 'other\n' } });
    cleanups.push(() => other.cleanup());
    await writeFile(
      join(repo.path, '.git', 'objects', 'info', 'alternates'),
      `${join(other.path, '.git', 'objects')}\n`,
    );
    await other.git(['config', 'core.fsmonitor', await script('alternate-fsmonitor')]);

    // control: plain git in this repository runs them
    await repo.git(['status']).catch(() => '');
    await repo.git(['diff', 'HEAD~0']).catch(() => '');
    const control = new Set((await readFile(fired, 'utf8').catch(() => '')).split('\n').filter(Boolean));
    expect([...control].sort().join(','), 'plain git fired').toMatch(/fsmonitor/);
    expect([...control].sort().join(','), 'plain git fired').toMatch(/hook/);

    await writeFile(fired, '');
    s.before = await snapshotRepo(repo.path);
    const out = await runScene(s);
    await attack(
      'hostile git config in the user repo (fsmonitor, hooks, filters, diff.external, include.path, alternates, ...)',
      'nothing runs on the host; run completes',
      async () => {
        expect(out.result.code, out.result.stderr.slice(-1500)).toBe(0);
        expect(out.state.status).toBe('stable');
        const ran = (await readFile(fired, 'utf8')).split('\n').filter(Boolean);
        expect(ran).toEqual([]);
        const branches = await expectRepoIntact(s);
        expect(branches).toHaveLength(1);
        await expectNoLeftovers(out.runId);
        await expectCanarySafe(s, out);
        return `control: plain git fired ${[...control].sort().join(', ')}; the run fired none and delivered ${branches[0]!.replace('.git/refs/heads/', '')}`;
      },
    );
  });
});
