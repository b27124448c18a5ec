// What the dependency setup of a repository is: the command that installs its dependencies
// (configured, or the toolchain's default when the repo has the files), the script the throwaway
// setup container runs, and the directories setup may write that the env image keeps. Pure, so
// every default is unit-tested.
import { createHash } from 'node:crypto';
import { HammerError } from '../errors.js';
import { SAFE_PROJECT_DIR } from './detect.js';
import type { CarriedDir } from './env-carry.js';
import { GO_WRAPPER_DIR, goBuildCacheSteps } from './go-build-cache.js';
import { NODE_BEST_EFFORT, nodeInstallLines } from './node-best-effort.js';
import { nodeSetup, npmCleanInstallLines, type NodeSetupOptions } from './node-setup.js';
import { PYTHON_BEST_EFFORT } from './python-best-effort.js';
import { PROBE_INDEX, pythonCommand, pythonSteps, type PythonPlan } from './python-setup.js';
import { PYTHON_REQUIREMENTS } from './setup-inputs.js';

/** Where setup keeps what iterations need (owned by the sandbox user, outside /workspace). */
export const ENV_ROOT = '/opt/hammer';
/** Setup's own files (script, env, CA bundle); never carried into the image. */
export const SETUP_DIR = `${ENV_ROOT}/.setup`;
/** The python virtual environment an env image carries. */
export const PYTHON_VENV = `${ENV_ROOT}/venv`;

/**
 * The default setup command for a toolchain given the repository's root files, or '' when the
 * repository has nothing to install. For python it is what the first of its setup steps runs
 * (see python-setup.ts for the offline fallbacks).
 */
export function defaultSetupCommand(
  toolchain: string,
  rootFiles: readonly string[],
  node: NodeSetupOptions = {},
): string {
  const has = (f: string): boolean => rootFiles.includes(f);
  switch (toolchain) {
    case 'python': {
      const reqs = PYTHON_REQUIREMENTS.filter(has);
      if (reqs.length > 0) return `python3 -m pip install ${reqs.map((r) => `-r ${r}`).join(' ')}`;
      if (has('pyproject.toml') || has('setup.py') || has('setup.cfg')) return "python3 -m pip install -e '.[test]'";
      return '';
    }
    case 'node':
      if (node.packageManager) return node.packageManager.setupCommand;
      return has('package-lock.json') || has('npm-shrinkwrap.json') ? 'npm ci' : '';
    case 'go':
      return has('go.mod') ? 'go mod download' : '';
    case 'rust':
      return has('Cargo.toml') ? 'cargo fetch' : '';
    default:
      return '';
  }
}

/** What one setup runs: a configured command, or the toolchain's default (python's in steps). */
export interface SetupRecipe {
  toolchain: string;
  /** The command as shown and labelled (for python's default, its first step). */
  command: string;
  /** True when [env] setup_command named it. */
  custom: boolean;
  /** Python's default: what its steps install. */
  python?: PythonPlan;
  /** Node: the package manager setup installs first (also before a configured command), and its registry. */
  node?: NodeSetupOptions;
  /** The project's directory below /workspace ('' or absent: the root), where setup runs. */
  dir?: string;
}

/**
 * The recipe for a toolchain: the configured command, or the default (python's planned from its
 * pyproject.toml; node's by its package manager).
 */
export function setupRecipe(
  toolchain: string,
  configured: string,
  rootFiles: readonly string[],
  plans: { python?: PythonPlan; node?: NodeSetupOptions } = {},
  /** The project's directory ('' for the root): `rootFiles` are the files directly in it, and setup runs there. */
  dir = '',
): SetupRecipe {
  const { python, node } = plans;
  if (dir !== '' && !SAFE_PROJECT_DIR.test(dir)) throw new HammerError('INTERNAL', `not a project directory: ${dir}`);
  const withNode = toolchain === 'node' && node?.packageManager ? { node } : {};
  // a configured command runs at the root, as written
  if (configured !== '') return { toolchain, command: configured, custom: true, ...withNode };
  const at = dir === '' ? {} : { dir };
  const cd = dir === '' ? '' : `cd ${dir} && `;
  if (toolchain === 'python' && python && (python.project || python.requirements.length > 0))
    return { toolchain, command: `${cd}${pythonCommand(python)}`, custom: false, python, ...at };
  const command = defaultSetupCommand(toolchain, rootFiles, node);
  return { toolchain, command: command === '' ? '' : `${cd}${command}`, custom: false, ...withNode, ...at };
}

/** The first 12 hex digits of a text's sha256. */
function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/** A default command without the `cd <dir> && ` it is shown with. */
function stripCd(command: string, dir: string): string {
  const cd = `cd ${dir} && `;
  return command.startsWith(cd) ? command.slice(cd.length) : command;
}

/** The script, the environment and the image changes of one setup. */
export interface SetupScript {
  /** POSIX sh run as the sandbox user in /workspace. */
  script: string;
  /** Variables the setup needs beyond the image's own (online overrides of the offline defaults). */
  env: Record<string, string>;
  /** The directories setup may write besides /workspace and /tmp, and the only ones the env image keeps. */
  carried: CarriedDir[];
  /** Extra files for setup's own directory (name -> content). */
  files: Record<string, string>;
  /** Dockerfile instructions applied by the commit (besides CMD and labels). */
  changes: (imagePath: string) => string[];
}

const SITE_PACKAGES = /^lib\/python[^/]+\/site-packages\/[^/]+/;

