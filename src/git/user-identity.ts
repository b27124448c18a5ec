// The person running hammer-box, as git knows them: GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL when both
// are set, else user.name and user.email of their own (global) git config. Never the repository's
// config: a repository cannot choose whose name its branch's commits carry.
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { runGitResult } from './git-exec.js';
import type { Identity } from './workbench.js';

/** The user's git identity, or null when they have none (or it is not a usable name and address). */
export async function userIdentity(
  hostEnv: Readonly<Record<string, string | undefined>> = process.env,
  signal?: AbortSignal,
): Promise<Identity | null> {
  const fromEnv = usable(hostEnv['GIT_AUTHOR_NAME'], hostEnv['GIT_AUTHOR_EMAIL']);
  if (fromEnv) return fromEnv;
  const home = hostEnv['HOME'] || homedir();
  // git's own order: the XDG file, then ~/.gitconfig (the later wins); GIT_CONFIG_GLOBAL instead of both
  const files = hostEnv['GIT_CONFIG_GLOBAL']
    ? [hostEnv['GIT_CONFIG_GLOBAL']]
    : [join(hostEnv['XDG_CONFIG_HOME'] || join(home, '.config'), 'git', 'config'), join(home, '.gitconfig')];
  let name: string | undefined;
  let email: string | undefined;
  for (const file of files) {
    const r = await runGitResult(
      ['config', '--file', file, '--includes', '--null', '--get-regexp', '^user\\.(name|email)$'],
      {
        cwd: home,
        hostEnv,
        ...(signal ? { signal } : {}),
      },
    ).catch(() => null);
    if (r === null || r.exitCode !== 0) continue;
    for (const entry of r.stdout.toString('utf8').split('\0')) {
      const nl = entry.indexOf('\n');
      if (nl <= 0) continue;
      const key = entry.slice(0, nl);
      if (key === 'user.name') name = entry.slice(nl + 1);
      if (key === 'user.email') email = entry.slice(nl + 1);
    }
  }
  return usable(name, email);
}

/**
 * The file of ignore patterns your own git config names (core.excludesFile of your global config,
 * else git's default $XDG_CONFIG_HOME/git/ignore), when it is a file; null otherwise. hammer-box's git
 * runs with core.excludesFile=/dev/null, so this is passed explicitly where your view counts.
 */
export async function userExcludesFile(
  hostEnv: Readonly<Record<string, string | undefined>> = process.env,
  signal?: AbortSignal,
): Promise<string | null> {
  const home = hostEnv['HOME'] || homedir();
  const xdg = hostEnv['XDG_CONFIG_HOME'] || join(home, '.config');
  const files = hostEnv['GIT_CONFIG_GLOBAL']
    ? [hostEnv['GIT_CONFIG_GLOBAL']]
    : [join(xdg, 'git', 'config'), join(home, '.gitconfig')];
  let named: string | null = null;
  for (const file of files) {
    const r = await runGitResult(['config', '--file', file, '--includes', '--path', '--get', 'core.excludesFile'], {
      cwd: home,
      hostEnv,
      ...(signal ? { signal } : {}),
    }).catch(() => null);
    if (r !== null && r.exitCode === 0) named = r.stdout.toString('utf8').trim();
  }
  const path = named === null || named === '' ? join(xdg, 'git', 'ignore') : named.replace(/^~(?=\/)/, home);
  const st = await stat(path).catch(() => null);
  return st?.isFile() ? path : null;
}

/** A name and an address git would take as they are, or null. */
function usable(name: string | undefined, email: string | undefined): Identity | null {
  const ok = (s: string | undefined, max: number): s is string =>
    s !== undefined && s.trim() !== '' && s.length <= max && !/[<>\u0000-\u001f\u007f]/.test(s);
  if (!ok(name, 200) || !ok(email, 254)) return null;
  return { name: name.trim(), email: email.trim() };
}
