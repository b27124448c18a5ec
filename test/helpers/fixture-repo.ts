// Fixture git repositories built at test time in a temp dir (and removed after), plus a snapshot
// of everything in a repository except its object store, to prove what hammer-box left untouched.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, lstat, mkdir, mkdtemp, readFile, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** A file in a fixture: text or bytes, an executable, or a symlink to `target`. */
export type FixtureFile = string | Buffer | { content: string | Buffer; executable?: boolean } | { symlink: string };

/** One commit: files written (null deletes) and a message. */
export interface FixtureCommit {
  files: Record<string, FixtureFile | null>;
  message?: string;
}

/** How to build a fixture repository. */
export interface FixtureRepoOptions {
  /** Files of the first commit (shorthand for commits[0]). */
  files?: Record<string, FixtureFile>;
  /** Further commits, in order. */
  commits?: FixtureCommit[];
  /** The branch to commit on (default main). */
  branch?: string;
}

/** A fixture repository on disk. */
export interface FixtureRepo {
  path: string;
  /** Run plain git in the repo (isolated from the host's global config; hooks and config of the repo apply). */
  git(args: string[], env?: Record<string, string>): Promise<string>;
  /** Write files into the working tree without committing. */
  write(files: Record<string, FixtureFile>): Promise<void>;
  head(): Promise<string>;
  /** Remove the repository. */
  cleanup(): Promise<void>;
}

/** The environment fixture git runs with: no system or global config, a fixed identity and date. */
export function fixtureGitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Fixture Author',
    GIT_AUTHOR_EMAIL: 'fixture@example.com',
    GIT_AUTHOR_DATE: '1700000000 +0000',
    GIT_COMMITTER_NAME: 'Fixture Author',
    GIT_COMMITTER_EMAIL: 'fixture@example.com',
    GIT_COMMITTER_DATE: '1700000000 +0000',
    ...extra,
  };
}

/** Create a temp directory (for fixtures and canaries); remove it with rm. */
export function tempDir(prefix = 'hb-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Build a repository with the given commits on `branch`. */
export async function createFixtureRepo(opts: FixtureRepoOptions = {}): Promise<FixtureRepo> {
  const path = await tempDir('hb-fixture-');
  const git = async (args: string[], env: Record<string, string> = {}): Promise<string> => {
    const { stdout } = await exec('git', args, { cwd: path, env: fixtureGitEnv(env), maxBuffer: 256 * 1024 * 1024 });
    return stdout;
  };
  const write = (files: Record<string, FixtureFile | null>): Promise<void> => writeFiles(path, files);
  await git(['init', '--quiet', '--template=', `--initial-branch=${opts.branch ?? 'main'}`]);
  const commits: FixtureCommit[] = [...(opts.files ? [{ files: opts.files }] : []), ...(opts.commits ?? [])];
  for (const [i, commit] of commits.entries()) {
    await write(commit.files);
    await git(['add', '--all']);
    await git(['commit', '--quiet', '--allow-empty', '--no-verify', '-m', commit.message ?? `commit ${i + 1}`]);
  }
  return {
    path,
    git,
    write,
    head: async () => (await git(['rev-parse', 'HEAD'])).trim(),
    cleanup: () => rm(path, { recursive: true, force: true }),
  };
}

async function writeFiles(root: string, files: Record<string, FixtureFile | null>): Promise<void> {
  for (const [name, file] of Object.entries(files)) {
    const target = join(root, name);
    await rm(target, { force: true, recursive: true });
    if (file === null) continue;
    await mkdir(dirname(target), { recursive: true });
    if (typeof file === 'string' || Buffer.isBuffer(file)) await writeFile(target, file);
    else if ('symlink' in file) await symlink(file.symlink, target);
    else {
      await writeFile(target, file.content);
      await chmod(target, file.executable ? 0o755 : 0o644);
    }
  }
}

/** Each path of a repository (relative) mapped to "<type> <mode> <sha256 or link target>". */
export type RepoSnapshot = Map<string, string>;

/**
 * Hash everything under `path` except .git/objects: refs, HEAD, index, config, hooks, info,
 * packed-refs, logs, and the working tree including untracked files. Symlinks are not followed.
 */
export async function snapshotRepo(path: string): Promise<RepoSnapshot> {
  const snapshot: RepoSnapshot = new Map();
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const full = join(dir, name);
      const rel = relative(path, full);
      if (rel === join('.git', 'objects')) continue;
      const info = await lstat(full);
      const mode = (info.mode & 0o7777).toString(8);
      if (info.isSymbolicLink()) snapshot.set(rel, `symlink ${mode} ${await readlink(full)}`);
      else if (info.isDirectory()) {
        snapshot.set(rel, `dir ${mode}`);
        await walk(full);
      } else if (info.isFile()) {
        snapshot.set(
          rel,
          `file ${mode} ${createHash('sha256')
            .update(await readFile(full))
            .digest('hex')}`,
        );
      } else snapshot.set(rel, `other ${mode}`);
    }
  };
  await walk(path);
  return snapshot;
}

/** The paths added, removed and changed between two snapshots. */
export function diffSnapshots(
  before: RepoSnapshot,
  after: RepoSnapshot,
): { added: string[]; removed: string[]; changed: string[] } {
  const added = [...after.keys()].filter((k) => !before.has(k));
  const removed = [...before.keys()].filter((k) => !after.has(k));
  const changed = [...after.keys()].filter((k) => before.has(k) && before.get(k) !== after.get(k));
  return { added, removed, changed };
}
