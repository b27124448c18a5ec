// The runner's `init <paths-file> <pack> <tree>`: with the host's pack of the base tree, the base
// commit is the one hashing every file gives, the index is clean, nothing was stored loose but the
// commit; a file that differs from the tree (the baseline's tests changed it) fails the init.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveUserRepo, Workbench, writeBasePack, type BasePack } from '../../../src/git/index.js';
import { createFixtureRepo } from '../../helpers/fixture-repo.js';
import { hostGit, makeWorkspace } from './run-host.js';

const FILES = { 'm.py': 'x = 1\n', 'pkg/a.txt': 'a\n', 'ü/名前.txt': 'n\n' };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A workspace holding FILES and their path list, with the base pack placed where the host puts it. */
async function placed(withPack: boolean): Promise<{ ws: Awaited<ReturnType<typeof makeWorkspace>>; pack: BasePack }> {
  const repo = await createFixtureRepo({ files: FILES });
  cleanups.push(() => repo.cleanup());
  const user = await resolveUserRepo(repo.path, 'main');
  const wb = await Workbench.create(user, user.baseCommit, { identity: { name: 'h', email: 'h@localhost' } });
  cleanups.push(() => wb.dispose());
  const pack = await writeBasePack(wb, wb.tree());
  cleanups.push(() => pack.dispose());
  const ws = await makeWorkspace(FILES);
  cleanups.push(() => ws.cleanup());
  const hammer = path.join(ws.dir, '.git', 'hammer');
  await mkdir(hammer, { recursive: true });
  await writeFile(path.join(hammer, 'base-paths'), Object.keys(FILES).join('\0') + '\0');
  if (withPack) {
    await copyFile(pack.pack, path.join(hammer, 'base.pack'));
    await copyFile(pack.idx, path.join(hammer, 'base.idx'));
  }
  return { ws, pack };
}

describe('runner init from the base pack', () => {
  it('makes the same base commit as hashing every file, with a clean index and the objects in the pack', async () => {
    const packed = await placed(true);
    const hashed = await placed(false);
    const a = packed.ws.run('init', '.git/hammer/base-paths', packed.pack.hash, packed.pack.tree);
    const b = hashed.ws.run('init', '.git/hammer/base-paths');
    expect(a.status, a.stderr).toBe(0);
    expect(b.status, b.stderr).toBe(0);
    expect(a.result?.tree).toBe(packed.pack.tree);
    expect(a.result?.commit).toBe(b.result?.commit);
    expect(hostGit(packed.ws.dir, 'status', '--porcelain').stdout).toBe('');
    expect(hostGit(packed.ws.dir, 'diff-index', '--cached', '--quiet', 'HEAD').status).toBe(0);
    expect(hostGit(packed.ws.dir, 'ls-files', '-s').stdout).toBe(hostGit(hashed.ws.dir, 'ls-files', '-s').stdout);
    const counted = hostGit(packed.ws.dir, 'count-objects', '-v').stdout;
    expect(counted).toMatch(/^count: 1$/m);
    expect(counted).toMatch(/^packs: 1$/m);
    expect(hostGit(packed.ws.dir, 'fsck', '--full', '--no-progress').status).toBe(0);
  });

  it('fails when a file differs from the tree (changed content or mode)', async () => {
    const { ws, pack } = await placed(true);
    await writeFile(path.join(ws.dir, 'pkg', 'a.txt'), 'changed by a test\n');
    const r = ws.run('init', '.git/hammer/base-paths', pack.hash, pack.tree);
    expect(r.status).toBe(1);
    expect(r.result).toMatchObject({ op: 'init', ok: false });
  });

  it('refuses a malformed pack or tree id, a missing pack and a lone extra argument', async () => {
    const { ws, pack } = await placed(true);
    expect(ws.run('init', '.git/hammer/base-paths', pack.hash).status).toBe(2);
    expect(ws.run('init', '.git/hammer/base-paths', '../x', pack.tree).status).toBe(2);
    expect(ws.run('init', '.git/hammer/base-paths', pack.hash, 'HEAD').status).toBe(2);
    const bare = await placed(false);
    expect(bare.ws.run('init', '.git/hammer/base-paths', bare.pack.hash, bare.pack.tree).status).toBe(2);
  });
});
