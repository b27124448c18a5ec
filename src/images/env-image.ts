// Env images (hammer-box/<toolchain>-env:<hash>): a toolchain image plus a repository's
// dependencies, installed once by the setup container (whose only way out is the setup proxy) and
// reused by every run whose toolchain image, setup and setup inputs (see setup-inputs.ts) are
// identical. A setup that installed nothing makes no image: the toolchain image serves.
import type { Readable } from 'node:stream';
import type Dockerode from 'dockerode';
import { z } from 'zod';
import { isKnownEmpty, recordEmpty } from './empty-envs.js';
import { envImageTag, hashEnvInputs, type DependencyFile } from './env-hash.js';
import { inspectImage } from './engine.js';
import { IMAGE_LABELS, MANAGED_BY } from './labels.js';
import { allowedHosts, upstreamProxy } from './proxy-config.js';
import { ensureProxyImage } from './proxy-image.js';
import { DRIFT_LABEL, runSetupAndCommit, SETUP_CA_PATH, SKIPPED_LABEL } from './setup-container.js';
import { pipPins, type ImageLock } from './lock.js';
import { attachLock, lockOfLabels } from './lock-label.js';
import { recordLock } from './lock-store.js';
import type { SetupStepRecord } from './setup-failure.js';
import { openSetupNetwork } from './setup-network.js';
import { setupScript, type SetupRecipe } from './setup-plan.js';

/** Label keys of env images (besides managed-by and toolchain). */
export const ENV_LABELS = {
  envHash: 'hammer-box.env-hash',
  toolchainImage: 'hammer-box.toolchain-image',
  setupCommand: 'hammer-box.setup-command',
  dependencyFiles: 'hammer-box.dependency-files',
} as const;

/** What an env image is made from. */
export interface EnvImageRequest {
  toolchainImage: { ref: string; id: string };
  recipe: SetupRecipe;
  /** Every input setup can read (see setup-inputs.ts): hashed into the tag. */
  files: readonly DependencyFile[];
  /** "uid:gid" of the sandbox user. */
  user: string;
  timeoutMs: number;
  memoryBytes?: number;
  /** The size of each place setup writes ([env] setup_write_size); 0: disk volumes without a cap. */
  writeBytes: number;
  /** The most bytes of files carried into the env image ([env] max_image_size). */
  maxImageBytes: number;
  /** The host environment: its proxy becomes the setup proxy's upstream (never seen by setup). */
  hostEnv: NodeJS.ProcessEnv;
  /** Hosts beyond the toolchain's registries that setup may reach ([env] allow_hosts). */
  allowHosts: readonly string[];
  caBundle?: Buffer;
  /** Where setups that installed nothing are remembered (see empty-envs.ts). */
  emptyEnvsPath: string;
  /** The setup's files as a tar stream; called only when setup has to run. */
  repoTar: () => { stream: Readable; done: Promise<unknown> };
  /** Called once when setup starts (it does not when the env image already exists). */
  onSetupStart?: (tag: string) => void;
  onOutput?: (line: string) => void;
  /** Image build output (the proxy image, built once). */
  onProgress?: (line: string) => void;
  signal?: AbortSignal;
  /** Where this machine keeps the locks it has seen (see lock-store.ts); none recorded when absent. */
  lockStore?: string;
  /** Set up exactly from this lock when setup has to run (`verify --rebuild`): pip held to its versions. */
  fromLock?: ImageLock;
}

/** The image a run gets from its dependency setup. */
export interface EnvImage {
  tag: string;
  /** The env image's id; null when setup installed nothing and the toolchain image serves. */
  id: string | null;
  hash: string;
  /** True when this call ran setup; false when its result was already known. */
  built: boolean;
  /** The steps setup announced, when it ran now. */
  steps: SetupStepRecord[];
  /** The requirements an offline best effort skipped (names; from the image's label when it was made before). */
  skipped: string[];
  /** What setup installed differently from the repository's lockfile, and why (from the label when made before). */
  drift: string[];
  /** What went into it (null: no env image, or one made before locks were recorded). */
  lock: ImageLock | null;
  /** How a rebuild's lock differs from the first lock this machine saw for the key (empty: none). */
  lockDrift: string[];
}

/** Variables naming the CA bundle for each tool setup may run. */
export const CA_VARIABLES = [
  'SSL_CERT_FILE',
  'NODE_EXTRA_CA_CERTS',
  'PIP_CERT',
  'REQUESTS_CA_BUNDLE',
  'CARGO_HTTP_CAINFO',
  'GIT_SSL_CAINFO',
] as const;

/** The setup container's extra environment: the setup proxy (both spellings), and the CA bundle for every tool when one is given. */
export function setupEnvironment(proxyUrl: string, withCa: boolean): Record<string, string> {
  const env: Record<string, string> = {
    HTTP_PROXY: proxyUrl,
    HTTPS_PROXY: proxyUrl,
    http_proxy: proxyUrl,
    https_proxy: proxyUrl,
    NO_PROXY: '',
    no_proxy: '',
    // yarn berry reads only its own proxy settings, never HTTP(S)_PROXY
    YARN_HTTP_PROXY: proxyUrl,
    YARN_HTTPS_PROXY: proxyUrl,
  };
  if (withCa) for (const name of CA_VARIABLES) env[name] = SETUP_CA_PATH;
  return env;
}

