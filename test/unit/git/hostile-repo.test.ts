// A user repository whose local config, hooks and alternates try to run a program on the host.
// The whole host-side git flow must leave the canary untouched; each vector is paired with a
// control showing that plain git in the same repo does fire it.
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import tar from 'tar-stream';
import { afterEach, describe, expect, it } from 'vitest';
import { Workbench, baseTarStream, deliverBranch, resolveUserRepo } from '../../../src/git/index.js';
import {
  createFixtureRepo,
  diffSnapshots,
  snapshotRepo,
  tempDir,
  type FixtureRepo,
} from '../../helpers/fixture-repo.js';

const identity = { name: 'hammer-box', email: 'hammer-box@localhost' };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Canary {
  dir: string;
  file: string;
  /** A script that appends `tag` to the canary file and exits with `exit`. */
  script(tag: string, exit?: number): Promise<string>;
  fired(): Promise<string[]>;
}

async function canary(): Promise<Canary> {
  const dir = await tempDir('hb-canary-');
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'CANARY');
  return {
    dir,
    file,
    async script(tag, exit = 0) {
      const path = join(dir, `canary-${tag}.sh`);
      await writeFile(path, `#!/bin/sh\necho ${tag} >> '${file}'\ncat >/dev/null 2>&1 </dev/null\nexit ${exit}\n`);
      await chmod(path, 0o755);
      return path;
    },
    async fired() {
      const text = await readFile(file, 'utf8').catch(() => '');
      return [...new Set(text.split('\n').filter(Boolean))].sort();
    },
  };
}

async function drain(stream: Readable): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const extract = tar.extract();
  stream.on('error', (err) => extract.destroy(err));
  stream.pipe(extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    files.set(entry.header.name, Buffer.concat(chunks));
  }
  return files;
}

async function hostileRepo(c: Canary): Promise<{ repo: FixtureRepo; other: FixtureRepo }> {
  const repo = await createFixtureRepo({
    files: {
      'a.txt': 'committed a\n',
      'src/app.py': 'print("hi")\n',
      '.gitattributes': '*.txt filter=evil diff=evil\n*.py filter=evil\n',
    },
  });
  cleanups.push(() => repo.cleanup());
  const other = await createFixtureRepo({ files: { 'o.txt': 'o\n' } });
  cleanups.push(() => other.cleanup());
  const hook = await c.script('hook');

  // hooks, both through core.hooksPath and in .git/hooks
  const hooksDir = join(c.dir, 'hooks');
  await mkdir(hooksDir);
  const hookNames = [
    'reference-transaction',
    'pre-commit',
    'commit-msg',
    'post-commit',
    'post-checkout',
    'post-index-change',
    'pre-auto-gc',
    'post-rewrite',
    'pre-push',
    'post-merge',
  ];
  for (const name of hookNames) {
    for (const dir of [hooksDir, join(repo.path, '.git', 'hooks')]) {
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, name), `#!/bin/sh\nexec '${hook}' "$@"\n`);
      await chmod(join(dir, name), 0o755);
    }
  }
  const set = async (key: string, value: string): Promise<void> => void (await repo.git(['config', key, value]));
  await set('core.hooksPath', hooksDir);
  await set('core.fsmonitor', await c.script('fsmonitor', 1));
  const filter = await c.script('filter');
  await set('filter.evil.clean', filter);
  await set('filter.evil.smudge', filter);
  await set('filter.evil.required', 'true');
  await set('diff.external', await c.script('extdiff'));
  await set('diff.evil.textconv', await c.script('textconv'));
  await set('core.alternateRefsCommand', await c.script('altrefs'));
  await set('core.pager', await c.script('pager'));
  await set('commit.gpgSign', 'true');
  await set('gpg.program', await c.script('gpg', 1));
  await set('core.sshCommand', await c.script('ssh'));
  await set('core.askPass', await c.script('askpass'));
  await set('credential.helper', `!${await c.script('credential')}`);

  // include.path: a second config file that turns any fetch by path into an ext:: command
  const included = join(c.dir, 'included.config');
  const ext = await c.script('include', 1);
  await writeFile(
    included,
    `[url "ext::${ext} %S "]\n\tinsteadOf = /\n[protocol "ext"]\n\tallow = always\n[protocol "file"]\n\tallow = always\n`,
  );
  await set('include.path', included);

  // alternates: a real object store (so alternate refs are consulted) and the canary script itself
  await writeFile(
    join(repo.path, '.git', 'objects', 'info', 'alternates'),
    `${join(other.path, '.git', 'objects')}\n${hook}\n`,
  );
  return { repo, other };
}

