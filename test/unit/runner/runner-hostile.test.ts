// A hostile repository plants hooks, filters, fsmonitor, external diff and worktree tricks; none of
// them may run (or redirect) the runner's git. Each attack is paired with a control that shows the
// planted trap is live for a plain git call.
import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostGit, makeWorkspace } from './run-host.js';

const FIX = `--- a/m.py
+++ b/m.py
@@ -1,2 +1,2 @@
 def f():
-    return 1
+    return 2
`;

describe('runner against a hostile repository', () => {
  let ws: Awaited<ReturnType<typeof makeWorkspace>>;
  let canaryDir: string;
  let trap: string;
  const canary = (): string => path.join(canaryDir, 'fired');

  beforeEach(async () => {
    canaryDir = await mkdtemp(path.join(tmpdir(), 'hb-canary-'));
    trap = path.join(canaryDir, 'trap.sh');
    await writeFile(trap, `#!/bin/sh\necho "$0 $*" >> '${path.join(canaryDir, 'fired')}'\ncat\n`);
    await chmod(trap, 0o755);
    ws = await makeWorkspace({
      'm.py': 'def f():\n    return 1\n',
      // In the tree from the start: a filter, a diff driver and CRLF conversion on every file.
      '.gitattributes': '* filter=evil diff=evil text eol=crlf\n',
    });
  });
  afterEach(async () => {
    await ws.cleanup();
    await rm(canaryDir, { recursive: true, force: true });
  });

  async function plantConfig(): Promise<void> {
    const hooks = path.join(canaryDir, 'hooks');
    await mkdir(hooks, { recursive: true });
    for (const name of [
      'pre-commit',
      'commit-msg',
      'post-commit',
      'post-checkout',
      'pre-applypatch',
      'reference-transaction',
    ]) {
      await writeFile(path.join(hooks, name), `#!/bin/sh\necho ${name} >> '${canary()}'\n`);
      await chmod(path.join(hooks, name), 0o755);
      await mkdir(path.join(ws.dir, '.git', 'hooks'), { recursive: true });
      await writeFile(path.join(ws.dir, '.git', 'hooks', name), `#!/bin/sh\necho local-${name} >> '${canary()}'\n`);
      await chmod(path.join(ws.dir, '.git', 'hooks', name), 0o755);
    }
    const set = (k: string, v: string): void => {
      expect(hostGit(ws.dir, 'config', k, v).status).toBe(0);
    };
    set('core.hooksPath', hooks);
    set('filter.evil.clean', trap);
    set('filter.evil.smudge', trap);
    set('filter.evil.required', 'true');
    set('diff.evil.textconv', trap);
    set('diff.external', trap);
    set('core.fsmonitor', trap);
    set('core.pager', trap);
    set('commit.gpgsign', 'true');
    set('gpg.program', trap);
    // The attributes the runner wrote are replaced by ones that switch the filter back on.
    await writeFile(path.join(ws.dir, '.git', 'info', 'attributes'), '* filter=evil\n');
  }

  it('the planted traps are live for plain git (control)', async () => {
    expect(ws.run('init').result?.ok).toBe(true);
    await plantConfig();
    await writeFile(path.join(ws.dir, 'm.py'), 'changed\n');
    hostGit(ws.dir, 'add', '-A');
    hostGit(ws.dir, 'commit', '-m', 'control');
    const fired = await readFile(canary(), 'utf8');
    expect(fired).toContain('trap.sh');
    expect(fired).toContain('pre-commit');
  });

  it('init stores the base byte-exactly without running the in-tree filter or converting line ends', async () => {
    const r = ws.run('init');
    expect(r.result?.ok).toBe(true);
    expect(hostGit(ws.dir, 'cat-file', 'blob', 'HEAD:m.py').stdout).toBe('def f():\n    return 1\n');
    expect(existsSync(canary())).toBe(false);
  });

  it('no op runs a hook, filter, textconv, external diff, fsmonitor, pager or gpg', async () => {
    expect(ws.run('init').result?.ok).toBe(true);
    await plantConfig();
    const patch = await ws.putPatch('fix.diff', FIX);
    expect(ws.run('apply-check', patch).result?.ok).toBe(true);
    expect(ws.run('apply', patch).result?.ok).toBe(true);
    expect(ws.run('status').result).toMatchObject({ ok: true, clean: false });
    const commit = ws.run('commit', 'iteration 1');
    expect(commit.result?.ok).toBe(true);
    const diff = ws.run('diff');
    expect(diff.result?.ok).toBe(true);
    expect(diff.output).toContain('+    return 2');
    await writeFile(path.join(ws.dir, 'm.py'), 'dirty\n');
    expect(ws.run('reset').result?.ok).toBe(true);
    expect(ws.run('tree').result?.ok).toBe(true);
    expect(ws.run('test', '30', 'true').result?.ok).toBe(true);
    expect(existsSync(canary())).toBe(false);
    // The commit holds exactly the patched bytes (no clean filter, no CRLF conversion).
    expect(hostGit(ws.dir, 'cat-file', 'blob', 'HEAD:m.py').stdout).toBe('def f():\n    return 2\n');
    expect(await readFile(path.join(ws.dir, 'm.py'), 'utf8')).toBe('def f():\n    return 2\n');
    // And the runner put its neutralising attributes back.
    expect(await readFile(path.join(ws.dir, '.git', 'info', 'attributes'), 'utf8')).toContain('-filter');
  });

  it.each(['a link to a file outside', 'a file naming the filter', 'a link in place of .git/info'])(
    'neutralising attributes planted as %s never writes outside the repository, and the filter never runs',
    async (what) => {
      const base = ws.run('init').result!.commit!;
      await plantConfig();
      const outside = path.join(canaryDir, 'outside');
      await writeFile(outside, "not the runner's\n");
      const info = path.join(ws.dir, '.git', 'info');
      const attributes = path.join(info, 'attributes');
      await rm(attributes, { force: true });
      if (what === 'a link to a file outside') await symlink(outside, attributes);
      else if (what === 'a file naming the filter') await writeFile(attributes, '* filter=evil\n');
      else {
        await rm(info, { recursive: true, force: true });
        await mkdir(path.join(canaryDir, 'info'));
        await symlink(path.join(canaryDir, 'info'), info);
      }
      const r = ws.run('step', base, 'reset', 'iter-01.patch', 'msg', '30', 'true', '', FIX);
      expect(r.result).toMatchObject({ applied: true, exit: 0 });
      expect(existsSync(canary())).toBe(false);
      expect(await readFile(outside, 'utf8')).toBe("not the runner's\n");
      expect(existsSync(path.join(canaryDir, 'info', 'attributes'))).toBe(false);
      expect((await lstat(info)).isDirectory()).toBe(true);
      expect((await lstat(attributes)).isFile()).toBe(true);
      expect(await readFile(attributes, 'utf8')).toContain('-filter');
      expect(hostGit(ws.dir, 'cat-file', 'blob', 'HEAD:m.py').stdout).toBe('def f():\n    return 2\n');
    },
  );

  it('a planted core.worktree or GIT_DIR does not redirect the runner', async () => {
    expect(ws.run('init').result?.ok).toBe(true);
    const elsewhere = path.join(canaryDir, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(path.join(elsewhere, 'm.py'), 'def f():\n    return 1\n');
    expect(hostGit(ws.dir, 'config', 'core.worktree', elsewhere).status).toBe(0);
    const patch = await ws.putPatch('fix.diff', FIX);
    expect(ws.run('apply', patch).result?.ok).toBe(true);
    expect(await readFile(path.join(ws.dir, 'm.py'), 'utf8')).toBe('def f():\n    return 2\n');
    expect(await readFile(path.join(elsewhere, 'm.py'), 'utf8')).toBe('def f():\n    return 1\n');
  });
});
