// The sandbox's repository after prepare's copy and init, made from the host's pack of the base
// tree (nothing left out) or by hashing the files in the sandbox (something left out): either way
// the base commit is the one the loop expects for that tree, `git status` is clean and the index
// is exactly the tree, with executables, symlinks, non-ASCII names and a submodule entry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import { resolveUserRepo, runGit, Workbench } from '../../src/git/index.js';
import { copyHead, initSandboxRepo, type InitOptions } from '../../src/loop/sandbox-init.js';
import { sandboxSpec } from '../../src/loop/sandbox-spec.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { createFixtureRepo, type FixtureRepo } from '../helpers/fixture-repo.js';
import { toolchainImage } from '../helpers/images.js';
import { testEngine } from './sandbox-fixtures.js';

const { engine } = testEngine();
const made: Sandbox[] = [];
const repos: FixtureRepo[] = [];
const workbenches: Workbench[] = [];

const FILES = {
  'README.md': '# demo\n',
  'bin/run.sh': { content: '#!/bin/sh\necho run\n', executable: true },
  'src/main.py': 'print("hi")\n',
  'src/läuft/ünïcødé 名前.txt': 'non-ascii\n',
  'docs/link.md': { symlink: '../README.md' },
  'empty.txt': '',
  '.gitattributes': '* text=auto eol=crlf\n*.py filter=evil\n',
} as const;

/** The commit the sandbox's runner makes for `tree` (fixed identity and date, message "base"). */
async function expectedBase(repo: FixtureRepo, tree: string): Promise<string> {
  const who = 'hammer-box <hammer-box@localhost> 946684800 +0000';
  const text = `tree ${tree}\nauthor ${who}\ncommitter ${who}\n\nbase\n`;
  const r = await runGit(['hash-object', '-t', 'commit', '--stdin'], { cwd: repo.path, input: text });
  return r.stdout.toString('utf8').trim();
}

async function sandboxGit(sandbox: Sandbox, args: string[]): Promise<string> {
  const r = await sandbox.exec(['git', '-c', 'safe.directory=*', '-c', 'core.quotePath=false', ...args], {
    timeoutMs: 60_000,
  });
  expect(r.exitCode, r.stderr.text).toBe(0);
  return r.stdout.text;
}

/** Copy the repository's HEAD in and make the sandbox's repository, as prepare does. */
async function prepared(repo: FixtureRepo, whole: 'auto' | false) {
  const userRepo = await resolveUserRepo(repo.path, 'HEAD', {});
  const workbench = await Workbench.create(userRepo, userRepo.baseCommit, {
    identity: { name: 'hammer-box', email: 'hammer-box@localhost' },
  });
  workbenches.push(workbench);
  const { config } = await resolveConfig({ env: {} });
  const spec = sandboxSpec(config, `test-init-${process.pid}-${made.length}`, await toolchainImage());
  const sandbox = await engine.create(spec);
  made.push(sandbox);
  const [uid, gid] = config.sandbox.user.split(':').map(Number) as [number, number];
  const o: InitOptions = { sandbox, workbench, uid, gid, execTimeoutMs: 60_000 };
  const { skipped } = await copyHead(o);
  const base = await initSandboxRepo({ ...o, whole: whole === 'auto' && skipped === 0 });
  return { sandbox, workbench, base, skipped };
}

/** What a correct sandbox repository looks like for a host tree. */
async function expectExactRepo(sandbox: Sandbox, commit: string, tree: string, hostListing: string) {
  expect(await sandboxGit(sandbox, ['rev-parse', 'HEAD', 'HEAD^{tree}', 'refs/hammer/base'])).toBe(
    `${commit}\n${tree}\n${commit}\n`,
  );
  expect(await sandboxGit(sandbox, ['status', '--porcelain', '--untracked-files=all', '--ignored'])).toBe('');
  // the index is the tree: same entries, modes and blobs, and nothing staged against HEAD
  const staged = await sandbox.exec(['git', '-c', 'safe.directory=*', 'diff-index', '--cached', '--quiet', 'HEAD'], {
    timeoutMs: 60_000,
  });
  expect(staged.exitCode).toBe(0);
  const index = await sandboxGit(sandbox, ['ls-files', '-s']);
  const fromIndex = index
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [meta = '', path = ''] = l.split('\t');
      const [mode, oid] = meta.split(' ');
      return `${mode} ${oid}\t${path}`;
    });
  expect(fromIndex.join('\n')).toBe(hostListing);
  await sandboxGit(sandbox, ['fsck', '--no-progress', '--full']);
}