/** The tag and hash an env image would have, without touching the engine. */
export function planEnvImage(req: Pick<EnvImageRequest, 'toolchainImage' | 'recipe' | 'files'>): {
  tag: string;
  hash: string;
} {
  const hash = hashEnvInputs({
    toolchainImageId: req.toolchainImage.id,
    command: req.recipe.command,
    script: setupScript(req.recipe).script,
    files: req.files,
  });
  return { tag: envImageTag(req.recipe.toolchain, hash), hash };
}

/** Return the env image, running setup only when neither its tag nor an empty result of the same inputs is known. */
export async function ensureEnvImage(docker: Dockerode, req: EnvImageRequest): Promise<EnvImage> {
  const { tag, hash } = planEnvImage(req);
  const { signal } = req;
  const existing = await inspectImage(docker, tag, signal);
  if (existing)
    return {
      tag,
      id: existing.id,
      hash,
      built: false,
      steps: [],
      skipped: skippedOf(existing.labels),
      drift: driftOf(existing.labels),
      lock: lockOfLabels(existing.labels),
      lockDrift: [],
    };
  if (await isKnownEmpty(req.emptyEnvsPath, tag, req.toolchainImage.id))
    return { tag, id: null, hash, built: false, steps: [], skipped: [], drift: [], lock: null, lockDrift: [] };
  const base = await inspectImage(docker, req.toolchainImage.id, signal);
  const imagePath =
    (base?.env ?? []).find((e) => e.startsWith('PATH='))?.slice(5) ??
    '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
  const proxyImage = await ensureProxyImage(docker, {
    ...(req.onProgress ? { onProgress: req.onProgress } : {}),
    ...(signal ? { signal } : {}),
  });
  const hosts = allowedHosts(req.recipe.toolchain, req.allowHosts);
  req.onSetupStart?.(tag);
  const upstream = upstreamProxy(req.hostEnv);
  req.onOutput?.(
    `hammer-box: setup may reach ${hosts.join(', ')} through its proxy${upstream ? ` (upstream ${upstream.display})` : ''}, nothing else`,
  );
  const network = await openSetupNetwork(docker, {
    proxyImage: proxyImage.id,
    hosts,
    hostEnv: req.hostEnv,
    ...(signal ? { signal } : {}),
  });
  try {
    const archive = req.repoTar();
    const script = setupScript(req.recipe, req.fromLock ? pipPins(req.fromLock) : []);
    const [result] = await Promise.all([
      runSetupAndCommit(docker, {
        image: req.toolchainImage.id,
        user: req.user,
        recipe: req.recipe,
        script,
        env: setupEnvironment(network.proxyUrl, req.caBundle !== undefined),
        ...(req.caBundle ? { caBundle: req.caBundle } : {}),
        repoTar: archive.stream,
        network: network.name,
        proxyLog: () => network.proxyLog(),
        timeoutMs: req.timeoutMs,
        ...(req.memoryBytes ? { memoryBytes: req.memoryBytes } : {}),
        writeBytes: req.writeBytes,
        maxImageBytes: req.maxImageBytes,
        tag,
        labels: {
          [IMAGE_LABELS.managedBy]: MANAGED_BY,
          [IMAGE_LABELS.toolchain]: req.recipe.toolchain,
          [ENV_LABELS.envHash]: hash,
          [ENV_LABELS.toolchainImage]: req.toolchainImage.id,
          [ENV_LABELS.setupCommand]: req.recipe.command,
          [ENV_LABELS.dependencyFiles]: labelOfFiles(req.files),
        },
        imagePath,
        ...(req.onOutput ? { onOutput: req.onOutput } : {}),
        ...(signal ? { signal } : {}),
      }),
      archive.done,
    ]);
    const skipped = result.skipped.map((s) => s.name);
    if (result.id === null) {
      // a best effort that skipped something is tried again next time (an index may answer then)
      if (skipped.length === 0)
        await recordEmpty(req.emptyEnvsPath, tag, req.toolchainImage.id, new Date()).catch(() => undefined);
      req.onOutput?.('hammer-box: setup installed nothing; the toolchain image is used as it is (no env image)');
    }
    const made = { tag, hash, built: true, steps: result.steps, skipped, drift: result.drift };
    if (result.id === null) return { ...made, id: null, lock: null, lockDrift: [] };
    const { id, lock } = await attachLock(
      docker,
      { tag, id: result.id },
      { kind: 'env', key: hash, from: req.toolchainImage, toolchain: req.recipe.toolchain },
      {},
      signal,
    );
    const lockDrift = req.lockStore ? await recordLock(req.lockStore, tag, id, lock, new Date()).catch(() => []) : [];
    return { ...made, id, lock, lockDrift };
  } finally {
    await network.close();
  }
}

/** The requirements an env image's label says its setup skipped. */
function skippedOf(labels: Record<string, string>): string[] {
  const text = labels[SKIPPED_LABEL] ?? '';
  return text === '' ? [] : text.split(',').filter((n) => /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/.test(n));
}

const driftLabelSchema = z.array(z.string().max(1000)).max(10);

/** The drift lines an env image's label records (none when it is absent or not the shape setup writes). */
function driftOf(labels: Record<string, string>): string[] {
  const text = labels[DRIFT_LABEL];
  if (text === undefined) return [];
  try {
    return driftLabelSchema.safeParse(JSON.parse(text)).data ?? [];
  } catch {
    return [];
  }
}

/** The dependency-files label: the paths, cut to a readable length. */
function labelOfFiles(files: readonly DependencyFile[]): string {
  const text = files.map((f) => f.path).join(',');
  return text.length <= 1000 ? text : `${text.slice(0, 1000)},...`;
}
