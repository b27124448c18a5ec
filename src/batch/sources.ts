// The repositories a batch's tasks name, each resolved once: a local path is read where it is
// (read-only plumbing, as `run` reads the user's repository); a URL is fetched by the host into
// `<batch dir>/sources/<hash>.git`, a bare repository only hammer-box writes, with only the http and
// https transports allowed, no credentials, no hooks, and a stall limit. Attempts borrow objects
// from either through alternates (see task-repo.ts).
import { createHash } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { HammerError } from '../errors.js';
import { runGit, runGitResult, type GitOptions } from '../git/git-exec.js';
import { resolveUserRepo } from '../git/user-repo.js';
import { sanitizeLine, truncateText } from '../text/sanitize.js';
import { makeRealDirs } from '../state/no-follow.js';
import type { TaskSource } from './task-schema.js';
import type { SourceRepo } from './task-repo.js';

/** The `-c` settings a fetch from a task's URL adds to the hardened ones: http(s) only, and a stall limit. */
export const FETCH_CONFIG: readonly string[] = [
  'protocol.http.allow=always',
  'protocol.https.allow=always',
  // a server that sends under 1 KiB/s for a minute is given up on
  'http.lowSpeedLimit=1024',
  'http.lowSpeedTime=60',
];

/** The arguments of a fetch from `url` into the source repository (the refs to fetch last). Pure. */
export function fetchArgs(url: string, refspecs: readonly string[]): string[] {
  return [
    ...FETCH_CONFIG.flatMap((c) => ['-c', c]),
    'fetch',
    '--quiet',
    '--no-tags',
    '--no-write-fetch-head',
    '--no-recurse-submodules',
    '--',
    url,
    ...refspecs,
  ];
}

/** The directory name of a URL's source repository. Pure. */
export function sourceDirName(url: string): string {
  return `${createHash('sha256').update(url).digest('hex').slice(0, 16)}.git`;
}

/** Resolves task sources to repositories, once per source and commit, fetching a URL's commits one fetch at a time. */
export class Sources {
  readonly #resolved = new Map<string, Promise<SourceRepo>>();
  /** Fetches into one URL's repository are serialised (a fallback fetch updates its refs). */
  readonly #fetching = new Map<string, Promise<unknown>>();

  constructor(
    /** `<batch dir>/sources`. */
    private readonly dir: string,
    /** The batch's signal (a fetch serves several tasks, so no task's own timeout stops it). */
    private readonly signal?: AbortSignal,
  ) {}

  /** The repository and full commit of a task's `source` at `commit`; REPO_INVALID saying why not. */
  resolve(source: TaskSource, commit: string): Promise<SourceRepo> {
    const key = `${source.kind === 'path' ? source.path : source.url}\n${commit}`;
    let pending = this.#resolved.get(key);
    if (!pending) {
      pending = source.kind === 'path' ? this.#local(source.path, commit) : this.#remote(source.url, commit);
      // a failure is not kept: the next attempt tries again
      pending.catch(() => this.#resolved.delete(key));
      this.#resolved.set(key, pending);
    }
    return pending;
  }

  async #local(path: string, commit: string): Promise<SourceRepo> {
    const repo = await resolveUserRepo(path, commit, this.signal ? { signal: this.signal } : {});
    return { objectsDir: repo.objectsDir, objectFormat: repo.objectFormat, commit: repo.baseCommit };
  }

  async #remote(url: string, commit: string): Promise<SourceRepo> {
    const gitDir = join(this.dir, sourceDirName(url));
    const objectFormat = commit.length === 64 ? 'sha256' : 'sha1';
    const sig = this.signal ? { signal: this.signal } : {};
    const git: GitOptions = { gitDir, ...sig };
    const previous = this.#fetching.get(url) ?? Promise.resolve();
    const work = previous
      .catch(() => undefined)
      .then(async () => {
        if (!(await exists(gitDir))) {
          await makeRealDirs(dirname(this.dir), [basename(this.dir)], {
            what: '--out',
            hint: "remove it: the batch's sources directory holds only what hammer-box fetched",
          });
          await runGit(['init', '--bare', '--quiet', '--template=', `--object-format=${objectFormat}`, gitDir], sig);
        }
        if (await hasCommit(git, commit)) return;
        // the commit by id (servers that allow it), else every branch and tag
        const byId = await runGitResult(fetchArgs(url, [commit]), git);
        if (byId.exitCode === 0 && (await hasCommit(git, commit))) return;
        const all = await runGitResult(
          fetchArgs(url, ['+refs/heads/*:refs/fetched/heads/*', '+refs/tags/*:refs/fetched/tags/*']),
          git,
        );
        if (all.exitCode !== 0)
          throw new HammerError('REPO_INVALID', `cannot fetch ${sanitizeLine(url)}: ${gitMessage(all.stderr)}`, {
            hint: 'check the URL (http or https, readable without credentials); for a private repository clone it yourself and give its path',
          });
        if (!(await hasCommit(git, commit)))
          throw new HammerError('REPO_INVALID', `${sanitizeLine(url)} has no commit ${commit}`, {
            hint: 'check the task\'s "commit": a full commit id reachable from a branch or tag of that repository',
          });
      });
    this.#fetching.set(url, work);
    await work;
    // kept by a ref of its own, whatever later fetches do to refs/fetched/
    await runGit(['update-ref', `refs/keep/${commit}`, commit], git);
    return { objectsDir: join(gitDir, 'objects'), objectFormat, commit };
  }
}

async function hasCommit(git: GitOptions, commit: string): Promise<boolean> {
  return (await runGitResult(['cat-file', '-e', `${commit}^{commit}`], git)).exitCode === 0;
}

/** True when `path` is a real directory; false when absent; REPO_INVALID for anything else (never followed). */
async function exists(path: string): Promise<boolean> {
  const st = await lstat(path).catch(() => null);
  if (st === null) return false;
  if (!st.isDirectory())
    throw new HammerError('REPO_INVALID', `${path} is ${st.isSymbolicLink() ? 'a symlink' : 'not a directory'}`, {
      hint: "remove it: the batch's sources directory holds only what hammer-box fetched",
    });
  return true;
}

/** git's stderr (which quotes the server) as one bounded, sanitised line. */
function gitMessage(stderr: string): string {
  return truncateText(sanitizeLine(stderr), 400) || 'git gave no reason';
}
