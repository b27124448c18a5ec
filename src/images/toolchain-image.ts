// Toolchain images (hammer-box/<toolchain>:<content hash>): built once from images/<toolchain>/ on
// top of the base image, for one release of the toolchain (its build arguments, and for Node.js the
// registry packages, are part of the hash), and never rebuilt while what built them is unchanged.
import type { Readable } from 'node:stream';
import type Dockerode from 'dockerode';
import path from 'node:path';
import { HammerError, throwIfAborted } from '../errors.js';
import type { RegistryOptions } from '../registry/npm-registry.js';
import { packBuildContext, readBuildContext } from './build-context.js';
import type { ContextFile } from './build-context.js';
import { hashImageInputs } from './context-hash.js';
import { emulationWarning, platformArchitecture } from './architecture.js';
import { engineArchitecture, engineError, inspectImage, statusCodeOf } from './engine.js';
import { BASE_TAG, IMAGE_LABELS, MANAGED_BY, toolchainRepo } from './labels.js';
import { imagesDir } from './package-root.js';
import { readProgress } from './progress.js';
import { downloadFetches, nodeFetches, packWithFetches, type RegistryFetch } from './registry-context.js';
import { getToolchain } from './toolchains.js';
import { defaultRelease, type ToolchainRelease } from './versions/catalog.js';
import { diffContent, sameContent, type ImageLock } from './lock.js';
import { attachLock, lockOfLabels } from './lock-label.js';
import { recordLock } from './lock-store.js';

/** The build argument that makes apt install a lock's Debian packages at their exact versions. */
export function aptPins(lock: ImageLock): string {
  return lock.debian.join(' ');
}

/** The `pkg=version` pins apt said it cannot find ("E: Version '2.1' for 'git' was not found"). */
export function unservedPins(lines: readonly string[]): string[] {
  const out = new Set<string>();
  for (const l of lines)
    for (const m of l.matchAll(/Version '([^']{1,100})' for '([a-z0-9][a-z0-9+.-]{0,100})' was not found/g))
      out.add(`${m[2]}=${m[1]}`);
  return [...out];
}

/** Options for planning or ensuring a toolchain image. */
export interface ToolchainImageOptions {
  /** Build output, one line at a time (the CLI prints it on a TTY). */
  onProgress?: (line: string) => void;
  signal?: AbortSignal;
  /** The image to build FROM (default hammer-box/base:trixie). */
  base?: string;
  /** Build context directory (default images/<toolchain dir>/ in the package). */
  contextDir?: string;
  /** The release to build (default: the toolchain's default release). */
  release?: ToolchainRelease;
  /** How to reach the npm registry, for a release that takes packages from it. */
  registry?: Omit<RegistryOptions, 'signal'>;
  /** The engine's architecture (`docker version`'s Arch or `docker info`'s); asked of the engine when not given. */
  engineArchitecture?: string;
  /** Where this machine keeps the locks it has seen (see lock-store.ts); none recorded when absent. */
  lockStore?: string;
  /**
   * Build exactly this lock's Debian packages and toolchain (a rebuild from a lock): IMAGE_BUILD_FAILED
   * naming the package when the archive no longer serves its version, or naming what differs.
   */
  fromLock?: ImageLock;
}

/** What an image would be built from, and the tag that names it. */
export interface ToolchainImagePlan {
  toolchain: string;
  tag: string;
  contextHash: string;
  contextDir: string;
  files: ContextFile[];
  buildArgs: Record<string, string>;
  baseImageId: string;
  /** The release built (its version is also a label of the image). */
  release: ToolchainRelease;
  /** Registry packages the build context takes files from. */
  fetches: RegistryFetch[];
  /** The architecture the image is built for (the base image's, which is the engine's unless it was made elsewhere). */
  architecture: string;
  /** Set when that is not the engine's: the image would run under emulation. */
  emulation: string | null;
}

/** A toolchain image present in the engine. */
export interface ToolchainImage {
  tag: string;
  id: string;
  /** True when this call built it; false when it was already there. */
  built: boolean;
  /** Set when the image is not built for the engine's architecture (see ToolchainImagePlan). */
  emulation: string | null;
  /** What went into it (null for an image built before locks were recorded). */
  lock: ImageLock | null;
  /** How a rebuild's lock differs from the first lock this machine saw for the key (empty: none). */
  drift: string[];
}

