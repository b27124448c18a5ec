// The runner's agent-mode ops on the host: `candidate` (the work tree's change against a commit, as a
// binary-safe diff, without build outputs) and `inspect` (what a path is, links refused), also where
// coreutils' `stat` and `ls` are refused (gVisor's runsc 20221219 answers their statx "Invalid argument").
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostGit, makeWorkspace } from './run-host.js';

describe('runner agent ops', () => {
  let ws: Awaited<ReturnType<typeof makeWorkspace>>;
  let base: string;
  beforeEach(async () => {
    ws = await makeWorkspace({ 'm.py': 'def f():\n    return 1\n', 'lib/a.txt': 'a\n', '.gitignore': 'ignored/\n' });
    base = ws.run('init').result!.commit!;
  });
  afterEach(async () => {
    await ws.cleanup();
  });
  const patch = (): Promise<string> => readFile(path.join(ws.dir, '.git/hammer/candidate.patch'), 'utf8');

  it('candidate: an unchanged tree gives an empty patch', async () => {
    const r = ws.run('candidate', base);
    expect(r.result).toMatchObject({ op: 'candidate', ok: true, bytes: 0 });
    expect(await patch()).toBe('');
  });

  it('candidate: edits, new files, deletions and mode changes; build outputs and ignored files left out', async () => {
    await writeFile(path.join(ws.dir, 'm.py'), 'def f():\n    return 2\n');
    await writeFile(path.join(ws.dir, 'new.py'), 'x = 1\n');
    await unlink(path.join(ws.dir, 'lib/a.txt'));
    await mkdir(path.join(ws.dir, '__pycache__'));
    await writeFile(path.join(ws.dir, '__pycache__/m.cpython-313.pyc'), Buffer.from([0, 1, 2]));
    await mkdir(path.join(ws.dir, 'ignored'));
    await writeFile(path.join(ws.dir, 'ignored/x'), 'y');
    await writeFile(path.join(ws.dir, 'bin.dat'), Buffer.from([0, 255, 0, 1]));
    await writeFile(path.join(ws.dir, 'run.sh'), '#!/bin/sh\n');
    await chmod(path.join(ws.dir, 'run.sh'), 0o755);
    const r = ws.run('candidate', base);
    const text = await patch();
    expect(r.result?.ok).toBe(true);
    expect(r.result?.bytes).toBe(Buffer.byteLength(text));
    const files = [...text.matchAll(/^diff --git a\/(\S+) /gm)].map((m) => m[1]);
    expect(files).toEqual(['bin.dat', 'lib/a.txt', 'm.py', 'new.py', 'run.sh']);
    expect(text).toContain('GIT binary patch');
    expect(text).toContain('+    return 2');
    expect(text).toContain('new file mode 100755');
    expect(text).toContain('deleted file mode 100644');
    // nothing of the sandbox's own repository changed
    expect(hostGit(ws.dir, 'rev-parse', 'HEAD').stdout.trim()).toBe(base);
    expect(hostGit(ws.dir, 'diff', '--cached', '--name-only').stdout).toBe('');
  });

  it('candidate: a commit made in the work tree does not hide the change', async () => {
    await writeFile(path.join(ws.dir, 'm.py'), 'def f():\n    return 3\n');
    hostGit(ws.dir, 'commit', '-qam', 'moved HEAD');
    const r = ws.run('candidate', base);
    expect(r.result?.ok).toBe(true);
    expect(await patch()).toContain('+    return 3');
  });

  it('candidate: refuses anything but an object id', () => {
    expect(ws.run('candidate', 'HEAD').result).toMatchObject({ ok: false, exit: 2 });
    expect(ws.run('candidate').result).toMatchObject({ ok: false, exit: 2 });
  });

  it('restore: the work tree back to the commit plus a change, HEAD and the index untouched', async () => {
    await writeFile(path.join(ws.dir, 'm.py'), 'def f():\n    return 2\n');
    await writeFile(path.join(ws.dir, 'new.py'), 'x = 1\n');
    await unlink(path.join(ws.dir, 'lib/a.txt'));
    ws.run('candidate', base);
    const change = await patch();
    // what a command did afterwards: more edits, a commit, junk
    await writeFile(path.join(ws.dir, 'm.py'), 'broken(\n');
    await writeFile(path.join(ws.dir, 'junk.txt'), 'junk\n');
    hostGit(ws.dir, 'add', '-A');
    hostGit(ws.dir, 'commit', '-qm', 'moved HEAD');
    const saved = await ws.putPatch('restore.patch', change);
    expect(ws.run('restore', base, saved).result).toMatchObject({ op: 'restore', ok: true, commit: base });
    expect(await readFile(path.join(ws.dir, 'm.py'), 'utf8')).toBe('def f():\n    return 2\n');
    expect(await readFile(path.join(ws.dir, 'new.py'), 'utf8')).toBe('x = 1\n');
    await expect(readFile(path.join(ws.dir, 'lib/a.txt'))).rejects.toThrow();
    await expect(readFile(path.join(ws.dir, 'junk.txt'))).rejects.toThrow();
    expect(hostGit(ws.dir, 'rev-parse', 'HEAD').stdout.trim()).toBe(base);
    expect(hostGit(ws.dir, 'diff', '--cached', '--name-only').stdout).toBe('');
    // the same change comes back out
    ws.run('candidate', base);
    expect(await patch()).toBe(change);
    // no patch: exactly the commit
    expect(ws.run('restore', base).result).toMatchObject({ ok: true });
    expect(await readFile(path.join(ws.dir, 'm.py'), 'utf8')).toBe('def f():\n    return 1\n');
    await expect(readFile(path.join(ws.dir, 'new.py'))).rejects.toThrow();
  });

  it('restore: a patch that does not apply leaves the commit; bad arguments are refused', async () => {
    const bad = await ws.putPatch(
      'bad.patch',
      'diff --git a/nope b/nope\n--- a/nope\n+++ b/nope\n@@ -1 +1 @@\n-a\n+b\n',
    );
    await writeFile(path.join(ws.dir, 'm.py'), 'changed\n');
    expect(ws.run('restore', base, bad).result).toMatchObject({ ok: false, exit: 1 });
    expect(await readFile(path.join(ws.dir, 'm.py'), 'utf8')).toBe('def f():\n    return 1\n');
    expect(ws.run('restore', 'HEAD').result).toMatchObject({ ok: false, exit: 2 });
    expect(ws.run('restore', base, 'm.py').result).toMatchObject({ ok: false, exit: 2 });
  });

  it('inspect: files, missing paths, directories, links anywhere on the path, .git', async () => {
    await chmod(path.join(ws.dir, 'm.py'), 0o755);
    expect(ws.run('inspect', 'm.py').result).toMatchObject({
      ok: true,
      link: false,
      exists: true,
      regular: true,
      mode: 755,
      size: 22,
    });
    expect(ws.run('inspect', 'lib/new/deep.py').result).toMatchObject({ ok: true, link: false, exists: false });
    expect(ws.run('inspect', 'lib').result).toMatchObject({ ok: true, exists: true, regular: false });
    expect(ws.run('inspect', 'm.py/x').result).toMatchObject({ ok: true, blocked: true, exists: false });
    await symlink('/etc', path.join(ws.dir, 'etc'));
    await symlink('m.py', path.join(ws.dir, 'alias.py'));
    expect(ws.run('inspect', 'etc/passwd').result).toMatchObject({ ok: true, link: true });
    expect(ws.run('inspect', 'alias.py').result).toMatchObject({ ok: true, link: true });
    await rm(path.join(ws.dir, 'etc'));
    for (const bad of ['.git/config', '../x', 'a/../b', '/etc/passwd', '', 'a//b', './m.py'])
      expect(ws.run('inspect', bad).result, bad).toMatchObject({ ok: false, exit: 2 });
  });

  it('inspect: the same facts where stat and ls fail as they do on gVisor (statx refused)', async () => {
    const bin = await mkdtemp(path.join(tmpdir(), 'hb-nostatx-'));
    try {
      for (const tool of ['stat', 'ls'])
        await writeFile(
          path.join(bin, tool),
          `#!/bin/sh\necho "${tool}: cannot statx '$3': Invalid argument" >&2\nexit 1\n`,
          { mode: 0o755 },
        );
      const gv = await makeWorkspace({ 'm.py': 'def f():\n    return 1\n', 'lib/a.txt': 'a\n' }, [bin]);
      try {
        expect(gv.run('init').result?.ok).toBe(true);
        await chmod(path.join(gv.dir, 'm.py'), 0o754);
        expect(gv.run('inspect', 'm.py').result).toMatchObject({
          ok: true,
          link: false,
          exists: true,
          regular: true,
          mode: 754,
          size: 22,
        });
        expect(gv.run('inspect', 'lib').result).toMatchObject({ ok: true, exists: true, regular: false });
      } finally {
        await gv.cleanup();
      }
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
  });
});
