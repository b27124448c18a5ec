// One long-lived cat-file process for a repository's reads: answers in order, capped, missing
// objects as null, an aborted read drained without disturbing the next, new objects seen.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { ObjectReader } from '../../../src/git/object-reader.js';
import { createFixtureRepo, type FixtureRepo } from '../../helpers/fixture-repo.js';

let repo: FixtureRepo | undefined;
let reader: ObjectReader | undefined;
afterEach(async () => {
  reader?.close();
  reader = undefined;
  await repo?.cleanup();
  repo = undefined;
});

async function setup(files: Record<string, string>): Promise<{ oids: string[]; reader: ObjectReader }> {
  repo = await createFixtureRepo({ files });
  const oids = (await repo.git(['rev-parse', ...Object.keys(files).map((f) => `HEAD:${f}`)])).trim().split('\n');
  reader = new ObjectReader({ cwd: repo.path });
  return { oids, reader };
}

describe('ObjectReader', () => {
  it('reads objects in order, each capped, with its full size; a missing one is null', async () => {
    const { oids, reader } = await setup({ 'a.txt': 'alpha\n', 'big.txt': 'x'.repeat(200_000), 'e.txt': '' });
    const got = await reader.read([oids[1]!, '0'.repeat(40), oids[0]!, oids[2]!], 10);
    expect(got.map((r) => r && { size: r.size, text: r.data.toString('utf8') })).toEqual([
      { size: 200_000, text: 'x'.repeat(10) },
      null,
      { size: 6, text: 'alpha\n' },
      { size: 0, text: '' },
    ]);
  });

  it('answers reads made at once each with its own objects', async () => {
    const files = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}.txt`, `file ${i}\n`.repeat(i * 50)]));
    const { oids, reader } = await setup(files);
    const reads = await Promise.all(oids.map((oid, i) => reader.read([oid, oids[(i + 1) % oids.length]!], 1 << 20)));
    reads.forEach((r, i) => {
      expect(r[0]!.data.toString('utf8')).toBe(`file ${i}\n`.repeat(i * 50));
      expect(r[1]!.data.toString('utf8')).toBe(files[`f${(i + 1) % oids.length}.txt`]);
    });
  });

  it('an aborted read is ABORTED at once; its answers are dropped and the next read gets its own', async () => {
    const { oids, reader } = await setup({ 'a.txt': 'alpha\n', 'big.txt': 'y'.repeat(4_000_000) });
    const controller = new AbortController();
    const aborted = reader.read([oids[1]!, oids[1]!, oids[1]!], 1 << 30, controller.signal);
    controller.abort();
    const err: unknown = await aborted.catch((e: unknown) => e);
    expect(isHammerError(err, 'ABORTED')).toBe(true);
    const [a] = await reader.read([oids[0]!], 100);
    expect(a!.data.toString('utf8')).toBe('alpha\n');
  });

  it('sees objects written after it started', async () => {
    const { oids, reader } = await setup({ 'a.txt': 'alpha\n' });
    await reader.read([oids[0]!], 100);
    await writeFile(join(repo!.path, 'later.txt'), 'written later\n');
    const fresh = (await repo!.git(['hash-object', '-w', 'later.txt'])).trim();
    const [r] = await reader.read([fresh], 100);
    expect(r!.data.toString('utf8')).toBe('written later\n');
  });

  it('fails reads after close', async () => {
    const { oids, reader } = await setup({ 'a.txt': 'alpha\n' });
    reader.close();
    await expect(reader.read([oids[0]!], 100)).rejects.toMatchObject({ code: 'INTERNAL' });
  });
});