/**
 * Build the setup script of a recipe (a configured command is written to command.sh beside it).
 * `pipPins` ("name==version", from a recorded lock) hold pip to those versions through a constraints
 * file (PIP_CONSTRAINT): a rebuild installs what the lock says, or fails naming what the index no
 * longer serves. The pins are a file and a variable, never the script, so the key stays the same.
 */
export function setupScript(recipe: SetupRecipe, pipPins: readonly string[] = []): SetupScript {
  const prelude: string[] = [];
  const post: string[] = [];
  // setup runs in the project's directory; a configured command at the root
  const workdir = recipe.dir ? `/workspace/${recipe.dir}` : '/workspace';
  let body: string[] = [`/bin/sh -e ${SETUP_DIR}/command.sh`];
  // the default command's `cd <dir> && ` is the script's own `cd` (command.sh runs in that directory)
  if (recipe.dir && !recipe.custom) body = [stripCd(recipe.command, recipe.dir)];
  let env: Record<string, string> = {};
  let carried: CarriedDir[] = [];
  const files: Record<string, string> = {};
  let changes: SetupScript['changes'] = () => [];
  switch (recipe.toolchain) {
    case 'python': {
      // A venv owned by the sandbox user, not --break-system-packages: setup cannot write Debian's
      // site-packages, and a venv keeps the repository's packages apart. --system-site-packages keeps
      // Debian's pytest and build backends importable; --without-pip keeps it empty until something
      // is installed (Debian's pip installs into it).
      prelude.push(
        `python3 -m venv --without-pip --system-site-packages ${PYTHON_VENV}`,
        `PATH=${PYTHON_VENV}/bin:$PATH`,
        `VIRTUAL_ENV=${PYTHON_VENV}`,
        'export PATH VIRTUAL_ENV',
        `hb_site=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')`,
      );
      env = {
        PIP_NO_CACHE_DIR: '1',
        PIP_DISABLE_PIP_VERSION_CHECK: '1',
        PIP_NO_INPUT: '1',
        PIP_RETRIES: '1',
        PIP_TIMEOUT: '30',
      };
      if (pipPins.length > 0) {
        files['pip-pins.txt'] = `${pipPins.join('\n')}\n`;
        env['PIP_CONSTRAINT'] = `${SETUP_DIR}/pip-pins.txt`;
      }
      carried = [{ from: PYTHON_VENV, to: PYTHON_VENV, significant: (rel) => SITE_PACKAGES.test(rel) }];
      if (recipe.python && !recipe.custom) {
        files['probe-index.py'] = PROBE_INDEX;
        files['best-effort.py'] = PYTHON_BEST_EFFORT;
        body = pythonSteps(recipe.python, SETUP_DIR, '$hb_site', workdir);
      }
      changes = (imagePath) => [`ENV VIRTUAL_ENV=${PYTHON_VENV}`, `ENV PATH=${PYTHON_VENV}/bin:${imagePath}`];
      break;
    }
    case 'node': {
      const node = nodeSetup({ ...recipe.node, workdir });
      prelude.push(...node.prelude);
      ({ env, carried, changes } = node);
      if (recipe.custom) {
        prelude.unshift(...node.install);
        break;
      }
      // the default install, when the registry answers; when none does, setup goes on without the
      // dependencies (each named) and the host decides whether the tests can run without them
      const lockfile = recipe.node?.packageManager?.lockfile ?? 'package-lock.json';
      if (stripCd(recipe.command, recipe.dir ?? '') === 'npm ci') body = npmCleanInstallLines(lockfile);
      files['install.sh'] = `${[...node.install, ...body].join('\n')}\n`;
      files['node-best-effort.js'] = NODE_BEST_EFFORT;
      body = [
        // what the two files hold is part of the env image's key
        `# install.sh ${shortHash(files['install.sh'])}, node-best-effort.js ${shortHash(NODE_BEST_EFFORT)}`,
        ...nodeInstallLines(
          SETUP_DIR,
          recipe.node?.npmRegistry ?? 'https://registry.npmjs.org/',
          `${SETUP_DIR}/install.sh`,
        ),
      ];
      break;
    }
    case 'go':
      env = { GOPROXY: 'https://proxy.golang.org,direct', GOFLAGS: '-mod=mod' };
      // the module cache is in GOMODCACHE already; the build cache needs warming and a wrapper
      post.push(...goBuildCacheSteps());
      carried = [
        {
          from: `${ENV_ROOT}/go`,
          to: `${ENV_ROOT}/go`,
          // downloaded modules, or the build cache setup warmed (GO_CACHE_SEED)
          significant: (rel) => rel.startsWith('pkg/mod/cache/download/') || rel.startsWith('cache/'),
        },
        { from: GO_WRAPPER_DIR, to: GO_WRAPPER_DIR, significant: () => false },
      ];
      changes = (imagePath) => [`ENV PATH=${GO_WRAPPER_DIR}:${imagePath}`];
      break;
    case 'rust':
      env = { CARGO_NET_OFFLINE: 'false' };
      carried = [
        {
          from: `${ENV_ROOT}/cargo`,
          to: `${ENV_ROOT}/cargo`,
          significant: (rel) => rel.startsWith('registry/') || rel.startsWith('git/'),
        },
      ];
      break;
  }
  const script = [
    'set -eu',
    `. ${SETUP_DIR}/env.sh`,
    `cd ${workdir}`,
    ...prelude,
    ...body,
    ...post,
    `echo "hammer-box: setup finished"`,
    '',
  ].join('\n');
  return { script, env, carried, files, changes };
}
