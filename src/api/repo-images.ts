// The images a run of a repository uses, made when missing (as a run makes them), for `images
// export --for-repo`: the env image (or the toolchain image, when there is nothing to install),
// without starting a run.
import { join, resolve } from 'node:path';
import type Dockerode from 'dockerode';
import { resolveConfig } from '../config/resolve.js';
import { packageRoot } from '../paths.js';
import { readRepoEnvironment } from './repo-environment.js';
import type { ImageLock } from '../images/lock.js';
import { resolveImage, type RunImages } from './resolve-image.js';

/** What `repoImages` needs. */
export interface RepoImagesOptions {
  repo: string;
  configFile?: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  onProgress?: (line: string) => void;
  /** The commit to read the repository at (default: [git] base, as a run). */
  baseCommit?: string;
  /** Build the toolchain image exactly from this lock when it is missing. */
  toolchainLock?: ImageLock;
  /** Set the env image up exactly from this lock when it is missing (pip held to its versions). */
  envLock?: ImageLock;
}

/** The images made, and their locks (toolchain first). */
export interface RepoImages extends RunImages {
  lockObjects?: { toolchain?: ImageLock; env?: ImageLock };
}

/** The images a run of `repo` at its base would use, made when missing. */
export async function repoImages(docker: Dockerode, options: RepoImagesOptions): Promise<RepoImages> {
  const env = options.env ?? process.env;
  const repo = resolve(options.repo);
  const resolved = await resolveConfig({
    env,
    repo,
    ...(options.configFile ? { configFile: resolve(options.configFile) } : {}),
    ...(options.baseCommit ? { flags: { git: { base: options.baseCommit } } } : {}),
  });
  const toolchainExplicit =
    resolved.sources.get('sandbox.toolchain') !== join(packageRoot(), 'configs', 'default.toml');
  const repoEnv = await readRepoEnvironment(repo, resolved.config, {
    toolchainExplicit,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  let locks: ImageLock[] = [];
  const images = await resolveImage(docker, resolved.config, {
    repoEnv,
    env,
    onLocks: (l) => void (locks = l),
    ...(options.toolchainLock ? { toolchainLock: options.toolchainLock } : {}),
    ...(options.envLock ? { envLock: options.envLock } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress, onSetupOutput: options.onProgress } : {}),
  });
  const toolchain = locks.find((l) => l.kind === 'toolchain');
  const env_ = locks.find((l) => l.kind === 'env');
  return {
    ...images,
    lockObjects: { ...(toolchain ? { toolchain } : {}), ...(env_ ? { env: env_ } : {}) },
  };
}
