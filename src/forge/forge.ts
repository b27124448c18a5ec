// Which forge a branch's pull request goes to and the exact gh or glab invocation that opens it
// (pure). GitHub or GitLab is chosen by --forge, else by the remote's host (github.com or a host
// named github..., gitlab.com or a host named gitlab...); the project is --forge-repo, else the
// remote's host and path. Titles, bodies and branch names go in as `--flag=value` words (a value
// can never be read as an option) or on stdin, never through a shell, and no token is ever an argument.
import { HammerError } from '../errors.js';
import { shellWord } from '../text/shell-word.js';

/** The forges hammer-box opens pull requests on, and the tool each needs. */
export const FORGES = { github: 'gh', gitlab: 'glab' } as const;

/** A forge hammer-box can open a pull request on. */
export type ForgeKind = keyof typeof FORGES;

/** A project on a forge: its host and its path there ("acme/widgets", "group/sub/project"). */
export interface ForgeProject {
  host: string;
  path: string;
}

/** What the pull request is. */
export interface PullRequestSpec {
  project: ForgeProject;
  /** The branch pushed (the pull request's head / the merge request's source). */
  head: string;
  /** The branch to merge into; null: the project's default branch. */
  base: string | null;
  title: string;
  body: string;
  draft: boolean;
}

/** A program to run: argv (after the program's name) and what goes to its stdin. */
export interface ToolCall {
  tool: string;
  args: string[];
  stdin: string;
}

/** The largest pull request body sent, in bytes (GitHub takes 65,536 characters; GitLab more). */
export const MAX_BODY_BYTES = 60_000;

/** The forge a remote host is on, or null when its name does not say. */
export function forgeOfHost(host: string | undefined): ForgeKind | null {
  if (!host) return null;
  const name = host.toLowerCase().replace(/:\d+$/, '');
  if (name === 'github.com' || name.endsWith('.github.com') || /(^|[.-])github([.-]|$)/.test(name)) return 'github';
  if (name === 'gitlab.com' || /(^|[.-])gitlab([.-]|$)/.test(name)) return 'gitlab';
  return null;
}

/** The host --forge-repo names, when it names one ("ghe.example.com/acme/widgets"; not "acme/widgets"). */
export function forgeRepoHost(text: string): string | undefined {
  const parts = repoParts(text);
  const first = parts[0] ?? '';
  // a first part with a dot or a port is a host
  return parts.length >= 3 && /[.:]/.test(first) ? first.toLowerCase() : undefined;
}

/** --forge-repo as a project: "[host/]path"; the host defaults to the remote's, else the forge's public one. */
export function parseForgeRepo(text: string, forge: ForgeKind, remoteHost: string | undefined): ForgeProject {
  const parts = repoParts(text);
  if (parts.length < 2 || parts.some((p) => p === '.' || p === '..' || !/^[\w.:@~+][\w.:@~+-]*$/.test(p)))
    throw new HammerError('USAGE', `--forge-repo ${JSON.stringify(text)} is not [host/]owner/repository`, {
      hint: 'pass it like acme/widgets, github.example.com/acme/widgets or gitlab.com/group/sub/project',
    });
  const host = forgeRepoHost(text);
  if (host) return { host, path: parts.slice(1).join('/') };
  return { host: remoteHost ?? (forge === 'github' ? 'github.com' : 'gitlab.com'), path: parts.join('/') };
}

/** The project a remote URL names on its host; null for a local path or a URL without a project path. */
export function projectOfRemote(host: string | undefined, path: string): ForgeProject | null {
  if (!host || !/^[\w.~+-]+(\/[\w.~+-]+)+$/.test(path)) return null;
  return { host, path };
}

/** `gh auth status` / `glab auth status` for the project's host: exit 0 when the tool can act there. */
export function authStatusCall(forge: ForgeKind, host: string): ToolCall {
  return { tool: FORGES[forge], args: ['auth', 'status', '--hostname', hostName(host)], stdin: '' };
}

