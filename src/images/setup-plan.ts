// What the dependency setup of a repository is: which files describe its dependencies, the
// command that installs them (configured, or the toolchain's default when the repo has the files),
// and the script the throwaway setup container runs. Pure, so every default is unit-tested.
import { GO_WRAPPER_DIR, goBuildCacheSteps } from './go-build-cache.js';
import type { NodePackageManager } from './node-package-manager.js';
import { nodeSetup, type NodeSetupOptions } from './node-setup.js';

/** Where setup keeps what iterations need (owned by the sandbox user, outside /workspace). */
export const ENV_ROOT = '/opt/hammer';
/** Setup's own files (script, env, CA bundle); removed before the commit. */
export const SETUP_DIR = `${ENV_ROOT}/.setup`;
/** The python virtual environment an env image carries. */
export const PYTHON_VENV = `${ENV_ROOT}/venv`;

/** Root files whose contents decide a toolchain's dependencies (hashed into the env image tag). */
export function isDependencyFile(toolchain: string, name: string): boolean {
  switch (toolchain) {
    case 'python':
      return (
        name === 'pyproject.toml' ||
        name === 'setup.py' ||
        name === 'setup.cfg' ||
        /^requirements[^/]*\.txt$/.test(name) ||
        name === 'constraints.txt'
      );
    case 'node':
      return [
        'package.json',
        'package-lock.json',
        'npm-shrinkwrap.json',
        '.npmrc',
        'pnpm-lock.yaml',
        'pnpm-workspace.yaml',
        '.pnpmfile.cjs',
        'yarn.lock',
        '.yarnrc',
        '.yarnrc.yml',
      ].includes(name);
    case 'go':
      return name === 'go.mod' || name === 'go.sum';
    case 'rust':
      return name === 'Cargo.toml' || name === 'Cargo.lock';
    default:
      return false;
  }
}

/** The requirements files the python default installs, in order, when present. */
const PYTHON_REQUIREMENTS = ['requirements.txt', 'requirements-dev.txt', 'requirements-test.txt'];

/**
 * The default setup command for a toolchain given the repository's root files, or '' when the
 * repository has nothing to install. Python installs into a venv (see setupScript); local
 * packages and editable installs build with the venv's setuptools (--no-build-isolation), because
 * build isolation would fetch setuptools from an index that may be unreachable.
 */
export function defaultSetupCommand(
  toolchain: string,
  rootFiles: readonly string[],
  packageManager?: NodePackageManager,
): string {
  const has = (f: string): boolean => rootFiles.includes(f);
  switch (toolchain) {
    case 'python': {
      const reqs = PYTHON_REQUIREMENTS.filter(has);
      if (reqs.length > 0) return `python3 -m pip install --no-build-isolation ${reqs.map((r) => `-r ${r}`).join(' ')}`;
      if (has('pyproject.toml') || has('setup.py')) return "python3 -m pip install --no-build-isolation -e '.[test]'";
      return '';
    }
    case 'node':
      if (packageManager) return packageManager.setupCommand;
      return has('package-lock.json') || has('npm-shrinkwrap.json') ? 'npm ci' : '';
    case 'go':
      return has('go.mod') ? 'go mod download' : '';
    case 'rust':
      return has('Cargo.toml') ? 'cargo fetch' : '';
    default:
      return '';
  }
}

/**
 * Local directories a requirements file installs from (`./pkg`, `-e ./pkg`, `file:./pkg`), as
 * repository-relative paths; their tree ids join the env hash so an edited local package gives a
 * new env image. Paths leaving the repository are ignored.
 */
export function localRequirementPaths(text: string): string[] {
  const out = new Set<string>();
  for (const raw of text.split('\n')) {
    let line = raw.replace(/\s+#.*$/, '').trim();
    if (line.startsWith('-e ') || line.startsWith('--editable ')) line = line.replace(/^(-e|--editable)\s+/, '');
    line = line.replace(/^file:/, '').replace(/\[.*\]$/, '');
    if (!(line.startsWith('./') || line === '.')) continue;
    const parts = line.split('/').filter((p) => p !== '' && p !== '.');
    if (parts.some((p) => p === '..')) continue;
    out.add(parts.length === 0 ? '.' : parts.join('/'));
  }
  return [...out].sort();
}

/** The script, the environment and the image changes of one setup. */
export interface SetupScript {
  /** POSIX sh run as the sandbox user in /workspace; ends by emptying /workspace and setup's files. */
  script: string;
  /** Variables the setup needs beyond the image's own (online overrides of the offline defaults). */
  env: Record<string, string>;
  /** Extra directories (absolute) created for the sandbox user before setup starts. */
  dirs: string[];
  /** Dockerfile instructions applied by the commit (besides CMD and labels). */
  changes: (imagePath: string) => string[];
}

/** What a setup script depends on besides the toolchain (node: its package manager). */
export type SetupScriptOptions = NodeSetupOptions;

/** Build the setup script around a setup command (written to command.sh beside it) on `toolchain`. */
export function setupScript(toolchain: string, options: SetupScriptOptions = {}): SetupScript {
  const prelude: string[] = [];
  const post: string[] = [];
  let env: Record<string, string> = {};
  let dirs: string[] = [];
  let changes: SetupScript['changes'] = () => [];
  switch (toolchain) {
    case 'python':
      // A venv owned by the sandbox user, not --break-system-packages: setup runs as that user, who
      // cannot write Debian's site-packages, and a venv keeps the repository's packages apart from
      // Debian's. --system-site-packages keeps Debian's pytest importable.
      prelude.push(
        `python3 -m venv --system-site-packages ${PYTHON_VENV}`,
        `PATH=${PYTHON_VENV}/bin:$PATH`,
        `VIRTUAL_ENV=${PYTHON_VENV}`,
        'export PATH VIRTUAL_ENV',
      );
      env = { PIP_NO_CACHE_DIR: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INPUT: '1' };
      changes = (imagePath) => [`ENV VIRTUAL_ENV=${PYTHON_VENV}`, `ENV PATH=${PYTHON_VENV}/bin:${imagePath}`];
      break;
    case 'node': {
      const node = nodeSetup(options);
      prelude.push(...node.prelude);
      post.push(...node.post);
      ({ env, dirs, changes } = node);
      break;
    }
    case 'go':
      env = { GOPROXY: 'https://proxy.golang.org,direct', GOFLAGS: '-mod=mod' };
      // the module cache is in GOMODCACHE already; the build cache needs warming and a wrapper
      post.push(...goBuildCacheSteps());
      changes = (imagePath) => [`ENV PATH=${GO_WRAPPER_DIR}:${imagePath}`];
      break;
    case 'rust':
      env = { CARGO_NET_OFFLINE: 'false' };
      break;
  }
  const script = [
    'set -eu',
    `. ${SETUP_DIR}/env.sh`,
    'cd /workspace',
    ...prelude,
    `/bin/sh -e ${SETUP_DIR}/command.sh`,
    ...post,
    // leave nothing of the repository or of setup itself in the committed image
    'cd /',
    'find /workspace -mindepth 1 -delete',
    `rm -rf ${SETUP_DIR}`,
    'find /tmp -mindepth 1 -delete 2>/dev/null || true',
    `echo "hammer-box: setup finished"`,
    '',
  ].join('\n');
  return { script, env, dirs, changes };
}
