// Pushing a run's branch, and nothing else, to a remote: one explicit refspec
// (refs/heads/<branch>:refs/heads/<branch>, never forced), no tags, no submodules, no hooks, to the
// URL the remote resolves to, over that URL's transport only. Every other transport stays denied by
// the hardening (git-hardening.ts), and so does everything the repository's config could make run;
// the credentials come from your own git config (its credential helpers and ssh command), never
// from the repository's, and never from a command line.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { HammerError, abortError } from '../errors.js';
import { runGitResult, type GitOptions } from './git-exec.js';
import { parseRemoteUrl, redact, type PushTransport, type RemoteUrl } from './remote-url.js';

/** How long a push may take before it is stopped. */
export const PUSH_TIMEOUT_MS = 5 * 60_000;

/** What a push did to the remote branch. */
export type PushResult = 'created' | 'updated' | 'up-to-date';

/** A remote name as git allows it, and nothing that could pass for an option. */
export function assertRemoteName(name: string): void {
  if (!/^[A-Za-z0-9_][A-Za-z0-9._/-]*$/.test(name) || name.includes('..'))
    throw new HammerError('USAGE', `not a remote name: ${JSON.stringify(name)}`, {
      hint: "pass --remote <name> naming one 'git remote' lists",
    });
}

/** The URL `git push <remote>` would push to (push URL, else URL, with insteadOf applied), understood. */
export async function remotePushUrl(git: GitOptions, remote: string): Promise<RemoteUrl> {
  assertRemoteName(remote);
  const r = await runGitResult(['remote', 'get-url', '--push', remote], git);
  if (r.exitCode !== 0)
    throw new HammerError('REPO_INVALID', `the repository has no remote named ${remote}`, {
      hint: `add it with 'git remote add ${remote} <url>', or pass --remote <name> naming one 'git remote' lists`,
    });
  return parseRemoteUrl(remote, r.stdout.toString('utf8').trim());
}

/** The argv of the push (after git's hardening arguments): config for this transport, then the push itself. */
export function pushArgs(
  remote: Pick<RemoteUrl, 'url' | 'transport'>,
  branch: string,
  userConfig: readonly (readonly [string, string])[],
): string[] {
  const ref = `refs/heads/${branch}`;
  const config: [string, string][] = [
    // the one transport this URL needs; every other stays denied
    [`protocol.${remote.transport}.allow`, 'always'],
    ['push.followTags', 'false'],
    ['push.gpgSign', 'false'],
    ['push.recurseSubmodules', 'no'],
    ...userConfig.map(([k, v]): [string, string] => [k, v]),
  ];
  return [
    ...config.flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    'push',
    '--porcelain',
    '--no-verify',
    '--no-follow-tags',
    '--no-signed',
    '--recurse-submodules=no',
    '--',
    remote.url,
    `${ref}:${ref}`,
  ];
}

/**
 * The settings of your own git config a push needs, as `-c` pairs after the hardening: credential
 * helpers (credential.helper, credential.<url>.*) from the system and global config, and the ssh
 * command (GIT_SSH_COMMAND, else core.sshCommand there, else ssh in batch mode: no prompt).
 */