describe('a hostile user repository', () => {
  it('runs nothing on the host through the whole flow, and the same vectors fire with plain git', async () => {
    const c = await canary();
    const { repo, other } = await hostileRepo(c);
    // uncommitted work and an untracked secret must stay put and stay out of the run
    await writeFile(join(repo.path, 'a.txt'), 'uncommitted edit\n');
    await writeFile(join(repo.path, 'untracked-secret.txt'), 'secret\n');
    const before = await snapshotRepo(repo.path);

    const user = await resolveUserRepo(repo.path, 'main');
    const wb = await Workbench.create(user, user.baseCommit, { identity });
    cleanups.push(() => wb.dispose());
    const applied = await wb.applyPatch(
      'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-committed a\n+patched a\n',
      {
        iteration: 1,
        summary: 'patch a',
      },
    );
    expect(applied.ok).toBe(true);
    const rejected = await wb.applyPatch(
      'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-nope\n+x\n',
      { iteration: 2, summary: 'x' },
    );
    expect(rejected.ok).toBe(false);
    expect((await wb.listTree(wb.head())).entries.map((e) => e.path)).toEqual([
      '.gitattributes',
      'a.txt',
      'src/app.py',
    ]);
    const read = await wb.readFiles(wb.head(), ['a.txt', 'src/app.py'], { maxBytesPerFile: 1000 });
    expect(read.files.map((f) => f.content)).toEqual(['patched a\n', 'print("hi")\n']);
    expect(await wb.diff(wb.baseCommit, wb.head())).toContain('+patched a');
    const archive = baseTarStream(wb, wb.baseCommit, { uid: 1000, gid: 1000 });
    const files = await drain(archive.stream);
    await archive.done;
    expect(files.get('a.txt')?.toString()).toBe('committed a\n');
    expect(files.has('untracked-secret.txt')).toBe(false);
    await deliverBranch({ userRepo: user, workbench: wb, commit: wb.head(), names: ['EngineerExternal/hostile'] });
    await wb.dispose();

    expect(await c.fired()).toEqual([]);
    await expect(stat(c.file)).rejects.toThrow();
    const diff = diffSnapshots(before, await snapshotRepo(repo.path));
    expect(diff).toEqual({
      added: ['.git/refs/heads/EngineerExternal', '.git/refs/heads/EngineerExternal/hostile'],
      removed: [],
      changed: [],
    });
    expect(await readFile(join(repo.path, 'a.txt'), 'utf8')).toBe('uncommitted edit\n');

    // Controls: plain git in the same repository does run each of them.
    const plain = (args: string[]): Promise<unknown> => repo.git(args).catch(() => undefined);
    await plain(['status']); // fsmonitor (and the clean filter for the edited file)
    await plain(['-c', 'core.pager=', 'diff']); // diff.external
    await plain(['-c', 'diff.external=', '-c', 'core.pager=', 'diff', '--textconv', '--no-ext-diff']); // textconv
    await plain(['fetch', '--no-write-fetch-head', other.path, 'main']); // include.path's insteadOf turns the path into ext::
    await plain(['fetch', '--no-write-fetch-head', `file://${other.path}`, 'main']); // alternateRefsCommand
    await plain(['-c', 'commit.gpgSign=false', 'commit', '--allow-empty', '-m', 'control']); // hooks
    expect(await c.fired()).toEqual(
      expect.arrayContaining(['altrefs', 'extdiff', 'filter', 'fsmonitor', 'hook', 'include', 'textconv']),
    );
  });

  it('never lazily fetches a missing object of a partial clone (its promisor remote runs a program)', async () => {
    const c = await canary();
    const repo = await createFixtureRepo({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n' } });
    cleanups.push(() => repo.cleanup());
    const blob = (await repo.git(['rev-parse', 'HEAD:b.txt'])).trim();
    await rm(join(repo.path, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
    await repo.git(['config', 'core.repositoryFormatVersion', '1']);
    await repo.git(['config', 'extensions.partialClone', 'origin']);
    await repo.git(['config', 'remote.origin.url', repo.path]);
    await repo.git(['config', 'remote.origin.promisor', 'true']);
    await repo.git(['config', 'remote.origin.uploadpack', await c.script('lazyfetch', 1)]);
    await repo.git(['config', 'protocol.file.allow', 'always']);

    const user = await resolveUserRepo(repo.path, 'main');
    const wb = await Workbench.create(user, user.baseCommit, { identity });
    cleanups.push(() => wb.dispose());
    const read = await wb.readFiles(wb.head(), ['a.txt'], { maxBytesPerFile: 100 });
    expect(read.files[0]?.content).toBe('a\n');
    const archive = baseTarStream(wb, wb.head(), { uid: 1, gid: 1 });
    await expect(drain(archive.stream)).rejects.toThrow();
    await expect(archive.done).rejects.toMatchObject({ code: 'GIT_FAILED' });
    const readMissing = await wb.readFiles(wb.head(), ['b.txt'], { maxBytesPerFile: 100 }).catch((e: unknown) => e);
    expect(readMissing).toMatchObject({ code: 'GIT_FAILED' });
    expect(await c.fired()).toEqual([]);

    // Control: plain git in that repository runs the promisor's upload-pack command.
    await repo.git(['cat-file', '-p', blob]).catch(() => undefined);
    expect(await c.fired()).toEqual(['lazyfetch']);
  });
});
