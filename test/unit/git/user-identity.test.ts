// The user's own git identity: the environment's author, else their global git config; never a repository's.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { userIdentity } from '../../../src/git/index.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function home(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hb-identity-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

describe('userIdentity', () => {
  it('reads user.name and user.email of ~/.gitconfig (over the XDG file, includes followed)', async () => {
    const h = await home({
      '.config/git/config': '[user]\n  name = Old Name\n  email = old@example.com\n',
      '.gitconfig': '[include]\n  path = ~/.gitconfig-me\n',
      '.gitconfig-me': '[user]\n  name = Ada Lovelace\n  email = ada@example.com\n',
    });
    expect(await userIdentity({ HOME: h, PATH: process.env['PATH'] })).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    });
  });

  it('takes GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL when both are set', async () => {
    const h = await home({ '.gitconfig': '[user]\n  name = Ada\n  email = ada@example.com\n' });
    expect(
      await userIdentity({ HOME: h, PATH: process.env['PATH'], GIT_AUTHOR_NAME: 'CI', GIT_AUTHOR_EMAIL: 'ci@x.org' }),
    ).toEqual({ name: 'CI', email: 'ci@x.org' });
  });

  it('is null without a name and an address, or with one git would not take', async () => {
    expect(await userIdentity({ HOME: await home({}), PATH: process.env['PATH'] })).toBeNull();
    const half = await home({ '.gitconfig': '[user]\n  name = Ada\n' });
    expect(await userIdentity({ HOME: half, PATH: process.env['PATH'] })).toBeNull();
    const odd = await home({ '.gitconfig': '[user]\n  name = "Ada <evil>"\n  email = a@b.c\n' });
    expect(await userIdentity({ HOME: odd, PATH: process.env['PATH'] })).toBeNull();
  });
});
