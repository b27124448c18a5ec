import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import tar from 'tar-stream';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BASE_PACK_PATHS,
  basePackTar,
  resolveUserRepo,
  runGit,
  Workbench,
  writeBasePack,
} from '../../../src/git/index.js';
import { createFixtureRepo } from '../../helpers/fixture-repo.js';

const identity = { name: 'hammer-box', email: 'hammer-box@localhost' };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function entries(stream: Readable) {
  const out: { name: string; type: string; mode: number; uid: number; gid: number; data: Buffer }[] = [];
  const extract = tar.extract();
  stream.on('error', (err) => extract.destroy(err));
  stream.pipe(extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    const h = entry.header;
    out.push({
      name: h.name,
      type: h.type,
      mode: h.mode ?? 0,
      uid: h.uid ?? -1,
      gid: h.gid ?? -1,
      data: Buffer.concat(chunks),
    });
  }
  return out;
}

describe('writeBasePack', () => {
  it("packs exactly the tree's trees and blobs (not the commit, not the submodule's commit)", async () => {
    const repo = await createFixtureRepo({
      files: {
        'a.txt': 'a\n',
        'bin/x.sh': { content: '#!/bin/sh\n', executable: true },
        'l.md': { symlink: 'a.txt' },
        'ü/名前.txt': 'x\n',
      },
    });
    cleanups.push(() => repo.cleanup());
    await repo.git(['update-index', '--add', '--cacheinfo', `160000,${'b'.repeat(40)},vendor/lib`]);
    await repo.git(['commit', '--quiet', '--no-verify', '-m', 'sub']);
    // objects loose in the user's repository are packed too (compressed anew)
    const user = await resolveUserRepo(repo.path, 'main');
    const wb = await Workbench.create(user, user.baseCommit, { identity });
    cleanups.push(() => wb.dispose());
    const pack = await writeBasePack(wb, wb.tree());
    cleanups.push(() => pack.dispose());
    expect(pack.tree).toBe(wb.tree());
    const verified = (await runGit(['verify-pack', '-v', pack.idx], { cwd: repo.path })).stdout.toString('utf8');
    const packed = new Set(
      verified
        .split('\n')
        .map((l) => /^([0-9a-f]{40}) (\w+)/.exec(l))
        .filter((m) => m !== null)
        .map((m) => `${m[2]} ${m[1]}`),
    );
    const listed = (await repo.git(['ls-tree', '-r', '-t', '--full-tree', 'HEAD']))
      .split('\n')
      .filter((l) => l && !l.startsWith('160000 '))
      .map((l) => {
        const [, type, oid] = l.split('\t')[0]!.split(' ');
        return `${type} ${oid}`;
      });
    expect(packed).toEqual(new Set([`tree ${wb.tree()}`, ...listed]));
  });

  it('refuses a tree id that is not one', async () => {
    const repo = await createFixtureRepo({ files: { 'a.txt': 'a\n' } });
    cleanups.push(() => repo.cleanup());
    const user = await resolveUserRepo(repo.path, 'main');
    const wb = await Workbench.create(user, user.baseCommit, { identity });
    cleanups.push(() => wb.dispose());
    await expect(writeBasePack(wb, '--all')).rejects.toThrow();
  });
});

describe('basePackTar', () => {
  it('carries the pack and its index byte for byte at the runner paths, owned by the sandbox user', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hb-pack-tar-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const pack = join(dir, 'p.pack');
    const idx = join(dir, 'p.idx');
    const body = Buffer.from(Array.from({ length: 70_001 }, (_, i) => (i * 13) % 256));
    await writeFile(pack, body);
    await writeFile(idx, 'idx');
    const got = await entries(await basePackTar({ pack, idx }, { uid: 1000, gid: 1001 }));
    expect(got.map((e) => `${e.type} ${e.name} ${e.mode.toString(8)} ${e.uid}:${e.gid}`)).toEqual([
      'directory .git/ 755 1000:1001',
      'directory .git/hammer/ 755 1000:1001',
      `file ${BASE_PACK_PATHS.pack} 644 1000:1001`,
      `file ${BASE_PACK_PATHS.idx} 644 1000:1001`,
    ]);
    expect(got[2]!.data.equals(body)).toBe(true);
    expect(got[3]!.data.toString()).toBe('idx');
  });
});
