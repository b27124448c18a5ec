import { afterEach, describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { BatchParser, catFileParsed } from '../../../src/git/cat-file.js';
import { createFixtureRepo, type FixtureRepo } from '../../helpers/fixture-repo.js';

let repo: FixtureRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

describe('catFileParsed', () => {
  it('hands over each object in order: streamed bodies in pieces, whole ones in one buffer', async () => {
    repo = await createFixtureRepo({ files: { 'a.txt': 'alpha\n', 'big.txt': 'b'.repeat(300_000), empty: '' } });
    const oids = (await repo.git(['rev-parse', 'HEAD:a.txt', 'HEAD:big.txt', 'HEAD:empty'])).trim().split('\n');
    const got: { index: number; size: number; text: string; whole: boolean }[] = [];
    let pieces: Buffer[] = [];
    let chunks = 0;
    await catFileParsed(
      oids,
      { cwd: repo.path },
      {
        object: (index, header) => {
          got.push({ index, size: header.size, text: '', whole: index === 0 });
          return index === 0 ? 'whole' : 'stream';
        },
        piece: (c) => void pieces.push(Buffer.from(c)),
        whole: (body) => void (got.at(-1)!.text = body.toString('utf8')),
        done: () => {
          if (!got.at(-1)!.whole) got.at(-1)!.text = Buffer.concat(pieces).toString('utf8');
          pieces = [];
        },
      },
      () => void chunks++,
    );
    expect(got).toEqual([
      { index: 0, size: 6, text: 'alpha\n', whole: true },
      { index: 1, size: 300_000, text: 'b'.repeat(300_000), whole: false },
      { index: 2, size: 0, text: '', whole: false },
    ]);
    expect(chunks).toBeGreaterThan(1); // 300 kB do not come as one chunk: the caller paces git
  });

  it('an abort in the middle is ABORTED, not an early end of git', async () => {
    repo = await createFixtureRepo({ files: { 'a.txt': 'alpha\n'.repeat(100_000) } });
    const oid = (await repo.git(['rev-parse', 'HEAD:a.txt'])).trim();
    const controller = new AbortController();
    const err: unknown = await catFileParsed(
      Array.from({ length: 50 }, () => oid),
      { cwd: repo.path, signal: controller.signal },
      {
        object: (i) => {
          if (i === 1) controller.abort();
          return 'stream';
        },
        piece: () => undefined,
        whole: () => undefined,
        done: () => undefined,
      },
      () => undefined,
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isHammerError(err, 'ABORTED'), String(err)).toBe(true);
  });

  it('a missing object is GIT_FAILED', async () => {
    repo = await createFixtureRepo({ files: { 'a.txt': 'alpha\n' } });
    const none = {
      object: () => 'stream' as const,
      piece: () => undefined,
      whole: () => undefined,
      done: () => undefined,
    };
    const err: unknown = await catFileParsed(['1'.repeat(40)], { cwd: repo.path }, none, () => undefined).catch(
      (e: unknown) => e,
    );
    expect(isHammerError(err, 'GIT_FAILED')).toBe(true);
  });
});

describe('BatchParser', () => {
  // two objects, "hello" and an empty one, as git prints them
  const output = Buffer.from(`${'a'.repeat(40)} blob 5\nhello\n${'b'.repeat(40)} blob 0\n\n`, 'latin1');

  function parse(chunks: Buffer[], mode: 'whole' | 'stream') {
    const events: string[] = [];
    let body = '';
    const parser = new BatchParser(2, {
      object: (i, h) => (events.push(`object ${i} ${h.size}`), mode),
      piece: (c) => void (body += c.toString('latin1')),
      whole: (b) => void (body += b.toString('latin1')),
      done: () => void (events.push(`done ${JSON.stringify(body)}`), (body = '')),
    });
    for (const c of chunks) parser.push(c);
    return { events, complete: parser.complete() };
  }

  it('gives the same objects however the output is split into chunks', () => {
    const expected = { events: ['object 0 5', 'done "hello"', 'object 1 0', 'done ""'], complete: true };
    for (const mode of ['whole', 'stream'] as const) {
      expect(parse([output], mode)).toEqual(expected);
      // every single split point (inside a header line, a body, at the LF after a body)
      for (let at = 1; at < output.length; at++)
        expect(parse([output.subarray(0, at), output.subarray(at)], mode)).toEqual(expected);
      // byte by byte
      expect(
        parse(
          [...output].map((b) => Buffer.from([b])),
          mode,
        ),
      ).toEqual(expected);
    }
  });

  it('is not complete until the last LF, and refuses output out of step or beyond what was asked', () => {
    expect(parse([output.subarray(0, output.length - 1)], 'stream').complete).toBe(false);
    const noLf = Buffer.from(`${'a'.repeat(40)} blob 1\nxy`, 'latin1');
    expect(() => parse([noLf], 'stream')).toThrow(/out of step/);
    expect(() => parse([output, output], 'stream')).toThrow(/more than asked/);
  });
});