/** Lines of build output quoted in a build failure. */
const ERROR_TAIL_LINES = 20;

/** Work out the content-addressed tag of a toolchain image without building anything. */
export async function planToolchainImage(
  docker: Dockerode,
  name: string,
  options: Pick<ToolchainImageOptions, 'signal' | 'base' | 'contextDir' | 'release' | 'engineArchitecture'> = {},
): Promise<ToolchainImagePlan> {
  const toolchain = getToolchain(name);
  const release = options.release ?? defaultRelease(toolchain.name);
  if (!release || release.toolchain !== toolchain.name) {
    throw new HammerError('INTERNAL', `no release of ${toolchain.name} to build`);
  }
  const base = options.base ?? BASE_TAG;
  const baseImage = await inspectImage(docker, base, options.signal);
  if (!baseImage) {
    throw new HammerError('IMAGE_MISSING', `the base image ${base} is missing`, {
      hint: "make it with 'hammer-box images bootstrap'",
    });
  }
  const contextDir = options.contextDir ?? path.join(imagesDir(), toolchain.dir);
  const files = await readBuildContext(contextDir);
  if (!files.some((f) => f.path === 'Dockerfile')) {
    throw new HammerError('IMAGE_BUILD_FAILED', `no Dockerfile in ${contextDir}`);
  }
  const buildArgs = { BASE: base, ...release.buildArgs };
  const engineArch = platformArchitecture(
    options.engineArchitecture ?? (await engineArchitecture(docker, options.signal)),
  );
  // what goes into the image is for the architecture the image is: the base's (the engine's, as
  // bootstrapBase pulls or builds it; a base made for another one gets the emulation warning)
  const architecture = baseImage.architecture ? platformArchitecture(baseImage.architecture) : engineArch;
  const fetches = toolchain.name === 'node' ? nodeFetches(release.buildArgs, architecture) : [];
  const contextHash = hashImageInputs({
    files,
    buildArgs,
    baseImageId: baseImage.id,
    fetched: fetches.map((f) => `${f.name}@${f.version}`),
  });
  return {
    toolchain: toolchain.name,
    tag: `${toolchainRepo(toolchain.name)}:${contextHash}`,
    contextHash,
    contextDir,
    files,
    buildArgs,
    baseImageId: baseImage.id,
    release,
    fetches,
    architecture,
    emulation: emulationWarning(`${base} (and every image built on it)`, architecture, engineArch),
  };
}

/** Return the toolchain image, building it only when its content-addressed tag is missing. */
export async function ensureToolchainImage(
  docker: Dockerode,
  name: string,
  options: ToolchainImageOptions = {},
): Promise<ToolchainImage> {
  const plan = await planToolchainImage(docker, name, options);
  const existing = await inspectImage(docker, plan.tag, options.signal);
  if (existing) {
    const lock = lockOfLabels(existing.labels);
    if (options.fromLock && lock && !sameContent(options.fromLock, lock))
      throw lockMismatch(plan.tag, diffContent(options.fromLock, lock), 'is in the engine with another lock');
    return { tag: plan.tag, id: existing.id, built: false, emulation: plan.emulation, lock, drift: [] };
  }
  if (options.fromLock?.toolchain && options.fromLock.toolchain.name !== plan.toolchain)
    throw new HammerError(
      'IMAGE_BUILD_FAILED',
      `the lock is of a ${options.fromLock.toolchain?.name ?? 'toolchain-less'} image, not of ${plan.toolchain}`,
    );
  const built = await buildPlannedImage(docker, plan, options);
  const { id, lock } = await attachLock(
    docker,
    { tag: plan.tag, id: built },
    {
      kind: 'toolchain',
      key: plan.contextHash,
      from: { ref: plan.buildArgs['BASE'] ?? BASE_TAG, id: plan.baseImageId },
      toolchain: plan.toolchain,
    },
    {},
    options.signal,
  );
  if (options.fromLock) {
    const differs = diffContent(options.fromLock, lock);
    if (differs.length > 0) throw lockMismatch(plan.tag, differs, 'was rebuilt from its lock but differs');
  }
  const drift = options.lockStore
    ? await recordLock(options.lockStore, plan.tag, id, lock, new Date()).catch(() => [])
    : [];
  return { tag: plan.tag, id, built: true, emulation: plan.emulation, lock, drift };
}

