// Env images (hammer-box/<toolchain>-env:<hash>): a toolchain image plus a repository's
// dependencies, installed once with network by the setup container and reused by every run whose
// toolchain image, setup command and dependency files are unchanged.
import type { Readable } from 'node:stream';
import type Dockerode from 'dockerode';
import { envImageTag, hashEnvInputs, type DependencyFile } from './env-hash.js';
import { inspectImage } from './engine.js';
import { IMAGE_LABELS, MANAGED_BY } from './labels.js';
import { runSetupAndCommit, SETUP_CA_PATH } from './setup-container.js';
import { setupScript, type SetupScriptOptions } from './setup-plan.js';

/** Label keys of env images (besides managed-by and toolchain). */
export const ENV_LABELS = {
  envHash: 'hammer-box.env-hash',
  toolchainImage: 'hammer-box.toolchain-image',
  setupCommand: 'hammer-box.setup-command',
  dependencyFiles: 'hammer-box.dependency-files',
} as const;

/** What an env image is made from. */
export interface EnvImageRequest {
  toolchain: string;
  toolchainImage: { ref: string; id: string };
  /** The setup command (configured or defaulted); never empty. */
  command: string;
  files: readonly DependencyFile[];
  /** What the setup script depends on besides the toolchain (node: the package manager); part of the hash through the script. */
  scriptOptions?: SetupScriptOptions;
  /** "uid:gid" of the sandbox user. */
  user: string;
  timeoutMs: number;
  memoryBytes?: number;
  /** The host environment: its proxy settings go into setup (never into the image). */
  hostEnv: NodeJS.ProcessEnv;
  caBundle?: Buffer;
  /** The repository's base as a tar stream; called only when setup has to run. */
  repoTar: () => { stream: Readable; done: Promise<unknown> };
  /** Called once when setup starts (it does not when the env image already exists). */
  onSetupStart?: (tag: string) => void;
  onOutput?: (line: string) => void;
  signal?: AbortSignal;
}

/** An env image present in the engine. */
export interface EnvImage {
  tag: string;
  id: string;
  hash: string;
  /** True when this call ran setup; false when the image was already there. */
  built: boolean;
}

/** Proxy variables passed from the host into setup (both spellings, as tools differ). */
export const PROXY_VARIABLES = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
] as const;

/** Variables naming the CA bundle for each tool setup may run. */
export const CA_VARIABLES = [
  'SSL_CERT_FILE',
  'NODE_EXTRA_CA_CERTS',
  'PIP_CERT',
  'REQUESTS_CA_BUNDLE',
  'CARGO_HTTP_CAINFO',
  'GIT_SSL_CAINFO',
] as const;

/** The setup container's extra environment: the host's proxy settings, and the CA bundle for every tool when one is given. */
export function setupEnvironment(hostEnv: NodeJS.ProcessEnv, withCa: boolean): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PROXY_VARIABLES) {
    const value = hostEnv[name];
    if (value !== undefined && value !== '') env[name] = value;
  }
  if (withCa) for (const name of CA_VARIABLES) env[name] = SETUP_CA_PATH;
  return env;
}

/** The tag and hash an env image would have, without touching the engine. */
export function planEnvImage(
  req: Pick<EnvImageRequest, 'toolchain' | 'toolchainImage' | 'command' | 'files' | 'scriptOptions'>,
): {
  tag: string;
  hash: string;
} {
  const script = setupScript(req.toolchain, req.scriptOptions).script;
  const hash = hashEnvInputs({
    toolchainImageId: req.toolchainImage.id,
    command: req.command,
    script,
    files: req.files,
  });
  return { tag: envImageTag(req.toolchain, hash), hash };
}

/** Return the env image, running setup and committing it only when its tag is missing. */
export async function ensureEnvImage(docker: Dockerode, req: EnvImageRequest): Promise<EnvImage> {
  const { tag, hash } = planEnvImage(req);
  const existing = await inspectImage(docker, tag, req.signal);
  if (existing) return { tag, id: existing.id, hash, built: false };
  const base = await inspectImage(docker, req.toolchainImage.id, req.signal);
  const imagePath =
    (base?.env ?? []).find((e) => e.startsWith('PATH='))?.slice(5) ??
    '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
  req.onSetupStart?.(tag);
  const archive = req.repoTar();
  const [id] = await Promise.all([
    runSetupAndCommit(docker, {
      image: req.toolchainImage.id,
      user: req.user,
      command: req.command,
      script: setupScript(req.toolchain, req.scriptOptions),
      env: setupEnvironment(req.hostEnv, req.caBundle !== undefined),
      ...(req.caBundle ? { caBundle: req.caBundle } : {}),
      repoTar: archive.stream,
      timeoutMs: req.timeoutMs,
      ...(req.memoryBytes ? { memoryBytes: req.memoryBytes } : {}),
      tag,
      labels: {
        [IMAGE_LABELS.managedBy]: MANAGED_BY,
        [IMAGE_LABELS.toolchain]: req.toolchain,
        [ENV_LABELS.envHash]: hash,
        [ENV_LABELS.toolchainImage]: req.toolchainImage.id,
        [ENV_LABELS.setupCommand]: req.command,
        [ENV_LABELS.dependencyFiles]: req.files.map((f) => f.path).join(','),
      },
      imagePath,
      ...(req.onOutput ? { onOutput: req.onOutput } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
    }),
    archive.done,
  ]);
  return { tag, id, hash, built: true };
}