export async function userPushConfig(
  transport: PushTransport,
  hostEnv: Readonly<Record<string, string | undefined>> = process.env,
  signal?: AbortSignal,
): Promise<[string, string][]> {
  const home = hostEnv['HOME'] || homedir();
  const files = hostEnv['GIT_CONFIG_GLOBAL']
    ? [hostEnv['GIT_CONFIG_GLOBAL']]
    : [join(hostEnv['XDG_CONFIG_HOME'] || join(home, '.config'), 'git', 'config'), join(home, '.gitconfig')];
  const scopes: string[][] = [
    ...(hostEnv['GIT_CONFIG_NOSYSTEM'] && hostEnv['GIT_CONFIG_NOSYSTEM'] !== '0' ? [] : [['--system']]),
    ...files.map((f) => ['--file', f]),
  ];
  const pairs: [string, string][] = [];
  for (const scope of scopes) {
    const r = await runGitResult(
      ['config', ...scope, '--null', '--get-regexp', '^(credential\\..*|core\\.sshcommand)$'],
      {
        cwd: home,
        hostEnv,
        // the system file is read here on purpose (the hardening skips it): it is where a helper such as osxkeychain is set
        env: { GIT_CONFIG_NOSYSTEM: '0' },
        ...(signal ? { signal } : {}),
      },
    );
    if (r.exitCode !== 0) continue; // no such file, or nothing set there
    for (const entry of r.stdout.toString('utf8').split('\0')) {
      const nl = entry.indexOf('\n');
      if (nl <= 0) continue;
      pairs.push([entry.slice(0, nl), entry.slice(nl + 1)]);
    }
  }
  const credentials = pairs.filter(([k]) => k.startsWith('credential.'));
  if (transport !== 'ssh') return credentials;
  const configured = pairs.filter(([k]) => k === 'core.sshcommand').at(-1)?.[1];
  const ssh = hostEnv['GIT_SSH_COMMAND'] || configured || 'ssh -o BatchMode=yes';
  return [...credentials, ['core.sshCommand', ssh]];
}

/**
 * Push refs/heads/<branch> of the repository at `git` to `remote`'s URL under the same name (created
 * or fast-forwarded, never forced). PUSH_FAILED with git's message (credentials taken out) and what to do.
 */
export async function pushBranch(
  git: GitOptions,
  remote: RemoteUrl,
  branch: string,
  opts: { hostEnv?: Readonly<Record<string, string | undefined>>; signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<PushResult> {
  const hostEnv = opts.hostEnv ?? process.env;
  const deadline = AbortSignal.timeout(opts.timeoutMs ?? PUSH_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
  const userConfig = await userPushConfig(remote.transport, hostEnv, opts.signal);
  let r;
  try {
    r = await runGitResult(pushArgs(remote, branch, userConfig), { ...git, hostEnv, signal });
  } catch (err) {
    if (opts.signal?.aborted) throw abortError(opts.signal, `pushing ${branch}`);
    if (deadline.aborted)
      throw new HammerError(
        'PUSH_FAILED',
        `pushing ${branch} to ${remote.display} took longer than ${PUSH_TIMEOUT_MS / 60_000} min`,
        {
          hint: 'check that the remote is reachable (git ls-remote), then run hammer-box pr again',
          cause: err,
        },
      );
    throw err;
  }
  const out = r.stdout.toString('utf8');
  const line = out.split('\n').find((l) => l.includes(`\trefs/heads/${branch}:refs/heads/${branch}\t`));
  const flag = line?.[0];
  if (r.exitCode === 0 && flag !== undefined && flag !== '!') {
    return flag === '*' ? 'created' : flag === '=' ? 'up-to-date' : 'updated';
  }
  throw pushFailure(remote, branch, `${out}\n${r.stderr}`);
}

/** PUSH_FAILED with the end of git's output and a hint for the usual causes. */
function pushFailure(remote: RemoteUrl, branch: string, output: string): HammerError {
  const lines = redact(output)
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '' && l !== 'Done');
  const tail = lines.slice(-12).join('\n');
  const where = remote.host ?? remote.display;
  let hint = `fix what git says, then run hammer-box pr again (or push yourself: git push ${remote.display} refs/heads/${branch}:refs/heads/${branch})`;
  if (/non-fast-forward|fetch first|\[rejected\]/.test(output))
    hint = `${remote.display} already has a branch ${branch} with other commits; hammer-box never force-pushes: pass --remote for another remote, or merge them yourself`;
  else if (
    /Authentication failed|could not read Username|Permission denied|terminal prompts disabled|403|401/.test(output)
  )
    hint = `git cannot authenticate to ${where}: set up a credential helper in your git config (for GitHub 'gh auth setup-git', for GitLab 'glab auth login' with git credentials) or an ssh key, then run hammer-box pr again`;
  else if (/Could not resolve host|Connection refused|timed out|unable to access/.test(output))
    hint = `${where} cannot be reached from here: check the network and the remote's URL (git remote -v)`;
  return new HammerError('PUSH_FAILED', `git could not push ${branch} to ${remote.display}:\n${tail}`, { hint });
}