/** IMAGE_BUILD_FAILED for an image whose lock is not the one asked for, naming the differences. */
function lockMismatch(tag: string, differs: readonly string[], how: string): HammerError {
  return new HammerError(
    'IMAGE_BUILD_FAILED',
    `${tag} ${how}: ${differs.slice(0, 20).join('; ')}${differs.length > 20 ? `; and ${differs.length - 20} more` : ''}`,
    {
      hint: "the archive or registry serves other versions now; 'hammer-box images import' an exported image to get the exact environment back",
    },
  );
}

/** Build the planned image and return its id. */
async function buildPlannedImage(
  docker: Dockerode,
  plan: ToolchainImagePlan,
  options: ToolchainImageOptions,
): Promise<string> {
  const what = `building ${plan.tag}`;
  throwIfAborted(options.signal, what);
  options.onProgress?.(`building ${plan.tag} (${plan.toolchain} ${plan.release.version}) from ${plan.contextDir}`);
  const fetched = await fetchPackages(plan, options);
  try {
    return await buildFromContext(docker, plan, options, fetched ? packWithFetches(plan.files, fetched) : undefined);
  } finally {
    await fetched?.dispose();
  }
}

/** Download the plan's registry packages (none for most toolchains). */
async function fetchPackages(plan: ToolchainImagePlan, options: ToolchainImageOptions) {
  if (plan.fetches.length === 0) return undefined;
  // loaded here, not with this module: its HTTP client (undici) is ~0.15 s a run with a cached image never needs
  const { NpmRegistry } = await import('../registry/npm-registry.js');
  const registry = new NpmRegistry({ ...options.registry, ...(options.signal ? { signal: options.signal } : {}) });
  try {
    return await downloadFetches(registry, plan.fetches, options.onProgress);
  } finally {
    await registry.close();
  }
}

/** Send the build context to the engine and follow the build to its end. */
async function buildFromContext(
  docker: Dockerode,
  plan: ToolchainImagePlan,
  options: ToolchainImageOptions,
  context: Readable | undefined,
): Promise<string> {
  const what = `building ${plan.tag}`;
  let summary;
  try {
    const pins = options.fromLock ? aptPins(options.fromLock) : undefined;
    const stream = await docker.buildImage(context ?? packBuildContext(plan.files), {
      t: plan.tag,
      // the pins are not part of the key: a rebuild from the lock is the same image, made exactly
      buildargs: pins ? { ...plan.buildArgs, HAMMER_APT_PINS: pins } : plan.buildArgs,
      labels: {
        [IMAGE_LABELS.managedBy]: MANAGED_BY,
        [IMAGE_LABELS.toolchain]: plan.toolchain,
        [IMAGE_LABELS.contextHash]: plan.contextHash,
        [IMAGE_LABELS.toolchainVersion]: plan.release.version,
      },
      // The base is local (no registry may be reachable); intermediate containers are always removed.
      pull: false,
      rm: true,
      forcerm: true,
      version: '1',
      abortSignal: options.signal,
    });
    summary = await readProgress(stream, options.onProgress, ERROR_TAIL_LINES);
  } catch (err) {
    if (statusCodeOf(err) !== undefined) {
      throw new HammerError('IMAGE_BUILD_FAILED', `${what}: ${err instanceof Error ? err.message : String(err)}`, {
        cause: err,
      });
    }
    throw engineError(err, what, options.signal);
  }
  if (summary.error !== undefined) {
    const gone = options.fromLock ? unservedPins([...summary.tail, summary.error]) : [];
    if (gone.length > 0)
      throw new HammerError(
        'IMAGE_BUILD_FAILED',
        `${what} from its lock: the Debian archive no longer serves ${gone.join(', ')}`,
        {
          hint: "the archive keeps only current versions: 'hammer-box images import' an exported image to get this environment back, or build without the lock (a new environment)",
        },
      );
    throw new HammerError('IMAGE_BUILD_FAILED', `${what}: ${summary.error}\n${summary.tail.join('\n')}`, {
      hint: `fix ${path.join(plan.contextDir, 'Dockerfile')} or check that the build can reach the Debian archive`,
    });
  }
  const built = await inspectImage(docker, plan.tag, options.signal);
  if (!built) {
    throw new HammerError(
      'IMAGE_BUILD_FAILED',
      `${what}: the engine reported success but has no ${plan.tag}\n${summary.tail.join('\n')}`,
    );
  }
  return built.id;
}
