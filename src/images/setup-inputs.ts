// What an env image's content can depend on, decided from the base commit's tree before setup runs.
//
// The rule: an env image is reused only when everything setup could read is identical.
// - When setup can run repository code (python installing the project or a local path, an npm
//   lifecycle script or a local dependency, any configured [env] setup_command), it can read
//   anything: the key is the whole base tree, and so is what setup receives.
// - Otherwise setup reads only dependency files. Python's and node's setups then RECEIVE only those
//   files (nested requirement files, every package.json and lockfile at any depth), so nothing else
//   of the repository exists in the container for any code to read. Go's and rust's default setups
//   run no repository code (they download modules and compile without running anything), so they
//   get the whole tree but are keyed by every manifest and lockfile at any depth; what they leave
//   (module caches checked against the lockfiles, and go's build cache of dependency and standard
//   library packages only, never the repository's own) cannot carry one repository's content into
//   another's runs.
import type { DependencyFile } from './env-hash.js';
import { scanRequirements } from './requirements-file.js';

/** A file of the base tree, as setup-inputs sees it. */
export interface TreeFile {
  path: string;
  oid: string;
}

/** The key and the tree of one setup. */
export interface SetupInputs {
  /** What the env image's key hashes (path and git object id); `./` with the tree id for the whole tree. */
  key: DependencyFile[];
  /** The repository paths setup receives, or 'all' for the whole base tree. */
  tree: readonly string[] | 'all';
  /** Why the whole tree is the key, when it is (for the label and the debug log). */
  wholeTreeReason: string | null;
}

/** Reads repository files (text) at the base commit; missing files are absent from the map. */
export type ReadFiles = (paths: readonly string[]) => Promise<Map<string, string>>;

/** The root requirements files the python default installs, in order. */
export const PYTHON_REQUIREMENTS = ['requirements.txt', 'requirements-dev.txt', 'requirements-test.txt'] as const;

/** npm lifecycle scripts `npm ci` runs for the root package and workspaces. */
const NPM_INSTALL_SCRIPTS = [
  'preinstall',
  'install',
  'postinstall',
  'prepublish',
  'preprepare',
  'prepare',
  'postprepare',
  'dependencies',
];

const NODE_FILES =
  /(^|\/)(package\.json|package-lock\.json|npm-shrinkwrap\.json|\.npmrc|pnpm-lock\.yaml|pnpm-workspace\.yaml|\.pnpmfile\.cjs|yarn\.lock|\.yarnrc|\.yarnrc\.yml)$/;
const GO_FILES = /(^|\/)(go\.mod|go\.sum|go\.work|go\.work\.sum)$|^vendor\/modules\.txt$/;
const RUST_FILES =
  /(^|\/)(Cargo\.toml|Cargo\.lock|rust-toolchain|rust-toolchain\.toml)$|(^|\/)\.cargo\/config(\.toml)?$/;

/** Decide the key and tree of a setup on `toolchain`. `custom` when [env] setup_command named the command. */
export async function setupInputs(opts: {
  toolchain: string;
  custom: boolean;
  files: readonly TreeFile[];
  baseTree: string;
  read: ReadFiles;
  /** The project's directory ('' or absent for the root): where python's requirement files are. */
  dir?: string;
}): Promise<SetupInputs> {
  const { files, baseTree } = opts;
  const whole = (reason: string): SetupInputs => ({
    key: [{ path: './', oid: baseTree }],
    tree: 'all',
    wholeTreeReason: reason,
  });
  if (opts.custom) return whole('a configured setup command can read any file');
  const inTree = (re: RegExp): TreeFile[] => files.filter((f) => re.test(f.path) && !isVendored(f.path));
  switch (opts.toolchain) {
    case 'python':
      return pythonInputs(files, opts.read, whole, opts.dir ? `${opts.dir}/` : '');
    case 'node': {
      const picked = [...inTree(NODE_FILES), ...files.filter((f) => f.path.startsWith('.yarn/'))];
      const manifests = picked.filter((f) => f.path.endsWith('package.json'));
      const texts = await opts.read(manifests.map((f) => f.path));
      for (const m of manifests) {
        const why = nodeRunsCode(m.path, texts.get(m.path));
        if (why) return whole(why);
      }
      return { key: picked.map(asDep), tree: picked.map((f) => f.path), wholeTreeReason: null };
    }
    case 'go':
      return { key: inTree(GO_FILES).map(asDep), tree: 'all', wholeTreeReason: null };
    case 'rust':
      return { key: inTree(RUST_FILES).map(asDep), tree: 'all', wholeTreeReason: null };
    default:
      return whole(`unknown toolchain ${opts.toolchain}`);
  }
}

async function pythonInputs(
  files: readonly TreeFile[],
  read: ReadFiles,
  whole: (reason: string) => SetupInputs,
  prefix: string,
): Promise<SetupInputs> {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const roots = PYTHON_REQUIREMENTS.map((r) => `${prefix}${r}`).filter((r) => byPath.has(r));
  if (roots.length === 0) return whole('setup installs the project itself (its build backend runs its code)');
  const seen = new Set<string>();
  let queue: string[] = [...roots];
  // nested requirement files at any depth, each read once (a cycle ends)
  while (queue.length > 0) {
    const batch = queue.filter((p) => !seen.has(p));
    queue = [];
    if (batch.length === 0) break;
    for (const p of batch) {
      if (!byPath.has(p)) return whole(`a requirements file includes ${p}, which is not a file of the tree`);
      seen.add(p);
    }
    const texts = await read(batch);
    for (const p of batch) {
      const scan = scanRequirements(p, texts.get(p) ?? '');
      if (scan.local) return whole(scan.local);
      queue.push(...scan.nested);
    }
  }
  const picked = [...seen].sort().map((p) => byPath.get(p)!);
  return { key: picked.map(asDep), tree: picked.map((f) => f.path), wholeTreeReason: null };
}

/** Why a package.json makes npm run repository code (a lifecycle script, a local dependency), or null. */
export function nodeRunsCode(path: string, text: string | undefined): string | null {
  if (text === undefined) return null;
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch {
    return `${path} is not valid JSON`;
  }
  if (typeof pkg !== 'object' || pkg === null) return `${path} is not a JSON object`;
  const rec = pkg as Record<string, unknown>;
  const scripts = rec['scripts'];
  if (typeof scripts === 'object' && scripts !== null) {
    const hit = NPM_INSTALL_SCRIPTS.find((s) => Object.hasOwn(scripts, s));
    if (hit) return `${path} has a "${hit}" script, which npm runs during setup`;
  }
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
    const deps = rec[field];
    if (typeof deps !== 'object' || deps === null) continue;
    for (const [name, spec] of Object.entries(deps)) {
      if (typeof spec === 'string' && /^(file:|link:|portal:|\.{0,2}\/)/.test(spec))
        return `${path} depends on ${name} from the repository (${spec})`;
    }
  }
  return null;
}

/** node_modules and vendored copies inside the tree are not manifests of this repository. */
function isVendored(path: string): boolean {
  return /(^|\/)node_modules\//.test(path);
}

function asDep(f: TreeFile): DependencyFile {
  return { path: f.path, oid: f.oid };
}
