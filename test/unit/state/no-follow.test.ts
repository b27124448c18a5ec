// Writing where a repository may have shaped the directory: a link on the way is refused, a
// directory written into again holds only regular files and directories, and levels are made one
// at a time without following a link.
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { makeRealDirs, oddEntry, refuseLinkedLevels, refuseOddEntries } from '../../../src/state/no-follow.js';

const USE = { what: '--out', hint: 'name another' };
let root: string;
let host: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hb-nofollow-'));
  host = await mkdtemp(join(tmpdir(), 'hb-nofollow-host-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(host, { recursive: true, force: true });
});

async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isHammerError(err, 'USAGE'), String(err)).toBe(true);
  return (err as Error).message;
}

describe('refuseLinkedLevels', () => {
  it('refuses a link at any level below a root, dangling or not, the last included', async () => {
    await symlink(host, join(root, 'pages'));
    await symlink(join(host, 'gone'), join(root, 'dangling'));
    await mkdir(join(root, 'real'));
    await symlink(join(host, 'x'), join(root, 'real', 'plan.md'));
    expect(await refusal(refuseLinkedLevels(join(root, 'pages', 'out'), [root], USE))).toContain(
      `${join(root, 'pages')} is a symlink`,
    );
    await refusal(refuseLinkedLevels(join(root, 'dangling', 'out'), [root], USE));
    await refusal(refuseLinkedLevels(join(root, 'real', 'plan.md'), [root], USE));
    await writeFile(join(root, 'file'), '');
    expect(await refusal(refuseLinkedLevels(join(root, 'file', 'x'), [root], USE))).toContain('is not a directory');
  });

  it('passes real and missing levels, and paths outside every root', async () => {
    await mkdir(join(root, 'real'));
    await refuseLinkedLevels(join(root, 'real', 'new', 'deeper'), [root], USE);
    await refuseLinkedLevels(join(root, 'real'), [root], USE);
    await symlink(host, join(root, 'pages'));
    await refuseLinkedLevels(join(host, 'out'), [root], USE);
  });
});

describe('refuseOddEntries and oddEntry', () => {
  it('finds a link, however deep; a tree of files and directories passes', async () => {
    await mkdir(join(root, 'a', 'b'), { recursive: true });
    await writeFile(join(root, 'a', 'b', 'f'), 'x');
    expect(await oddEntry(root)).toBeNull();
    await refuseOddEntries(root, USE);
    await symlink(host, join(root, 'a', 'b', 'link'));
    expect(await oddEntry(root)).toEqual({ path: join(root, 'a', 'b', 'link'), kind: 'a symlink' });
    expect(await refusal(refuseOddEntries(root, USE))).toMatch(
      /holds a symlink, .*link: a directory hammer-box writes into again/,
    );
  });
});

describe('makeRealDirs', () => {
  it('makes each level, and refuses one that is a link without making anything through it', async () => {
    expect(await makeRealDirs(root, ['tasks', 't1'], USE)).toBe(join(root, 'tasks', 't1'));
    await symlink(host, join(root, 'tasks', 't2'));
    expect(await refusal(makeRealDirs(root, ['tasks', 't2', 'attempt-1'], USE))).toContain('is a symlink');
    expect(await readdir(host)).toEqual([]);
  });
});