/** The host's listing of a tree as "<mode> <oid>\t<path>", the way ls-files -s shows an index. */
async function hostListing(repo: FixtureRepo, tree: string, omitGitlinks: boolean): Promise<string> {
  const out = await repo.git(['-c', 'core.quotePath=false', 'ls-tree', '-r', '--full-tree', tree]);
  return out
    .split('\n')
    .filter((l) => l && !(omitGitlinks && l.startsWith('160000 ')))
    .map((l) => {
      const [meta = '', path = ''] = l.split('\t');
      const [mode, , oid] = meta.split(' ');
      return `${mode} ${oid}\t${path}`;
    })
    .join('\n');
}

beforeAll(async () => {
  repos.push(await createFixtureRepo({ files: FILES }));
  const withSubmodule = await createFixtureRepo({ files: FILES });
  // a submodule entry (a gitlink): the archive leaves it out, so the sandbox's tree lacks it
  await withSubmodule.git(['update-index', '--add', '--cacheinfo', `160000,${'a'.repeat(40)},vendor/lib`]);
  await withSubmodule.git(['commit', '--quiet', '--no-verify', '-m', 'submodule']);
  repos.push(withSubmodule);
});
afterAll(async () => {
  await Promise.allSettled(made.map((s) => s.destroy()));
  await Promise.allSettled(workbenches.map((w) => w.dispose()));
  await Promise.allSettled(repos.map((r) => r.cleanup()));
});

describe("the sandbox's repository after prepare", () => {
  it('from the base pack: the same base commit as hashing every file, a clean status, the index equal to the tree', async () => {
    const repo = repos[0]!;
    const tree = (await repo.git(['rev-parse', 'HEAD^{tree}'])).trim();
    const packed = await prepared(repo, 'auto');
    const hashed = await prepared(repo, false);
    expect(packed.skipped).toBe(0);
    // the pack went in and was used: the objects sit in a pack, not loose
    const counted = await sandboxGit(packed.sandbox, ['count-objects', '-v']);
    expect(counted).toMatch(/^packs: 1$/m);
    expect(counted).toMatch(/^count: 1$/m); // the base commit only
    expect(await sandboxGit(hashed.sandbox, ['count-objects', '-v'])).toMatch(/^packs: 0$/m);
    const commit = await expectedBase(repo, tree);
    expect(packed.base).toEqual({ commit, tree, comparable: true });
    expect(hashed.base).toEqual(packed.base);
    const listing = await hostListing(repo, tree, false);
    expect(listing).toContain('120000 ');
    expect(listing).toContain('100755 ');
    expect(listing).toContain('ünïcødé 名前.txt');
    await expectExactRepo(packed.sandbox, commit, tree, listing);
    await expectExactRepo(hashed.sandbox, commit, tree, listing);
  });

  it('with a submodule entry left out: hashed in the sandbox, the tree without it, clean and exact', async () => {
    const repo = repos[1]!;
    const r = await prepared(repo, 'auto');
    expect(r.skipped).toBe(1);
    expect(r.base.comparable).toBe(false);
    const listing = await hostListing(repo, 'HEAD^{tree}', true);
    expect(listing).not.toContain('vendor/lib');
    await expectExactRepo(r.sandbox, r.base.commit, r.base.tree, listing);
    expect(r.base.commit).toBe(await expectedBase(repo, r.base.tree));
  });
});
