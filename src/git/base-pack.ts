// The base tree's objects as one pack with its index, for the sandbox's repository: its git then
// holds the base's trees and blobs without hashing and writing every file again. Built by the
// host's hardened git in the workbench (which only borrows the user's objects); the pack holds the
// tree the base archive already carries, as objects, and nothing else.
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { HammerError } from '../errors.js';
import { assertObjectId } from './object-id.js';
import { encodeHeader, END_OF_ARCHIVE, padding } from './tar-writer.js';
import type { Workbench } from './workbench.js';

/** Where the pack goes in the sandbox, beside the archive's path list (the runner moves it into place). */
export const BASE_PACK_PATHS = { pack: '.git/hammer/base.pack', idx: '.git/hammer/base.idx' } as const;

/** A pack of one tree, on the host until disposed. */
export interface BasePack {
  /** The pack's checksum (its name: pack-<hash>.pack). */
  hash: string;
  /** The tree it holds, with every tree and blob under it. */
  tree: string;
  pack: string;
  idx: string;
  /** Remove the host's copy. */
  dispose(): Promise<void>;
}

/**
 * Pack `tree` and everything under it (submodule commits excepted) from the workbench: objects the
 * user's repository stores packed are copied as they are, others compressed fast (level 1, no delta
 * search), since the pack only crosses to a sandbox on the same machine.
 */
export async function writeBasePack(
  workbench: Workbench,
  tree: string,
  opts: { signal?: AbortSignal; tmpDir?: string } = {},
): Promise<BasePack> {
  assertObjectId(tree);
  const dir = await mkdtemp(join(opts.tmpDir ?? tmpdir(), 'hammer-pack-'));
  const dispose = (): Promise<void> => rm(dir, { recursive: true, force: true });
  try {
    const out = await workbench.git(
      ['pack-objects', '--revs', '--quiet', '--window=0', '--compression=1', join(dir, 'p')],
      {
        input: `${tree}\n`,
        ...(opts.signal ? { signal: opts.signal } : {}),
      },
    );
    const hash = out.stdout.toString('utf8').trim();
    const names = await readdir(dir);
    if (
      !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(hash) ||
      !names.includes(`p-${hash}.pack`) ||
      !names.includes(`p-${hash}.idx`)
    )
      throw new HammerError('GIT_FAILED', `git pack-objects did not write the pack of ${tree}`);
    return { hash, tree, pack: join(dir, `p-${hash}.pack`), idx: join(dir, `p-${hash}.idx`), dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}

/** A tar of the pack and its index at BASE_PACK_PATHS (and their directories), owned by uid:gid. */
export async function basePackTar(
  pack: Pick<BasePack, 'pack' | 'idx'>,
  owner: { uid: number; gid: number; mtime?: Date },
): Promise<Readable> {
  const o = { uid: owner.uid, gid: owner.gid, mtime: owner.mtime ?? new Date(0) };
  const files = [
    { from: pack.pack, name: BASE_PACK_PATHS.pack, size: (await stat(pack.pack)).size },
    { from: pack.idx, name: BASE_PACK_PATHS.idx, size: (await stat(pack.idx)).size },
  ];
  async function* records(): AsyncGenerator<Buffer> {
    for (const name of ['.git/', '.git/hammer/'])
      yield encodeHeader({ ...o, name, type: 'directory', mode: 0o755, size: 0 });
    for (const f of files) {
      yield encodeHeader({ ...o, name: f.name, type: 'file', mode: 0o644, size: f.size });
      let sent = 0;
      for await (const chunk of createReadStream(f.from)) {
        const buf = chunk as Buffer;
        sent += buf.length;
        yield buf;
      }
      if (sent !== f.size) throw new HammerError('INTERNAL', `${f.from} changed size while it was sent`);
      yield padding(f.size);
    }
    yield END_OF_ARCHIVE;
  }
  return Readable.from(records(), { objectMode: false });
}
