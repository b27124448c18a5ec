// The per-user state key: made once (0700 directory, 0600 file), the same key afterwards and for a
// racing second process, HAMMER_STATE_KEY instead of the file, and a key file others could read,
// or a symlink, refused.
import { chmod, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isHammerError } from '../../../src/errors.js';
import { loadStateKey, stateKeyPath, userStateDir } from '../../../src/state/state-key.js';

let home: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'hb-key-'));
  env = { XDG_STATE_HOME: join(home, 'state') };
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('loadStateKey', () => {
  it('makes the key on first use, private to the user, and returns the same key afterwards', async () => {
    const [a, b] = await Promise.all([loadStateKey(env), loadStateKey(env)]);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    expect(a.bytes.length).toBe(32);
    expect(a.source).toBe(join(home, 'state', 'hammer-box', 'state.key'));
    expect((await stat(userStateDir(env))).mode & 0o777).toBe(0o700);
    expect((await stat(stateKeyPath(env))).mode & 0o777).toBe(0o600);
    const again = await loadStateKey(env);
    expect(Buffer.from(again.bytes).equals(Buffer.from(a.bytes))).toBe(true);
    // no temp file is left beside it
    expect(await readdir(userStateDir(env))).toEqual(['state.key']);
  });

  it('defaults to ~/.local/state/hammer-box', () => {
    expect(stateKeyPath({ HOME: '/home/u' })).toBe('/home/u/.local/state/hammer-box/state.key');
    expect(stateKeyPath({ HOME: '/home/u', XDG_STATE_HOME: 'relative' })).toBe(
      '/home/u/.local/state/hammer-box/state.key',
    );
  });

  it('takes HAMMER_STATE_KEY instead of the file, and refuses a short one', async () => {
    const key = await loadStateKey({ ...env, HAMMER_STATE_KEY: 'k'.repeat(40) });
    expect(key.source).toBe('HAMMER_STATE_KEY');
    expect(Buffer.from(key.bytes).toString()).toBe('k'.repeat(40));
    await expect(readdir(join(home, 'state'))).rejects.toThrow();
    const err = await loadStateKey({ ...env, HAMMER_STATE_KEY: 'short' }).catch((e: unknown) => e);
    expect(isHammerError(err, 'STATE_INVALID')).toBe(true);
  });

  it('refuses a key file others may read, and one that is a symlink', async () => {
    await loadStateKey(env);
    await chmod(stateKeyPath(env), 0o644);
    const open = await loadStateKey(env).catch((e: unknown) => e);
    expect(isHammerError(open, 'STATE_INVALID')).toBe(true);
    expect((open as Error).message).toContain('others may read or write it');
    await rm(stateKeyPath(env));
    const elsewhere = join(home, 'attacker.key');
    await writeFile(elsewhere, `${'a'.repeat(64)}\n`, { mode: 0o600 });
    await symlink(elsewhere, stateKeyPath(env));
    const linked = await loadStateKey(env).catch((e: unknown) => e);
    expect(isHammerError(linked, 'STATE_INVALID')).toBe(true);
    expect((linked as Error).message).toContain('symlink');
  });

  it('refuses a state directory that is a symlink', async () => {
    await mkdir(join(home, 'state'));
    await mkdir(join(home, 'other'));
    await symlink(join(home, 'other'), join(home, 'state', 'hammer-box'));
    const err = await loadStateKey(env).catch((e: unknown) => e);
    expect(isHammerError(err, 'STATE_INVALID')).toBe(true);
    expect(await readdir(join(home, 'other'))).toEqual([]);
  });
});
