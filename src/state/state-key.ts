// The per-user key that seals state files: kept outside every repository, in
// ${XDG_STATE_HOME:-~/.local/state}/hammer-box/state.key (directory 0700, file 0600, made on first
// use), or given as HAMMER_STATE_KEY (CI jobs that resume a run on another machine).
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, link, lstat, mkdir, open, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { HammerError } from '../errors.js';

/** The key and where it came from (for messages). */
export interface StateKey {
  readonly bytes: Uint8Array;
  /** The key file's path, or "HAMMER_STATE_KEY". */
  readonly source: string;
}

/** The variable that supplies the key instead of the key file. */
export const STATE_KEY_ENV = 'HAMMER_STATE_KEY';
/** The shortest HAMMER_STATE_KEY accepted. */
export const MIN_KEY_CHARS = 32;

/** hammer-box's per-user state directory: $XDG_STATE_HOME/hammer-box (default ~/.local/state/hammer-box). */
export function userStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_STATE_HOME && env.XDG_STATE_HOME.startsWith('/')
      ? env.XDG_STATE_HOME
      : join(env.HOME ?? homedir(), '.local', 'state');
  return join(base, 'hammer-box');
}

/** The key file's path. */
export function stateKeyPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(userStateDir(env), 'state.key');
}

/** A key from a secret string (HAMMER_STATE_KEY). */
export function stateKeyFromSecret(secret: string, source = STATE_KEY_ENV): StateKey {
  if (secret.length < MIN_KEY_CHARS)
    throw new HammerError(
      'STATE_INVALID',
      `${source} is ${secret.length} characters; a state key needs at least ${MIN_KEY_CHARS}`,
      {
        hint: `generate one with: openssl rand -hex 32`,
      },
    );
  return { bytes: Buffer.from(secret, 'utf8'), source };
}

/** The user's state key: HAMMER_STATE_KEY when set, else the key file (made, 0600, on first use). */
export async function loadStateKey(env: NodeJS.ProcessEnv = process.env): Promise<StateKey> {
  const secret = env[STATE_KEY_ENV];
  if (secret !== undefined && secret !== '') return stateKeyFromSecret(secret);
  const dir = userStateDir(env);
  const file = stateKeyPath(env);
  try {
    await ensurePrivateDir(dir);
    return (await readKeyFile(file)) ?? (await createKeyFile(dir, file));
  } catch (err) {
    if (err instanceof HammerError) throw err;
    throw new HammerError('STATE_UNWRITABLE', `cannot read or make the state key ${file}: ${(err as Error).message}`, {
      hint: `hammer-box keeps a key there to prove which state files it wrote; fix ${dir} or set ${STATE_KEY_ENV}`,
      cause: err,
    });
  }
}

async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const st = await lstat(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid))
    throw new HammerError('STATE_INVALID', `${dir} is not a directory of yours (a symlink, or owned by another user)`, {
      hint: `remove it; hammer-box makes it again, private to you`,
    });
  if ((st.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

const KEY_TEXT = /^([0-9a-f]{64})\n?$/;

async function readKeyFile(file: string): Promise<StateKey | undefined> {
  let fh;
  try {
    fh = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw badKey(file, 'it is a symlink');
    throw err;
  }
  try {
    const st = await fh.stat();
    const uid = process.getuid?.();
    if (!st.isFile() || st.size > 1024) throw badKey(file, 'not a key file');
    if (uid !== undefined && st.uid !== uid) throw badKey(file, 'owned by another user');
    if ((st.mode & 0o077) !== 0)
      throw badKey(file, `others may read or write it (mode ${(st.mode & 0o777).toString(8)})`);
    const m = KEY_TEXT.exec((await fh.readFile()).toString('utf8'));
    if (!m?.[1]) throw badKey(file, 'not a key file');
    return { bytes: Buffer.from(m[1], 'hex'), source: file };
  } finally {
    await fh.close();
  }
}

/** Write a new key beside the file and link it into place: of two processes racing, one key wins. */
async function createKeyFile(dir: string, file: string): Promise<StateKey> {
  const tmp = join(dir, `.state.key.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fh = await open(tmp, 'wx', 0o600);
  try {
    await fh.writeFile(`${randomBytes(32).toString('hex')}\n`);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
  const key = await readKeyFile(file);
  if (!key) throw badKey(file, 'it vanished while being made');
  return key;
}

function badKey(file: string, why: string): HammerError {
  return new HammerError('STATE_INVALID', `the state key ${file} cannot be used: ${why}`, {
    hint: `fix it (chmod 600, owned by you) or remove it; runs sealed with the old key can then no longer be resumed`,
  });
}
