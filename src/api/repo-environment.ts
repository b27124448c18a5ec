// What a repository's base commit says about its environment: the toolchain (detected from the
// tree, never the working tree), the dependency files and their content ids, and the setup
// command. Read on the host through a throwaway workbench (hardened git only).
import type { Config } from '../config/schema.js';
import { Workbench, resolveUserRepo, type UserRepo } from '../git/index.js';
import type { DependencyFile } from '../images/env-hash.js';
import { detectToolchain, environmentLine, type Detection } from '../images/detect.js';
import type { Environment } from '../state/run-state.js';
import { planPython } from '../images/python-setup.js';
import { PYTHON_REQUIREMENTS, setupInputs, type ReadFiles, type SetupInputs } from '../images/setup-inputs.js';
import { setupRecipe, type SetupRecipe } from '../images/setup-plan.js';
import { getToolchain } from '../images/toolchains.js';
import { readRepoToolchain, type RepoToolchain } from './repo-toolchain.js';

/** Entries of a tree listed for detection; beyond this the source-extension fallback sees a prefix. */
const MAX_TREE_ENTRIES = 50_000;
/** Bytes read of each manifest (pyproject.toml, requirements files, package.json). */
const MAX_MANIFEST_BYTES = 1024 * 1024;

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
  /** What setup runs; null when there is nothing to install. */
  recipe: SetupRecipe | null;
  /** The env image's key and the files setup receives; null when there is nothing to install. */
  setupInputs: SetupInputs | null;
  dependencyFiles: DependencyFile[];
  userRepo: UserRepo;
  /** What was decided and from what, for the state and the one line on stderr. */
  environment: Environment;
  /** The workbench the tree was read through, when asked to keep it (`keep`); the caller disposes it. */
  workbench?: Workbench;
}

/** Read the base commit's tree and decide toolchain, test command and setup. */
export async function readRepoEnvironment(
  repoPath: string,
  config: Config,
  opts: {
    toolchainExplicit: boolean;
    directive?: string;
    signal?: AbortSignal;
    /** Hand the workbench (and its listing of the base tree) to the caller: a run prepares with it. */
    keep?: boolean;
  },
): Promise<RepoEnvironment> {
  const sig = opts.signal ? { signal: opts.signal } : {};
  const userRepo = await resolveUserRepo(repoPath, config.git.base, sig);
  const workbench = await Workbench.create(userRepo, userRepo.baseCommit, {
    identity: { name: config.git.author_name, email: config.git.author_email },
    ...sig,
  });
  let kept = false;
  try {
    // listed as far as a run's preflight lists it, so that listing is this one; detection sees a prefix
    const listed = await workbench.listTree(userRepo.baseCommit, {
      maxEntries: Math.max(MAX_TREE_ENTRIES, config.sandbox.max_repo_files + 1),
      ...sig,
    });
    const entries = listed.entries.slice(0, MAX_TREE_ENTRIES);
    const root = entries.filter((e) => !e.path.includes('/') && (e.kind === 'file' || e.kind === 'executable'));
    const rootNames = root.map((e) => e.path);
    const read: ReadFiles = async (paths) => {
      const got = await workbench.readFiles(userRepo.baseCommit, paths, {
        maxBytesPerFile: MAX_MANIFEST_BYTES,
        ...sig,
      });
      return new Map(got.files.map((f) => [f.path, f.content]));
    };
    const manifests = await read(['package.json', 'pyproject.toml'].filter((f) => rootNames.includes(f)));
    let detection: Detection | null = null;
    let toolchain: string | null = null;
    if (opts.toolchainExplicit) {
      toolchain = getToolchain(config.sandbox.toolchain).name;
    } else {
      try {
        detection = detectToolchain(
          rootNames,
          entries.map((e) => e.path),
          {
            ...(manifests.has('package.json') ? { packageJson: manifests.get('package.json')! } : {}),
            ...(manifests.has('pyproject.toml') ? { pyproject: manifests.get('pyproject.toml')! } : {}),
            ...(opts.directive !== undefined ? { directive: opts.directive } : {}),
          },
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
    const evidence = detection ? [...detection.evidence, ...detection.tests] : [];
    const version = toolchainVersion?.resolved.release.version;
    const environment = (setupCommand: string): Environment => ({
      toolchain,
      evidence,
      decided_by: opts.toolchainExplicit
        ? 'named'
        : detection === null
          ? 'image'
          : detection.by === 'sources'
            ? 'sources'
            : 'evidence',
      test_command: testCommand,
      line: environmentLine({
        toolchain,
        ...(version ? { version } : {}),
        evidence,
        testCommand,
        named: opts.toolchainExplicit,
      }),
      setup_command: setupCommand,
    });
    const handOver = (): { workbench?: Workbench } => {
      kept = opts.keep === true;
      return kept ? { workbench } : {};
    };
    if (toolchain === null)
      return {
        toolchain,
        detection,
        testCommand,
        setupCommand: config.env.setup_command,
        toolchainVersion,
        recipe: null,
        setupInputs: null,
        dependencyFiles: [],
        userRepo,
        environment: environment(config.env.setup_command),
        ...handOver(),
      };
    const python =
      toolchain === 'python' && !config.env.setup_command
        ? planPython(
            rootNames,
            entries.map((e) => e.path),
            manifests.get('pyproject.toml'),
            PYTHON_REQUIREMENTS.filter((r) => rootNames.includes(r)),
          )
        : undefined;
    const recipe = setupRecipe(toolchain, config.env.setup_command, rootNames, {
      ...(python ? { python } : {}),
      ...(pm ? { node: { packageManager: pm, npmRegistry: config.env.npm_registry } } : {}),
    });
    const inputs =
      recipe.command === ''
        ? null
        : await setupInputs({
            toolchain,
            custom: recipe.custom,
            files: entries.filter((e) => e.kind === 'file' || e.kind === 'executable' || e.kind === 'symlink'),
            baseTree: userRepo.baseTree,
            read,
          });
    return {
      toolchain,
      detection,
      testCommand,
      setupCommand: recipe.command,
      toolchainVersion,
      recipe: recipe.command === '' ? null : recipe,
      setupInputs: inputs,
      dependencyFiles: inputs?.key ?? [],
      userRepo,
      environment: environment(recipe.command),
      ...handOver(),
    };
  } finally {
    if (!kept) await workbench.dispose();
  }
}
