// Which package manager a Node.js repository uses (npm, pnpm, yarn classic or yarn berry), at
// which version, and the commands and setup lines that go with it. The `packageManager` field of
// package.json decides when it names one; otherwise the lockfile does. Pure: the caller reads the
// files. Versions come from the npm registry (corepack cannot reach its own sources everywhere).
import semver from 'semver';
import { z } from 'zod';

/** The package managers hammer-box installs. */
export type PackageManagerName = 'npm' | 'pnpm' | 'yarn';

/** A repository's package manager and how to install and test with it. */
export interface NodePackageManager {
  name: PackageManagerName;
  /** yarn 1 is classic; yarn 2 and later are berry (another program, another package). */
  flavour: 'classic' | 'berry' | null;
  /** The version asked for: exact ("9.15.0") from packageManager, a major ("10") from a lockfile, '' for the image's npm. */
  version: string;
  /** The registry package and version (or range) setup installs; null for the image's own npm. */
  install: { pkg: string; spec: string; hash: { algorithm: string; hex: string } | null } | null;
  /** What decided, e.g. "packageManager pnpm@9.15.0", "pnpm-lock.yaml (lockfileVersion 9.0)". */
  evidence: string;
  /** The lockfile present, if any. */
  lockfile: string | null;
  /** The default setup command ('' when there is nothing to install). */
  setupCommand: string;
  /** The default test command. */
  testCommand: string;
}

/** Root files whose contents decide the package manager (read them for choosePackageManager; a lockfile's head is enough). */
export const PACKAGE_MANAGER_FILES = [
  'package.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'package-lock.json',
  'npm-shrinkwrap.json',
] as const;

/** The npm the node image carries, which serves unless the project asks for another. */
export interface ImageNpm {
  /** Its exact version, e.g. "11.21.2". */
  version: string;
  /** The Node.js major beside it. */
  nodeMajor: number;
}

/** Lockfiles, in the order they decide when package.json names no package manager. */
const LOCKFILES = ['pnpm-lock.yaml', 'yarn.lock', 'package-lock.json', 'npm-shrinkwrap.json'] as const;

/** Where setup installs a package manager, and the directory of its commands (first on PATH). */
export const PM_ROOT = '/opt/hammer/pm';
export const PM_BIN = `${PM_ROOT}/bin`;

const packageJsonSchema = z.looseObject({
  packageManager: z.string().optional(),
  engines: z.looseObject({ npm: z.string().optional() }).optional(),
});

/**
 * The package manager of a repository with these root files; `contents` holds the text of the
 * PACKAGE_MANAGER_FILES that exist (a lockfile's head is enough). For npm, `imageNpm` (the image's
 * own) serves unless package.json's engines.npm excludes it or the lockfile was written by an npm
 * major that still runs on the image's Node.js (see npmFor).
 */
