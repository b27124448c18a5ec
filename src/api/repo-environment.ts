// What a repository's base commit says about its environment: the toolchain (detected from the
// tree, never the working tree), the project's directory, the dependency files and their content
// ids, and the setup command; and the same for the other projects detection passed over, which a
// run tries when the chosen one's tests pass at baseline on a fix. Read on the host through a
// throwaway workbench (hardened git only).
import type { Config } from '../config/schema.js';
import { Workbench, resolveUserRepo, type TreeEntry, type UserRepo } from '../git/index.js';
import type { DependencyFile } from '../images/env-hash.js';
import {
  describeCandidate,
  detectToolchain,
  environmentLine,
  type Candidate,
  type Detection,
} from '../images/detect.js';
import type { Environment } from '../state/run-state.js';
import { planPython } from '../images/python-setup.js';
import { PYTHON_REQUIREMENTS, setupInputs, type ReadFiles, type SetupInputs } from '../images/setup-inputs.js';
import { setupRecipe, type SetupRecipe } from '../images/setup-plan.js';
import { getToolchain } from '../images/toolchains.js';
import { nodeTestCommand } from './node-test-command.js';
import { readRepoToolchain, type RepoToolchain } from './repo-toolchain.js';

/** Entries of a tree listed for detection; beyond this the source-extension fallback sees a prefix. */
const MAX_TREE_ENTRIES = 50_000;
/** Bytes read of each manifest (pyproject.toml, requirements files, package.json). */
const MAX_MANIFEST_BYTES = 1024 * 1024;
/** Projects tried besides the chosen one (each may cost a setup). */
const MAX_ALTERNATIVES = 3;

/** The environment a run needs, decided before anything is built. */
export interface RepoEnvironment {
  /** The toolchain (explicit or detected); null only for a user's image with its own test command and nothing detected. */
  toolchain: string | null;
  /** The project's directory ('' for the repository's root): the test command and setup run there. */
  dir: string;
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
  /** The base tree's paths as listed for detection (a prefix of a very large tree). */
  treePaths: string[];
  /** What was decided and from what, for the state and the one line on stderr. */
  environment: Environment;
  /**
   * The other projects detection found with tests, each decided the same way (never when the
   * toolchain, the test command, the setup command or the image was configured).
   */
  alternatives: RepoEnvironment[];
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
    const rootNames = namesIn(entries, '');
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
    const decide = (tc: string | null, dir: string, d: Detection | null) =>
      decideEnvironment({
        config,
        toolchain: tc,
        dir,
        detection: d,
        explicit: opts.toolchainExplicit,
        workbench,
        userRepo,
        entries,
        read,
        directive: opts.directive ?? '',
        signal: opts.signal,
      });
    const main = await decide(toolchain, detection?.dir ?? '', detection);
    // the others are tried only when nothing was configured that ties the run to one project
    const configured = config.tools.test_command || config.env.setup_command || config.sandbox.image;
    const alternatives =
      detection === null || configured
        ? []
        : await Promise.all(
            detection.alternatives
              .slice(0, MAX_ALTERNATIVES)
              .map(async (c) => ({ ...(await decide(c.toolchain, c.dir, asDetection(c))), alternatives: [] })),
          );
    kept = opts.keep === true;
    return { ...main, alternatives, ...(kept ? { workbench } : {}) };
  } finally {
    if (!kept) await workbench.dispose();
  }
}

/** An alternative project as a detection of its own (what its environment line shows). */
function asDetection(c: Candidate): Detection {
  return {
    toolchain: c.toolchain,
    dir: c.dir,
    evidence: c.markers,
    tests: c.tests,
    by: 'evidence',
    passedOver: [],
    alternatives: [],
    ...(c.command ? { command: c.command } : {}),
  };
}

/** The names of the files directly in `dir` ('' for the root). */
function namesIn(entries: readonly { path: string; kind: string }[], dir: string): string[] {
  const prefix = dir === '' ? '' : `${dir}/`;
  return entries
    .filter((e) => e.path.startsWith(prefix) && !e.path.slice(prefix.length).includes('/'))
    .filter((e) => e.kind === 'file' || e.kind === 'executable')
    .map((e) => e.path.slice(prefix.length));
}

