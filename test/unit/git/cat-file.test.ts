import { afterEach, describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { catFileBatch } from '../../../src/git/cat-file.js';
import { createFixtureRepo, type FixtureRepo } from '../../helpers/fixture-repo.js';

let repo: FixtureRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

describe('catFileBatch', () => {
  it('streams each object in order', async () => {
    repo = await createFixtureRepo({ files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' } });
    const oids = (await repo.git(['rev-parse', 'HEAD:a.txt', 'HEAD:b.txt'])).trim().split('\n');
    const texts: string[] = [];
    await catFileBatch(oids, { cwd: repo.path }, async (_i, header, body) => {
      const chunks: Buffer[] = [];
      await body((c) => void chunks.push(c));
      expect(header.type).toBe('blob');
      texts.push(Buffer.concat(chunks).toString('utf8'));
    });
    expect(texts).toEqual(['alpha\n', 'beta\n']);
  });

  it('an abort in the middle is ABORTED, not an early end of git', async () => {
    repo = await createFixtureRepo({ files: { 'a.txt': 'alpha\n'.repeat(100_000) } });
    const oid = (await repo.git(['rev-parse', 'HEAD:a.txt'])).trim();
    const controller = new AbortController();
    const err: unknown = await catFileBatch(
      Array.from({ length: 50 }, () => oid),
      { cwd: repo.path, signal: controller.signal },
      async (i, _header, body) => {
        if (i === 1) controller.abort();
        await body(() => undefined);
      },
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isHammerError(err, 'ABORTED'), String(err)).toBe(true);
  });
});
