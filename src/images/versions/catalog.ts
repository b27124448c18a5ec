// What each toolchain image can be built with: Python, Go and Rust as Debian 13 (trixie) and its
// backports carry them, Node.js as the official binaries on the npm registry. A release's build
// arguments are part of its image's content hash, so each version gets its own image.
import { DEFAULT_NODE_MAJOR, NODE_RELEASES, npmForNodeMajor } from './node-releases.js';

/** One version of a toolchain that an image can be built with. */
export interface ToolchainRelease {
  toolchain: string;
  /** As shown and recorded: "1.24" for a Debian package (whose patch level Debian updates), "22.23.3" for Node.js. */
  version: string;
  /** The lowest exact version the image can carry, compared with what a project declares. */
  floor: string;
  /** Where it comes from, e.g. "Debian 13", "Debian 13 backports", "npm registry". */
  origin: string;
  /** Build arguments of images/<toolchain>/Dockerfile. */
  buildArgs: Readonly<Record<string, string>>;
  /** The release a repository gets when it declares no version. */
  isDefault: boolean;
}

const BACKPORTS = 'trixie-backports';

/** Go from golang-1.NN-go: trixie carries 1.24, its backports the newer ones. */
const GO: readonly ToolchainRelease[] = [
  ['1.24', '1.24.4', 'trixie'],
  ['1.25', '1.25.12', BACKPORTS],
  ['1.26', '1.26.11', BACKPORTS],
  ['1.27', '1.27.4', BACKPORTS],
].map(([version, floor, suite]) => ({
  toolchain: 'go',
  version: version!,
  floor: floor!,
  origin: suite === BACKPORTS ? 'Debian 13 backports' : 'Debian 13',
  buildArgs: { GO_VERSION: version!, APT_SUITE: suite! },
  isDefault: version === '1.24',
}));

/** Rust: trixie's rustc and cargo, and its rustc-web and cargo-web (a newer compiler kept for browsers). */
const RUST: readonly ToolchainRelease[] = [
  {
    toolchain: 'rust',
    version: '1.85',
    floor: '1.85.1',
    origin: 'Debian 13',
    buildArgs: { RUST_PACKAGES: 'rustc cargo' },
    isDefault: true,
  },
  {
    toolchain: 'rust',
    version: '1.96',
    floor: '1.96.0',
    origin: 'Debian 13 (rustc-web)',
    buildArgs: { RUST_PACKAGES: 'rustc-web cargo-web' },
    isDefault: false,
  },
];

/** Python: trixie's python3 only. */
const PYTHON: readonly ToolchainRelease[] = [
  { toolchain: 'python', version: '3.13', floor: '3.13.5', origin: 'Debian 13', buildArgs: {}, isDefault: true },
];

/** A Node.js release from the registry's official binaries (any exact version the registry has). */
export function nodeRelease(version: string, inCatalog = true): ToolchainRelease {
  const major = Number(version.split('.')[0]);
  return {
    toolchain: 'node',
    version,
    floor: version,
    origin: inCatalog ? 'npm registry' : 'npm registry (exact pin)',
    buildArgs: { NODE_VERSION: version, NPM_VERSION: npmForNodeMajor(major) },
    isDefault: major === DEFAULT_NODE_MAJOR && inCatalog,
  };
}

const NODE: readonly ToolchainRelease[] = NODE_RELEASES.map((v) => nodeRelease(v));

const CATALOG: Readonly<Record<string, readonly ToolchainRelease[]>> = {
  go: GO,
  node: NODE,
  python: PYTHON,
  rust: RUST,
};

/** Every release of a toolchain hammer-box can build, oldest first ([] for an unknown toolchain). */
export function availableReleases(toolchain: string): readonly ToolchainRelease[] {
  return Object.hasOwn(CATALOG, toolchain) ? CATALOG[toolchain]! : [];
}

/** The release a toolchain gets when nothing is declared. */
export function defaultRelease(toolchain: string): ToolchainRelease | undefined {
  return availableReleases(toolchain).find((r) => r.isDefault);
}