/** The test command, setup and environment record of one project (the toolchain at `dir`). */
async function decideEnvironment(o: {
  config: Config;
  toolchain: string | null;
  dir: string;
  detection: Detection | null;
  explicit: boolean;
  workbench: Workbench;
  userRepo: UserRepo;
  entries: readonly TreeEntry[];
  read: ReadFiles;
  directive: string;
  signal: AbortSignal | undefined;
}): Promise<Omit<RepoEnvironment, 'alternatives' | 'workbench'>> {
  const { config, toolchain, dir, detection, userRepo, entries, read } = o;
  const prefix = dir === '' ? '' : `${dir}/`;
  const names = namesIn(entries, dir);
  const inDir = entries.filter((e) => e.path.startsWith(prefix)).map((e) => e.path.slice(prefix.length));
  const manifests = await read(
    ['package.json', 'pyproject.toml'].filter((f) => names.includes(f)).map((f) => `${prefix}${f}`),
  );
  // the toolchain's release (a user's own image needs none) and, for node, the package manager
  const toolchainVersion =
    toolchain !== null && !config.sandbox.image
      ? await readRepoToolchain(o.workbench, userRepo.baseCommit, toolchain, names, config, o.signal, dir)
      : null;
  const pm = toolchainVersion?.packageManager ?? undefined;
  // a workspace whose root has no test script, or a test script that stops at its first failing part
  const node =
    pm && !config.tools.test_command
      ? await nodeTestCommand({
          read,
          names,
          inDir,
          prefix,
          pm,
          directive: o.directive,
          rootPackageJson: manifests.get(`${prefix}package.json`),
        })
      : null;
  const command =
    config.tools.test_command ||
    detection?.command ||
    node?.command ||
    pm?.testCommand ||
    (toolchain ? getToolchain(toolchain).defaultTestCommand : '');
  // a configured test command is taken as written; a detected project below the root runs in its directory
  const testCommand = dir !== '' && !config.tools.test_command ? `cd ${dir} && ${command}` : command;
  // a test file found by its extension is evidence once (the sources and the tests both name it)
  const evidence = detection ? [...new Set([...detection.evidence, ...detection.tests])] : [];
  const version = toolchainVersion?.resolved.release.version;
  const environment = (setupCommand: string): Environment => ({
    toolchain,
    evidence,
    decided_by: o.explicit
      ? 'named'
      : detection === null
        ? 'image'
        : detection.by === 'sources'
          ? 'sources'
          : 'evidence',
    test_command: testCommand,
    ...(detection && detection.alternatives.length > 0
      ? { alternatives: detection.alternatives.map(describeCandidate) }
      : {}),
    line: environmentLine({
      toolchain,
      ...(version ? { version } : {}),
      evidence,
      testCommand,
      named: o.explicit,
      ...(detection && detection.passedOver.length > 0 ? { passedOver: detection.passedOver } : {}),
      ...(detection && detection.alternatives.length > 0
        ? { alternatives: detection.alternatives.map(describeCandidate) }
        : {}),
      ...(node && node.notes.length > 0 ? { notes: node.notes } : {}),
    }),
    setup_command: setupCommand,
  });
  const base = {
    toolchain,
    dir,
    detection,
    testCommand,
    toolchainVersion,
    userRepo,
    treePaths: entries.map((e) => e.path),
  };
  if (toolchain === null)
    return {
      ...base,
      setupCommand: config.env.setup_command,
      recipe: null,
      setupInputs: null,
      dependencyFiles: [],
      environment: environment(config.env.setup_command),
    };
  const python =
    toolchain === 'python' && !config.env.setup_command
      ? planPython(
          names,
          inDir,
          manifests.get(`${prefix}pyproject.toml`),
          PYTHON_REQUIREMENTS.filter((r) => names.includes(r)),
        )
      : undefined;
  const recipe = setupRecipe(
    toolchain,
    config.env.setup_command,
    names,
    {
      ...(python ? { python } : {}),
      ...(pm ? { node: { packageManager: pm, npmRegistry: config.env.npm_registry } } : {}),
    },
    dir,
  );
  const inputs =
    recipe.command === ''
      ? null
      : await setupInputs({
          toolchain,
          custom: recipe.custom,
          files: entries.filter((e) => e.kind === 'file' || e.kind === 'executable' || e.kind === 'symlink'),
          baseTree: userRepo.baseTree,
          read,
          dir,
        });
  return {
    ...base,
    setupCommand: recipe.command,
    recipe: recipe.command === '' ? null : recipe,
    setupInputs: inputs,
    dependencyFiles: inputs?.key ?? [],
    environment: environment(recipe.command),
  };
}
