// The toolchain version and (for node) the package manager a repository's base commit asks for,
// read through the workbench from the files that declare them, and resolved against what can be
// built. The user's [sandbox] toolchain_version overrides the declaration.
import type { Config } from '../config/schema.js';
import type { Workbench } from '../git/index.js';
import {
  choosePackageManager,
  PACKAGE_MANAGER_FILES,
  type ImageNpm,
  type NodePackageManager,
} from '../images/node-package-manager.js';
import { readVersionDeclaration, VERSION_FILES } from '../images/versions/declarations.js';
import { resolveToolchainVersion, type ResolvedToolchain } from '../images/versions/resolve.js';

/** Enough of a manifest or a lockfile's head to read a declaration from. */
const MAX_DECLARATION_BYTES = 256 * 1024;

/** What the repository gets of its toolchain. */
export interface RepoToolchain {
  resolved: ResolvedToolchain;
  /** Node only: the package manager; null for other toolchains. */
  packageManager: NodePackageManager | null;
}

/**
 * Read the declaring files among the project's files and resolve the toolchain's release (and
 * package manager). `rootFiles` are the names of the files directly in the project's directory
 * `dir` ('' for the repository's root).
 */
export async function readRepoToolchain(
  workbench: Workbench,
  commit: string,
  toolchain: string,
  rootFiles: readonly string[],
  config: Config,
  signal?: AbortSignal,
  dir = '',
): Promise<RepoToolchain> {
  const wanted = [...(VERSION_FILES[toolchain] ?? []), ...(toolchain === 'node' ? PACKAGE_MANAGER_FILES : [])];
  const present = [...new Set(wanted)].filter((f) => rootFiles.includes(f));
  const contents = new Map<string, string>();
  const prefix = dir === '' ? '' : `${dir}/`;
  if (present.length > 0) {
    const read = await workbench.readFiles(
      commit,
      present.map((f) => `${prefix}${f}`),
      {
        maxBytesPerFile: MAX_DECLARATION_BYTES,
        ...(signal ? { signal } : {}),
      },
    );
    for (const f of read.files) contents.set(f.path.slice(prefix.length), f.content);
  }
  const resolved = resolveToolchainVersion(
    toolchain,
    readVersionDeclaration(toolchain, contents),
    config.sandbox.toolchain_version,
  );
  const packageManager = toolchain === 'node' ? choosePackageManager(rootFiles, contents, imageNpm(resolved)) : null;
  return { resolved, packageManager };
}

/** The npm the resolved node image carries (its build arguments name it), when known. */
function imageNpm(resolved: ResolvedToolchain): ImageNpm | undefined {
  const version = resolved.release.buildArgs['NPM_VERSION'];
  const nodeMajor = Number(resolved.release.version.split('.')[0]);
  return version && Number.isInteger(nodeMajor) ? { version, nodeMajor } : undefined;
}
