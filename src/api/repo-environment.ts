// What a repository's base commit says about its environment: the toolchain (detected from the
// tree, never the working tree), the dependency files and their content ids, and the setup
// command. Read on the host through a throwaway workbench (hardened git only).
import type { Config } from '../config/schema.js';
import { Workbench, resolveUserRepo, type UserRepo } from '../git/index.js';
import type { DependencyFile } from '../images/env-hash.js';
import { detectToolchain, type Detection } from '../images/detect.js';
import { defaultSetupCommand, isDependencyFile, localRequirementPaths } from '../images/setup-plan.js';
import { getToolchain } from '../images/toolchains.js';
import { readRepoToolchain, type RepoToolchain } from './repo-toolchain.js';

/** Entries of a tree listed for detection; beyond this the source-extension fallback sees a prefix. */
const MAX_TREE_ENTRIES = 50_000;

/** The environment a run needs, decided before anything is built. */
export interface RepoEnvironment {
  /** The toolchain (explicit or detected); null only for a user's image with its own test command and nothing detected. */
  toolchain: string | null;
  detection: Detection | null;
  testCommand: string;
  /** The setup command ('' when there is nothing to install). */
  setupCommand: string;
  /** The toolchain's release and (node) package manager; null when there is no toolchain. */
  toolchainVersion: RepoToolchain | null;
  dependencyFiles: DependencyFile[];
  userRepo: UserRepo;
}

/** Read the base commit's tree and decide toolchain, test command and setup. */
export async function readRepoEnvironment(
  repoPath: string,
  config: Config,
  opts: { toolchainExplicit: boolean; signal?: AbortSignal },
): Promise<RepoEnvironment> {
  const sig = opts.signal ? { signal: opts.signal } : {};
  const userRepo = await resolveUserRepo(repoPath, config.git.base, sig);
  const workbench = await Workbench.create(userRepo, userRepo.baseCommit, {
    identity: { name: config.git.author_name, email: config.git.author_email },
    ...sig,
  });
  try {
    const { entries } = await workbench.listTree(userRepo.baseCommit, { maxEntries: MAX_TREE_ENTRIES, ...sig });
    const root = entries.filter((e) => !e.path.includes('/') && (e.kind === 'file' || e.kind === 'executable'));
    const rootNames = root.map((e) => e.path);
    let detection: Detection | null = null;
    let toolchain: string | null = null;
    if (opts.toolchainExplicit) {
      toolchain = getToolchain(config.sandbox.toolchain).name;
    } else {
      try {
        detection = detectToolchain(
          rootNames,
          entries.map((e) => e.path),
        );
        toolchain = detection.toolchain;
      } catch (err) {
        // a user's own image with its own test command needs no toolchain
        if (!(config.sandbox.image && config.tools.test_command)) throw err;
      }
    }
    // the toolchain's release (a user's own image needs none) and, for node, the package manager
    const toolchainVersion =
      toolchain !== null && !config.sandbox.image
        ? await readRepoToolchain(workbench, userRepo.baseCommit, toolchain, rootNames, config, opts.signal)
        : null;
    const pm = toolchainVersion?.packageManager ?? undefined;
    const testCommand =
      config.tools.test_command || pm?.testCommand || (toolchain ? getToolchain(toolchain).defaultTestCommand : '');
    if (toolchain === null)
      return {
        toolchain,
        detection,
        testCommand,
        setupCommand: config.env.setup_command,
        toolchainVersion,
        dependencyFiles: [],
        userRepo,
      };
    const setupCommand = config.env.setup_command || defaultSetupCommand(toolchain, rootNames, pm);
    const dependencyFiles: DependencyFile[] = root
      .filter((e) => isDependencyFile(toolchain, e.path))
      .map((e) => ({ path: e.path, oid: e.oid }));
    if (toolchain === 'python')
      dependencyFiles.push(...(await localPackages(workbench, userRepo.baseCommit, dependencyFiles, opts.signal)));
    return { toolchain, detection, testCommand, setupCommand, toolchainVersion, dependencyFiles, userRepo };
  } finally {
    await workbench.dispose();
  }
}

/** Tree ids of local package directories named by requirements files, so editing one gives a new env. */
async function localPackages(
  workbench: Workbench,
  commit: string,
  files: readonly DependencyFile[],
  signal?: AbortSignal,
): Promise<DependencyFile[]> {
  const reqs = files.filter((f) => /^requirements[^/]*\.txt$/.test(f.path)).map((f) => f.path);
  if (reqs.length === 0) return [];
  const read = await workbench.readFiles(commit, reqs, { maxBytesPerFile: 256 * 1024, ...(signal ? { signal } : {}) });
  const dirs = [...new Set(read.files.flatMap((f) => localRequirementPaths(f.content)))].filter((d) => d !== '.');
  const out: DependencyFile[] = [];
  for (const dir of dirs) {
    const res = await workbench
      .git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${commit}:${dir}`], signal ? { signal } : {})
      .catch(() => undefined);
    const oid = res?.stdout.toString('utf8').trim();
    if (oid) out.push({ path: `${dir}/`, oid });
  }
  return out;
}
