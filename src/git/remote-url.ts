// A remote's URL as `git push` would use it, understood before anything is pushed (pure): which
// transport (only https, http, ssh and a local path are pushed over; a remote helper such as ext::
// would run a program), the host and project path a forge knows it by, and a form safe to print
// (credentials in the URL are never shown).
import { HammerError } from '../errors.js';

/** The transports hammer-box pushes over, by the name git's protocol.<name>.allow uses. */
export type PushTransport = 'https' | 'http' | 'ssh' | 'file';

/** A remote URL, understood. */
export interface RemoteUrl {
  /** The URL exactly as git gave it (may hold credentials: never print it). */
  url: string;
  transport: PushTransport;
  /** The host (with :port for http(s) when one is given); undefined for a local path. */
  host: string | undefined;
  /** The project's path on the host, without a leading / or a trailing .git ("acme/widgets"). */
  path: string;
  /** The URL without user name or password, for messages. */
  display: string;
}

/** Understand a remote URL; REPO_INVALID for one hammer-box does not push to, saying why. */
export function parseRemoteUrl(remote: string, url: string): RemoteUrl {
  const refuse = (why: string): HammerError =>
    new HammerError('REPO_INVALID', `remote ${remote}'s URL ${JSON.stringify(redact(url))} ${why}`, {
      hint: `push the branch yourself, or point ${remote} at an https://, ssh:// or user@host:path URL (git remote set-url ${remote} <url>)`,
    });
  if (url === '' || /[\0\n\r]/.test(url)) throw refuse('is empty or holds a line break');
  if (url.startsWith('-')) throw refuse('starts with "-"');
  // <helper>::<address> runs git-remote-<helper> (ext:: runs any command)
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(url)) throw refuse('names a remote helper, which could run a program');
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw refuse('is not a URL');
    }
    const transport: PushTransport | undefined =
      scheme === 'https'
        ? 'https'
        : scheme === 'http'
          ? 'http'
          : scheme === 'ssh' || scheme === 'git+ssh' || scheme === 'ssh+git'
            ? 'ssh'
            : scheme === 'file'
              ? 'file'
              : undefined;
    if (transport === undefined) throw refuse(`uses ${scheme}://, which hammer-box does not push over`);
    const display = `${scheme}://${u.host}${u.pathname}`;
    if (transport === 'file') return { url, transport, host: undefined, path: projectPath(u.pathname), display };
    const host = transport === 'ssh' ? u.hostname.toLowerCase() : u.host.toLowerCase();
    if (host === '') throw refuse('names no host');
    return { url, transport, host, path: projectPath(u.pathname), display };
  }
  // scp-like: [user@]host:path, a colon before any slash
  const scp = /^(?:([^@/]+)@)?([^:/]+):(.*)$/.exec(url);
  if (scp && !url.startsWith('/') && !url.startsWith('.')) {
    const host = scp[2]!.toLowerCase();
    const path = scp[3]!;
    return { url, transport: 'ssh', host, path: projectPath(path), display: `${host}:${path}` };
  }
  // a local path (absolute or relative to the repository)
  return { url, transport: 'file', host: undefined, path: projectPath(url), display: url };
}

/** A URL with any user name and password taken out (for messages). */
export function redact(text: string): string {
  return text.replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/@\s]*@/g, '$1');
}

function projectPath(path: string): string {
  return path
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
}