/** The call that opens the pull request (GitHub) or merge request (GitLab). */
export function openCall(forge: ForgeKind, pr: PullRequestSpec): ToolCall {
  if (forge === 'github') {
    return {
      tool: 'gh',
      args: [
        'pr',
        'create',
        `--repo=${pr.project.host}/${pr.project.path}`,
        `--head=${pr.head}`,
        ...(pr.base ? [`--base=${pr.base}`] : []),
        `--title=${pr.title}`,
        '--body-file=-',
        ...(pr.draft ? ['--draft'] : []),
      ],
      stdin: pr.body,
    };
  }
  return {
    tool: 'glab',
    args: [
      'mr',
      'create',
      `--repo=https://${pr.project.host}/${pr.project.path}`,
      `--source-branch=${pr.head}`,
      ...(pr.base ? [`--target-branch=${pr.base}`] : []),
      `--title=${pr.title}`,
      `--description=${pr.body}`,
      ...(pr.draft ? ['--draft'] : []),
      '--yes',
    ],
    stdin: '',
  };
}

/** The call that lists the open pull (merge) request whose head is `head`, as JSON. */
export function existingCall(forge: ForgeKind, project: ForgeProject, head: string): ToolCall {
  if (forge === 'github')
    return {
      tool: 'gh',
      args: [
        'pr',
        'list',
        `--repo=${project.host}/${project.path}`,
        `--head=${head}`,
        '--state=open',
        '--json=url',
        '--limit=1',
      ],
      stdin: '',
    };
  return {
    tool: 'glab',
    args: ['mr', 'list', `--repo=https://${project.host}/${project.path}`, `--source-branch=${head}`, '--output=json'],
    stdin: '',
  };
}

/** The URL of the first pull (merge) request a JSON listing names (`url`, GitLab's `web_url`), or null. */
export function existingUrl(output: string): string | null {
  let listing: unknown;
  try {
    listing = JSON.parse(output);
  } catch {
    return null;
  }
  const first: unknown = Array.isArray(listing) ? listing[0] : undefined;
  if (typeof first !== 'object' || first === null) return null;
  const url = (first as Record<string, unknown>)['url'] ?? (first as Record<string, unknown>)['web_url'];
  return typeof url === 'string' && /^https?:\/\/\S+$/.test(url) ? url : null;
}

/**
 * The commands to paste when hammer-box cannot run the tool itself: the body from `bodyCommand`
 * (`hammer-box runs show … --pr-body`, or `cat <file>`), then the same call as openCall's.
 */
export function manualCommand(forge: ForgeKind, pr: Omit<PullRequestSpec, 'body'>, bodyCommand: string): string {
  const base = pr.base ? ` --base ${shellWord(pr.base)}` : '';
  if (forge === 'github')
    return `${bodyCommand} | gh pr create --repo ${shellWord(`${pr.project.host}/${pr.project.path}`)} --head ${shellWord(pr.head)}${base} --title ${shellWord(pr.title)} --body-file -${pr.draft ? ' --draft' : ''}`;
  const target = pr.base ? ` --target-branch ${shellWord(pr.base)}` : '';
  return `glab mr create --repo ${shellWord(`https://${pr.project.host}/${pr.project.path}`)} --source-branch ${shellWord(pr.head)}${target} --title ${shellWord(pr.title)} --description "$(${bodyCommand})"${pr.draft ? ' --draft' : ''} --yes`;
}

/** The pull request's URL in what gh or glab printed (the last http(s) URL), or null. */
export function pullRequestUrl(output: string): string | null {
  const urls = output.match(/https?:\/\/[^\s<>"'`]+/g);
  return urls?.at(-1) ?? null;
}

/** A body cut to MAX_BODY_BYTES at a line end, saying where the rest is. */
export function boundedBody(body: string, whole: string): string {
  if (Buffer.byteLength(body) <= MAX_BODY_BYTES) return body;
  const note = `\n\n… (cut at ${MAX_BODY_BYTES.toLocaleString('en-US')} bytes; the whole text is ${whole})\n`;
  let cut = Buffer.from(body)
    .subarray(0, MAX_BODY_BYTES - Buffer.byteLength(note))
    .toString('utf8');
  cut = cut.replace(/\uFFFD$/, '');
  const nl = cut.lastIndexOf('\n');
  return `${nl > 0 ? cut.slice(0, nl) : cut}${note}`;
}

function repoParts(text: string): string[] {
  const clean = text
    .trim()
    .replace(/^https?:\/\//, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
  return clean.split('/').filter(Boolean);
}

function hostName(host: string): string {
  return host.replace(/:\d+$/, '');
}