export function choosePackageManager(
  rootFiles: readonly string[],
  contents: ReadonlyMap<string, string>,
  imageNpm?: ImageNpm,
): NodePackageManager {
  const lockfile = LOCKFILES.find((f) => rootFiles.includes(f)) ?? null;
  const named = fromPackageManagerField(contents.get('package.json'));
  if (named) return finish(named, lockfile === null ? null : lockfileOf(named.name, rootFiles));
  switch (lockfile) {
    case 'pnpm-lock.yaml': {
      const v = /^lockfileVersion:\s*['"]?([\d.]+)/m.exec(contents.get('pnpm-lock.yaml') ?? '')?.[1];
      return finish(
        { name: 'pnpm', flavour: null, version: pnpmForLockfile(v), hash: null, evidence: lockEvidence(lockfile, v) },
        lockfile,
      );
    }
    case 'yarn.lock': {
      const text = contents.get('yarn.lock') ?? '';
      const meta = /^__metadata:\s*\n\s+version:\s*['"]?(\d+)/m.exec(text)?.[1];
      if (meta !== undefined || !/yarn lockfile v1/.test(text)) {
        const major = yarnBerryForMetadata(meta);
        return finish(
          {
            name: 'yarn',
            flavour: 'berry',
            version: major,
            hash: null,
            evidence: `yarn.lock (berry${meta ? `, __metadata version ${meta}` : ''})`,
          },
          lockfile,
        );
      }
      return finish(
        { name: 'yarn', flavour: 'classic', version: '1', hash: null, evidence: 'yarn.lock (v1)' },
        lockfile,
      );
    }
    case 'package-lock.json':
    case 'npm-shrinkwrap.json':
      return finish(npmFor(contents, lockfile, imageNpm), lockfile);
    default:
      return finish({ name: 'npm', flavour: null, version: '', hash: null, evidence: 'no lockfile' }, null);
  }
}

/**
 * The npm majors that write each package-lock lockfileVersion (npm 7 and 8 write 2, npm 9 and later
 * 3), and the newest Node.js major each of those npm releases still runs on.
 */
const NPM_FOR_LOCKFILE: Readonly<
  Record<string, { range: string; writers: string; major: string; maxNodeMajor: number }>
> = {
  '1': { range: '^5 || ^6', writers: 'npm 5 or 6', major: '6', maxNodeMajor: 16 },
  '2': { range: '^7 || ^8', writers: 'npm 7 or 8', major: '8', maxNodeMajor: 20 },
};

/**
 * Which npm a project with an npm lockfile and no packageManager field gets: the image's, unless engines.npm is a
 * range the image's npm is not in (then the newest npm in it), or the lockfile's version says an
 * older npm major wrote it and that major still runs on the image's Node.js (then that major, so
 * `npm ci` reads the lockfile the way the npm that wrote it does).
 */
function npmFor(contents: ReadonlyMap<string, string>, lockfile: string, imageNpm?: ImageNpm): Choice {
  const image: Choice = { name: 'npm', flavour: null, version: '', hash: null, evidence: lockfile };
  const declared = enginesNpm(contents.get('package.json'));
  const lockVersion = /"lockfileVersion"\s*:\s*(\d+)/.exec(contents.get(lockfile) ?? '')?.[1];
  const lockEv = lockEvidence(lockfile, lockVersion);
  if (declared !== undefined) {
    if (imageNpm && semver.satisfies(imageNpm.version, declared))
      return { ...image, evidence: `${lockEv}; engines.npm "${declared}" holds the image's npm ${imageNpm.version}` };
    if (imageNpm) return { ...image, version: declared, evidence: `engines.npm "${declared}"; ${lockEv}` };
  }
  const implied = lockVersion === undefined ? undefined : NPM_FOR_LOCKFILE[lockVersion];
  if (imageNpm && implied && !semver.satisfies(imageNpm.version, implied.range)) {
    if (imageNpm.nodeMajor <= implied.maxNodeMajor)
      return {
        ...image,
        version: implied.major,
        evidence: `${lockEv}, written by ${implied.writers}`,
      };
    return {
      ...image,
      evidence: `${lockEv}, written by ${implied.writers}, which does not run on Node.js ${imageNpm.nodeMajor}: the image's npm ${imageNpm.version}`,
    };
  }
  return { ...image, evidence: lockEv };
}

/** package.json's engines.npm when it is a valid semver range of plain characters (it reaches a shell script quoted). */
function enginesNpm(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const range = packageJsonSchema.safeParse(raw).data?.engines?.npm?.trim();
  if (!range || range.length > 60 || !/^[0-9xX*.^~<>=| -]+$/.test(range) || semver.validRange(range) === null)
    return undefined;
  return range;
}

interface Choice {
  name: PackageManagerName;
  flavour: 'classic' | 'berry' | null;
  version: string;
  hash: { algorithm: string; hex: string } | null;
  evidence: string;
}

/** packageManager: "<npm|pnpm|yarn>@<exact version>[+<algorithm>.<hex>]", as corepack reads it; anything else is ignored. */
function fromPackageManagerField(text: string | undefined): Choice | undefined {
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const field = packageJsonSchema.safeParse(raw).data?.packageManager?.trim();
  const m = field
    ? /^(npm|pnpm|yarn)@([^+\s]+)(?:\+(sha1|sha224|sha256|sha384|sha512)\.([0-9a-f]+))?$/.exec(field)
    : null;
  if (!m) return undefined;
  const version = semver.valid(m[2]);
  if (version === null || version !== m[2]) return undefined;
  const name = m[1] as PackageManagerName;
  const flavour = name === 'yarn' ? (semver.major(version) >= 2 ? 'berry' : 'classic') : null;
  return {
    name,
    flavour,
    version,
    hash: m[3] ? { algorithm: m[3], hex: m[4]! } : null,
    evidence: `packageManager ${name}@${version}`,
  };
}

function finish(choice: Choice, lockfile: string | null): NodePackageManager {
  const frozen = lockfile !== null;
  let setupCommand: string;
  let testCommand: string;
  switch (choice.name) {
    case 'pnpm':
      setupCommand = frozen ? 'pnpm install --frozen-lockfile' : 'pnpm install';
      testCommand = 'pnpm test';
      break;
    case 'yarn':
      setupCommand =
        choice.flavour === 'berry'
          ? frozen
            ? 'yarn install --immutable'
            : 'yarn install'
          : frozen
            ? 'yarn install --frozen-lockfile'
            : 'yarn install';
      testCommand = 'yarn test';
      break;
    default:
      setupCommand = frozen ? 'npm ci' : choice.version !== '' ? 'npm install' : '';
      testCommand = 'npm test';
  }
  const pkg = choice.name === 'yarn' && choice.flavour === 'berry' ? '@yarnpkg/cli-dist' : choice.name;
  // the image's npm serves unless package.json names another
  const install =
    choice.name === 'npm' && choice.version === '' ? null : { pkg, spec: choice.version, hash: choice.hash };
  return {
    name: choice.name,
    flavour: choice.flavour,
    version: choice.version,
    install,
    evidence: choice.evidence,
    lockfile,
    setupCommand,
    testCommand,
  };
}

/** The lockfile of a named package manager, when the repository has one. */
function lockfileOf(name: PackageManagerName, rootFiles: readonly string[]): string | null {
  const own: Record<PackageManagerName, readonly string[]> = {
    npm: ['package-lock.json', 'npm-shrinkwrap.json'],
    pnpm: ['pnpm-lock.yaml'],
    yarn: ['yarn.lock'],
  };
  return own[name].find((f) => rootFiles.includes(f)) ?? null;
}

/** The pnpm major that writes a lockfile version (the newest that reads it). */
function pnpmForLockfile(version: string | undefined): string {
  const major = Number(version?.split('.')[0]);
  if (major === 5) return Number(version?.split('.')[1]) >= 4 ? '7' : '6';
  if (major === 6) return '8';
  return '10';
}

/** The yarn berry major that writes a lockfile's __metadata version. */
function yarnBerryForMetadata(version: string | undefined): string {
  const v = Number(version);
  if (v >= 8 || Number.isNaN(v)) return '4';
  return v >= 6 ? '3' : '2';
}

function lockEvidence(file: string, version: string | undefined): string {
  return version ? `${file} (lockfileVersion ${version})` : file;
}

/** The package manager in words, e.g. "pnpm 9.15.0 (packageManager pnpm@9.15.0)", "npm (package-lock.json)". */
export function describePackageManager(pm: NodePackageManager): string {
  const name = pm.flavour ? `${pm.name} ${pm.flavour}` : pm.name;
  return `${name}${pm.version ? ` ${pm.version}` : ''} (${pm.evidence})`;
}

/**
 * Setup lines (POSIX sh, run with network before the setup command) that install the package
 * manager from the registry into PM_ROOT with a command per bin in PM_BIN, checking the hash
 * packageManager gives. Nothing for the image's own npm. The spec is always a validated version.
 */
export function packageManagerSetupLines(pm: NodePackageManager, registry: string): string[] {
  if (!pm.install) return [];
  const { pkg, spec, hash } = pm.install;
  const dir = `${PM_ROOT}/${pm.name}`;
  const lines = [
    `mkdir -p ${PM_BIN} ${dir} /tmp/hammer-pm`,
    `hammer_tgz=$(cd /tmp/hammer-pm && npm pack --silent --registry ${quote(registry)} ${quote(`${pkg}@${spec}`)} | tail -n 1)`,
    'hammer_tgz=/tmp/hammer-pm/$hammer_tgz',
  ];
  if (hash) {
    lines.push(
      `[ "$(${hash.algorithm}sum "$hammer_tgz" | cut -d' ' -f1)" = ${hash.hex} ] || { echo "hammer-box: ${pkg}@${spec} does not have the ${hash.algorithm} packageManager names" >&2; exit 1; }`,
    );
  }
  lines.push(
    `tar -xzf "$hammer_tgz" -C ${dir} --strip-components=1 --no-same-owner`,
    // one command per bin of the package, running it with the image's node
    `node -e 'const p=require(process.argv[1]+"/package.json");const b=typeof p.bin==="string"?{[p.name]:p.bin}:p.bin||{};for(const[n,f]of Object.entries(b))if(/^[a-z][a-z0-9-]*$/.test(n))console.log(n+" "+f)' ${dir} |`,
    `  while read -r hammer_bin hammer_file; do printf '#!/bin/sh\\nexec node %s "$@"\\n' "${dir}/$hammer_file" > "${PM_BIN}/$hammer_bin"; chmod 0755 "${PM_BIN}/$hammer_bin"; done`,
    `rm -rf /tmp/hammer-pm`,
    `echo "hammer-box: ${pkg} $(${PM_BIN}/${pm.name} --version) installed"`,
  );
  return lines;
}

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
