// Which image a run's sandbox starts from: the user's own (checked against the image contract and
// the engine's architecture), or the toolchain image (built once, content-addressed) and, when the
// repository has dependencies, the env image committed from the one setup run with network.
import { readFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import type Dockerode from 'dockerode';
import type { Config } from '../config/schema.js';
import { HammerError } from '../errors.js';
import { Workbench, baseTarStream } from '../git/index.js';
import { assertImageContract, bootstrapBase, ensureToolchainImage } from '../images/index.js';
import { ensureEnvImage } from '../images/env-image.js';
import { emptyEnvsPath } from '../images/empty-envs.js';
import { EMULATION_HINT } from '../images/architecture.js';
import type { SetupStepRecord } from '../images/setup-failure.js';
import { inspectImage } from '../images/engine.js';
import { lockDigest, type ImageLock } from '../images/lock.js';
import { lockStoreDir } from '../images/lock-store.js';
import type { ResolvedImage } from '../loop/run-types.js';
import type { RegistryOptions } from '../registry/npm-registry.js';
import { describePackageManager } from '../images/node-package-manager.js';
import { assertTestsCanRun, describeSkipped } from './offline-needs.js';
import type { ToolchainVersionRecord } from '../state/run-state.js';
import type { RepoEnvironment } from './repo-environment.js';

/** The images a run uses: the sandbox's (ref, id) plus the toolchain and env images behind it. */
export interface RunImages extends ResolvedImage {
  toolchain: { ref: string; id: string } | null;
  env: { ref: string; id: string } | null;
  /** The toolchain's version (and node's package manager), recorded in the state and PR_SUMMARY.md. */
  toolchain_version?: ToolchainVersionRecord;
  /** What the env image's setup installed differently from the repository's lockfile, and why. */
  setup_drift?: string[];
  /** The digests of the toolchain and env images' locks (the locks themselves: the run's image-locks.json). */
  locks?: { toolchain?: string; env?: string };
  /** How an image rebuilt under a key this machine knew differs from the lock first seen for it. */
  lock_drift?: string[];
}

/** Progress of image work: build output, setup output, and when setup starts. */
export interface ImageProgress {
  onProgress?: (line: string) => void;
  onSetupStart?: (tag: string) => void;
  onSetupOutput?: (line: string) => void;
  /** The steps the dependency setup announced and how each ended (when setup ran). */
  onSetupSteps?: (steps: SetupStepRecord[]) => void;
  /** A warning for the user: the images would run under emulation (another architecture than the engine's). */
  onWarning?: (text: string) => void;
  /** The locks of the images resolved (toolchain first), when they have them. */
  onLocks?: (locks: ImageLock[]) => void;
}

/** Resolve the configured image, building the toolchain image (and base) and the env image when missing. */
export async function resolveImage(
  docker: Dockerode,
  config: Config,
  options: ImageProgress & {
    signal?: AbortSignal;
    repoEnv?: RepoEnvironment;
    env?: NodeJS.ProcessEnv;
    /** The engine's architecture, when known already (else the image builder asks the engine). */
    engineArchitecture?: string;
    /** Build a missing toolchain image exactly from this lock (`verify --rebuild`). */
    toolchainLock?: ImageLock;
    /** Set a missing env image up exactly from this lock (`verify --rebuild`: pip held to its versions). */
    envLock?: ImageLock;
  } = {},
): Promise<RunImages> {
  const sig = options.signal ? { signal: options.signal } : {};
  const progress = options.onProgress ? { onProgress: options.onProgress } : {};
  if (config.sandbox.image) {
    const ref = config.sandbox.image;
    const id = await userImageId(docker, ref, options.signal);
    await assertImageContract(docker, ref, { user: config.sandbox.user, ...sig });
    return { ref, id, toolchain: null, env: null };
  }
  const toolchain = options.repoEnv?.toolchain ?? config.sandbox.toolchain;
  const hostEnv = options.env ?? process.env;
  const resolved = options.repoEnv?.toolchainVersion?.resolved;
  const arch = options.engineArchitecture ? { engineArchitecture: options.engineArchitecture } : {};
  await bootstrapBase(docker, { ...sig, ...progress, ...arch });
  const lockStore = lockStoreDir(hostEnv);
  const img = await ensureToolchainImage(docker, toolchain, {
    ...sig,
    ...progress,
    ...arch,
    ...(resolved ? { release: resolved.release } : {}),
    registry: await registryOptions(config, hostEnv),
    lockStore,
    ...(options.toolchainLock ? { fromLock: options.toolchainLock } : {}),
  });
  if (img.emulation) options.onWarning?.(`${img.emulation}; ${EMULATION_HINT}`);
  const toolchainImage = { ref: img.tag, id: img.id };
  const repoEnv = options.repoEnv;
  const locked = (
    env: { tag: string; lock: ImageLock | null; drift: string[] } | null,
  ): Pick<RunImages, 'locks' | 'lock_drift'> => {
    const all = [img.lock, env?.lock ?? null].filter((l): l is ImageLock => l !== null);
    if (all.length > 0) options.onLocks?.(all);
    const drift = [
      ...img.drift.map((d) => `${img.tag}: ${d}`),
      ...(env ? env.drift.map((d) => `${env.tag}: ${d}`) : []),
    ];
    for (const d of drift) options.onWarning?.(`rebuilt image drifted from its first lock: ${d}`);
    const locks = {
      ...(img.lock ? { toolchain: lockDigest(img.lock) } : {}),
      ...(env?.lock ? { env: lockDigest(env.lock) } : {}),
    };
    return {
      ...(Object.keys(locks).length > 0 ? { locks } : {}),
      ...(drift.length > 0 ? { lock_drift: drift.slice(0, 20) } : {}),
    };
  };
  const versions = runVersions(repoEnv);
  if (!repoEnv?.recipe || !repoEnv.setupInputs)
    return { ...toolchainImage, toolchain: toolchainImage, env: null, ...versions, ...locked(null) };
  const inputs = repoEnv.setupInputs;
  const caBundle = await readCaBundle(config, hostEnv);
  const [uid, gid] = config.sandbox.user.split(':').map(Number) as [number, number];
  let workbench: Workbench | undefined;
  try {
    const envImage = await ensureEnvImage(docker, {
      toolchainImage,
      recipe: repoEnv.recipe,
      files: inputs.key,
      user: config.sandbox.user,
      timeoutMs: config.env.setup_timeout * 1000,
      memoryBytes: config.sandbox.memory,
      writeBytes: config.env.setup_write_size,
      maxImageBytes: config.env.max_image_size,
      hostEnv,
      allowHosts: setupHosts(config, toolchain),
      emptyEnvsPath: emptyEnvsPath(hostEnv),
      lockStore,
      ...(options.envLock ? { fromLock: options.envLock } : {}),
      ...(caBundle ? { caBundle } : {}),
      repoTar: () => {
        const archive = (async () => {
          workbench = await Workbench.create(repoEnv.userRepo, repoEnv.userRepo.baseCommit, {
            identity: { name: config.git.author_name, email: config.git.author_email },
            ...sig,
          });
          // setup receives only what its key covers (see setup-inputs.ts)
          const only = inputs.tree === 'all' ? {} : { only: new Set(inputs.tree) };
          return baseTarStream(workbench, repoEnv.userRepo.baseCommit, { uid, gid, ...only, ...sig });
        })();
        return lazyArchive(archive);
      },
      ...(options.onSetupStart ? { onSetupStart: options.onSetupStart } : {}),
      ...(options.onSetupOutput ? { onOutput: options.onSetupOutput } : {}),
      ...progress,
      ...sig,
    });
    if (envImage.steps.length > 0) options.onSetupSteps?.(envImage.steps);
    // said every time the image is used, not only when setup ran (its output said it then)
    if (!envImage.built) for (const d of envImage.drift) options.onSetupOutput?.(`hammer-box: drift: ${d}`);
    const drift = envImage.drift.length > 0 ? { setup_drift: envImage.drift } : {};
    if (envImage.skipped.length > 0) {
      if (!envImage.built)
        options.onSetupOutput?.(
          `hammer-box: the env image was set up without a package index; it lacks ${envImage.skipped.map(describeSkipped).join(', ')}`,
        );
      const read = async (paths: readonly string[]): Promise<Map<string, string>> => {
        workbench ??= await Workbench.create(repoEnv.userRepo, repoEnv.userRepo.baseCommit, {
          identity: { name: config.git.author_name, email: config.git.author_email },
          ...sig,
        });
        const got = await workbench.readFiles(repoEnv.userRepo.baseCommit, paths, {
          maxBytesPerFile: 256 * 1024,
          ...sig,
        });
        return new Map(got.files.map((f) => [f.path, f.content]));
      };
      await assertTestsCanRun(envImage.skipped, repoEnv, read);
    }
    const envLocks = locked({ tag: envImage.tag, lock: envImage.lock, drift: envImage.lockDrift });
    if (envImage.id === null)
      return { ...toolchainImage, toolchain: toolchainImage, env: null, ...versions, ...drift, ...envLocks };
    return {
      ref: envImage.tag,
      id: envImage.id,
      toolchain: toolchainImage,
      env: { ref: envImage.tag, id: envImage.id },
      ...versions,
      ...drift,
      ...envLocks,
    };
  } finally {
    await workbench?.dispose();
  }
}

/** The toolchain version and package manager a run records, when a toolchain image was resolved. */
function runVersions(repoEnv: RepoEnvironment | undefined): Pick<RunImages, 'toolchain_version'> {
  const tv = repoEnv?.toolchainVersion;
  if (!tv) return {};
  return {
    toolchain_version: {
      toolchain: tv.resolved.toolchain,
      version: tv.resolved.release.version,
      origin: tv.resolved.release.origin,
      source: tv.resolved.source,
      ...(tv.resolved.declaration
        ? { declared: `${tv.resolved.declaration.file}: ${tv.resolved.declaration.text}` }
        : {}),
      ...(tv.packageManager ? { package_manager: describePackageManager(tv.packageManager) } : {}),
    },
  };
}

/** The hosts setup may reach besides the toolchain's registries: [env] allow_hosts, and for node the host of [env] npm_registry. */
function setupHosts(config: Config, toolchain: string): string[] {
  if (toolchain !== 'node') return config.env.allow_hosts;
  return [...config.env.allow_hosts, new URL(config.env.npm_registry).hostname];
}

/** A stream that forwards the archive once the workbench exists (the setup container is created meanwhile). */
function lazyArchive(pending: Promise<ReturnType<typeof baseTarStream>>): ReturnType<typeof baseTarStream> {
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  const done = pending.then((archive) => {
    archive.stream.on('error', (err: Error) => out.destroy(err));
    archive.stream.pipe(out);
    return archive.done;
  });
  done.catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return { stream: out, done };
}

/** How the host reaches the npm registry for Node.js's binaries: [env] npm_registry, the CA bundle setup gets, the proxy variables. */
export async function registryOptions(
  config: Config,
  env: NodeJS.ProcessEnv,
): Promise<Omit<RegistryOptions, 'signal'>> {
  const caBundle = await readCaBundle(config, env);
  return { registry: config.env.npm_registry, env, ...(caBundle ? { caBundle } : {}) };
}

/** The CA bundle for setup: [env] ca_bundle, else SSL_CERT_FILE or NODE_EXTRA_CA_CERTS when set; none otherwise. */
export async function readCaBundle(config: Config, env: NodeJS.ProcessEnv): Promise<Buffer | undefined> {
  const configured = config.env.ca_bundle;
  const path = configured || env.SSL_CERT_FILE || env.NODE_EXTRA_CA_CERTS;
  if (!path) return undefined;
  try {
    return await readFile(path);
  } catch (err) {
    const source = configured ? '[env] ca_bundle' : env.SSL_CERT_FILE ? 'SSL_CERT_FILE' : 'NODE_EXTRA_CA_CERTS';
    throw new HammerError(
      'CONFIG_INVALID',
      `cannot read the CA bundle ${path} (from ${source}): ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      {
        hint: 'point [env] ca_bundle at a readable PEM file, or unset the variable',
      },
    );
  }
}

/** A user's image id, refusing one that is missing or built for another architecture than the engine's. */
export async function userImageId(docker: Dockerode, ref: string, signal?: AbortSignal): Promise<string> {
  const facts = await inspectImage(docker, ref, signal);
  if (!facts) {
    throw new HammerError('IMAGE_MISSING', `image ${ref} is not present on the engine`, {
      hint: `pull or build it first (docker pull ${ref}); hammer-box never pulls during a run`,
    });
  }
  await assertEngineArchitecture(docker, ref, facts.architecture, facts.os);
  return facts.id;
}

/** IMAGE_CONTRACT when an image's architecture or OS is not the engine's (it would fail inside with "exec format error"). */
export async function assertEngineArchitecture(
  docker: Dockerode,
  ref: string,
  arch: string | undefined,
  os: string | undefined,
): Promise<void> {
  if (arch === undefined) return;
  let engine: { Arch?: unknown; Os?: unknown };
  try {
    engine = await docker.version();
  } catch {
    return; // the run fails soon enough with ENGINE_UNAVAILABLE
  }
  const engineArch = typeof engine.Arch === 'string' ? engine.Arch : undefined;
  const engineOs = typeof engine.Os === 'string' ? engine.Os : undefined;
  if ((engineArch && engineArch !== arch) || (engineOs && os && engineOs !== os)) {
    throw new HammerError(
      'IMAGE_CONTRACT',
      `the image ${ref} is built for ${os ?? '?'}/${arch}, but the engine runs ${engineOs ?? '?'}/${engineArch ?? '?'}`,
      {
        hint: `use an image built for ${engineOs ?? 'linux'}/${engineArch ?? 'this engine'} (docker pull --platform ${engineOs ?? 'linux'}/${engineArch ?? ''} ${ref}), or a toolchain image, which is always built for the engine`,
      },
    );
  }
}

/** The image id of a reference, or undefined when the engine does not have it. */
export async function imageId(docker: Dockerode, ref: string): Promise<string | undefined> {
  return (await inspectImage(docker, ref))?.id;
}
