// The fixed environment and `-c` overrides every host-side git call runs with, so that nothing in
// a hostile repository's local config (or the host's environment) can make git run a program.

/**
 * Config overrides put before every subcommand (`git -c key=value ... <subcommand>`). Command-line
 * config is read last, so each of these beats the repository's own .git/config and its includes.
 *
 * What a hostile local config could otherwise run, for the commands hammer-box uses (rev-parse,
 * show-ref, init, cat-file, ls-tree, read-tree, apply --cached, write-tree, commit-tree,
 * update-ref, pack-objects, index-pack, rev-list, diff):
 * - hooks (reference-transaction on update-ref; any other) via core.hooksPath or .git/hooks:
 *   core.hooksPath=/dev/null, so no hook is ever found;
 * - core.fsmonitor (any index-reading command): off; untracked cache off;
 * - lazy fetch of a missing object in a partial clone (extensions.partialClone +
 *   remote.<r>.uploadpack / url.<x>.insteadOf / core.sshCommand / protocol.<x>.allow): every
 *   transport is denied by name (protocol.allow alone would lose to a repo's protocol.<name>.allow),
 *   GIT_NO_LAZY_FETCH=1 in the environment, ssh and askpass neutralised, no credential helper;
 * - commit.gpgSign / tag.gpgSign / log.showSignature (gpg.program): off;
 * - pagers (core.pager, pager.*): `--no-pager` and core.pager=cat;
 * - diff.external and diff.<driver>.textconv: every diff runs with --no-ext-diff --no-textconv
 *   (diff.external= would not help: git then tries to run an empty command);
 * - attributes and excludes from a core.attributesFile / core.excludesFile (filter drivers):
 *   /dev/null; the workbench is bare, so no working-tree .gitattributes is read either, and no
 *   command we run converts content through a filter;
 * - auto gc / maintenance (which spawn subprocesses): off;
 * - replace refs (which would make the base tree differ between the user's repo and the
 *   workbench): off, here and with GIT_NO_REPLACE_OBJECTS.
 * Never used, by design, so their knobs need no override: fetch, clone, push, upload-pack and
 * receive-pack (core.alternateRefsCommand, uploadpack.packObjectsHook, remote.*.uploadpack,
 * url.*.insteadOf all live there), checkout, merge (merge drivers), apply --3way, submodules.
 * include.path / includeIf only read more config; they cannot run anything, and whatever they
 * set is overridden by the list below like the rest of the repository's config.
 */
export const HARDENING_CONFIG: readonly (readonly [key: string, value: string])[] = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['core.untrackedCache', 'false'],
  ['core.pager', 'cat'],
  ['core.askPass', ''],
  ['core.sshCommand', 'false'],
  ['core.attributesFile', '/dev/null'],
  ['core.excludesFile', '/dev/null'],
  ['core.useReplaceRefs', 'false'],
  ['credential.helper', ''],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['fetch.writeCommitGraph', 'false'],
  ['submodule.recurse', 'false'],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['log.showSignature', 'false'],
  ['protocol.allow', 'never'],
  ...['file', 'git', 'ssh', 'http', 'https', 'ftp', 'ftps', 'ext', 'fd'].map(
    (p) => [`protocol.${p}.allow`, 'never'] as const,
  ),
];

/** Variables set on every git call, after every GIT_* variable of the host has been removed. */
export const HARDENING_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_ATTR_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
  GIT_OPTIONAL_LOCKS: '0',
  GIT_NO_LAZY_FETCH: '1',
  GIT_NO_REPLACE_OBJECTS: '1',
  GIT_PROTOCOL_FROM_USER: '0',
  GIT_LITERAL_PATHSPECS: '1',
  LC_ALL: 'C',
};

/** Host variables that are dropped besides GIT_*: they name programs git could run. */
const DROPPED_HOST_VARS = new Set(['SSH_ASKPASS', 'PAGER', 'EDITOR', 'VISUAL', 'LANGUAGE', 'LANG']);

/**
 * The environment for a git child process: the host's, minus every GIT_* variable and the program
 * hooks above, PATH reduced to absolute directories (a relative entry would resolve inside the
 * repository), then the hardening variables, then `extra` (our own GIT_INDEX_FILE, author, ...).
 */
export function gitEnv(
  extra: Readonly<Record<string, string>> = {},
  hostEnv: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(hostEnv)) {
    if (value === undefined || key.startsWith('GIT_') || DROPPED_HOST_VARS.has(key)) continue;
    env[key] = value;
  }
  env.PATH = (env.PATH ?? '/usr/local/bin:/usr/bin:/bin')
    .split(':')
    .filter((dir) => dir.startsWith('/'))
    .join(':');
  return { ...env, ...HARDENING_ENV, ...extra };
}

/** The arguments placed before the subcommand: `--no-pager`, then `-c key=value` for each override. */
export function hardeningArgs(): string[] {
  const args = ['--no-pager'];
  for (const [key, value] of HARDENING_CONFIG) args.push('-c', `${key}=${value}`);
  return args;
}
