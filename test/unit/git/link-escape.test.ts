import { Readable } from 'node:stream';
import tar from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { baseTarStream, Workbench, resolveUserRepo } from '../../../src/git/index.js';
import { linkEscapesRoot } from '../../../src/git/link-escape.js';
import { createFixtureRepo } from '../../helpers/fixture-repo.js';

describe('linkEscapesRoot', () => {
  it.each([
    ['a', '../x', true],
    ['d/a', '../x', false],
    ['d/a', '../../x', true],
    ['d/a', 'e/../../..', true],
    ['a', '..', true],
    ['a', './b/../c', false],
    ['a', '/etc/passwd', false],
    ['d/e/a', '../../b', false],
  ])('%s -> %s escapes: %s', (path, target, escapes) => {
    expect(linkEscapesRoot(path, target)).toBe(escapes);
  });
});

describe('baseTarStream with a symlink out of the tree', () => {
  it('leaves it out and counts it as unsafe; links that stay inside, and absolute ones, go in', async () => {
    const repo = await createFixtureRepo({
      files: {
        'a.txt': 'a\n',
        'up.txt': { symlink: '../../../etc/passwd' },
        'in.txt': { symlink: 'a.txt' },
        'abs.txt': { symlink: '/etc/hostname' },
      },
    });
    try {
      const user = await resolveUserRepo(repo.path, 'main');
      const wb = await Workbench.create(user, user.baseCommit, { identity: { name: 'h', email: 'h@l' } });
      try {
        const archive = baseTarStream(wb, wb.head(), { uid: 1, gid: 1, pathList: '.git/hammer/base-paths' });
        const names: string[] = [];
        const extract = tar.extract();
        const done = (async () => {
          for await (const entry of extract) {
            names.push(
              `${entry.header.type}:${entry.header.name}${entry.header.linkname ? `->${entry.header.linkname}` : ''}`,
            );
            entry.resume();
          }
        })();
        Readable.from(archive.stream).pipe(extract);
        const [stats] = await Promise.all([archive.done, done]);
        expect(stats.skippedUnsafe).toBe(1);
        expect(names.sort()).toEqual([
          'directory:.git/',
          'directory:.git/hammer/',
          'file:.git/hammer/base-paths',
          'file:a.txt',
          'symlink:abs.txt->/etc/hostname',
          'symlink:in.txt->a.txt',
        ]);
      } finally {
        await wb.dispose();
      }
    } finally {
      await repo.cleanup();
    }
  });
});

describe('baseTarStream made ahead of its consumer', () => {
  it('fails through done, not as an uncaught stream error, when it is stopped before anyone reads it', async () => {
    const repo = await createFixtureRepo({ files: { 'a.txt': 'a\n' } });
    try {
      const user = await resolveUserRepo(repo.path, 'main');
      const wb = await Workbench.create(user, user.baseCommit, { identity: { name: 'h', email: 'h@l' } });
      try {
        const stop = new AbortController();
        stop.abort(new Error('interrupted'));
        const archive = baseTarStream(wb, wb.head(), { uid: 1, gid: 1, signal: stop.signal });
        await expect(archive.done).rejects.toThrow();
        // the stream errored too, with nobody reading it, and the process goes on
        await new Promise((r) => setImmediate(r));
        expect(archive.stream.destroyed).toBe(true);
      } finally {
        await wb.dispose();
      }
    } finally {
      await repo.cleanup();
    }
  });
});
