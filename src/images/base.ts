// The base image every toolchain image is built FROM: already present, pulled from a registry, or
// made locally with debootstrap when no registry is reachable.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type Dockerode from 'dockerode';
import { HammerError, abortError, throwIfAborted } from '../errors.js';
import { engineError, inspectImage } from './engine.js';
import { BASE_PULL_REF, BASE_TAG } from './labels.js';
import { imagesDir } from './package-root.js';
import { readProgress } from './progress.js';

/** How the base image came to be there. */
export type BaseMethod = 'present' | 'pulled' | 'debootstrap';

/** The base image, present in the engine. */
export interface BaseImage {
  tag: typeof BASE_TAG;
  id: string;
  method: BaseMethod;
}

/** Options for bootstrapBase. Ambient facts are defaults so tests can vary them. */
export interface BootstrapOptions {
  onProgress?: (line: string) => void;
  signal?: AbortSignal;
  /** Environment for the debootstrap script (default process.env: it needs PATH and DOCKER_HOST). */
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Whether we run as root (default: process.getuid() === 0). */
  isRoot?: boolean;
  /** Give up on a pull that sends nothing for this long (default 30 s). */
  pullIdleTimeoutMs?: number;
}

/** Make sure hammer-box/base:bookworm exists: present, else pulled, else debootstrapped, else IMAGE_MISSING. */
export async function bootstrapBase(docker: Dockerode, options: BootstrapOptions = {}): Promise<BaseImage> {
  const { onProgress, signal } = options;
  const present = await inspectImage(docker, BASE_TAG, signal);
  if (present) return { tag: BASE_TAG, id: present.id, method: 'present' };

  const pullFailure = await tryPull(docker, options);
  if (pullFailure === undefined) {
    const id = await tagAsBase(docker, signal);
    return { tag: BASE_TAG, id, method: 'pulled' };
  }
  onProgress?.(`cannot pull ${BASE_PULL_REF} (${pullFailure})`);

  const platform = options.platform ?? process.platform;
  const isRoot = options.isRoot ?? process.getuid?.() === 0;
  if (platform === 'linux' && isRoot) {
    onProgress?.(`building ${BASE_TAG} locally with debootstrap`);
    await runDebootstrap(options);
    const made = await inspectImage(docker, BASE_TAG, signal);
    if (!made) throw new HammerError('IMAGE_MISSING', `debootstrap finished but ${BASE_TAG} is not in the engine`);
    return { tag: BASE_TAG, id: made.id, method: 'debootstrap' };
  }
  throw new HammerError('IMAGE_MISSING', `the base image ${BASE_TAG} is missing and ${BASE_PULL_REF} cannot be pulled (${pullFailure})`, {
    hint:
      `on a machine with registry access: docker pull ${BASE_PULL_REF} && docker tag ${BASE_PULL_REF} ${BASE_TAG}; ` +
      `or, as root on Linux with Debian's archive reachable: sh ${path.join(imagesDir(), 'base', 'debootstrap.sh')} ${BASE_TAG}`,
  });
}

/** Pull the registry base; returns undefined on success or a one-line reason on failure (never throws, except ABORTED). */
async function tryPull(docker: Dockerode, options: BootstrapOptions): Promise<string | undefined> {
  const { signal, onProgress } = options;
  throwIfAborted(signal, 'pulling the base image');
  // A pull that goes silent (a firewall dropping packets) is abandoned quickly instead of hanging.
  const idle = new AbortController();
  const onAbort = (): void => idle.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const idleMs = options.pullIdleTimeoutMs ?? 30_000;
  let timer = setTimeout(() => idle.abort(new Error('no progress')), idleMs);
  const touch = (line: string): void => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(new Error('no progress')), idleMs);
    onProgress?.(line);
  };
  try {
    const stream = await docker.pull(BASE_PULL_REF, { abortSignal: idle.signal });
    const summary = await readProgress(stream, touch, 5);
    return summary.error === undefined ? undefined : firstLine(summary.error);
  } catch (err) {
    if (signal?.aborted) throw abortError(signal, 'pulling the base image');
    if (idle.signal.aborted) return `no progress for ${Math.round(idleMs / 1000)} s`;
    if (err instanceof Error && !('statusCode' in err)) throw engineError(err, 'pulling the base image', signal);
    return firstLine(err instanceof Error ? err.message : String(err));
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Tag the pulled image as the base and return its id. */
async function tagAsBase(docker: Dockerode, signal: AbortSignal | undefined): Promise<string> {
  const [repo, tag] = BASE_TAG.split(':') as [string, string];
  try {
    await docker.getImage(BASE_PULL_REF).tag({ repo, tag });
  } catch (err) {
    throw engineError(err, `tagging ${BASE_PULL_REF} as ${BASE_TAG}`, signal);
  }
  const tagged = await inspectImage(docker, BASE_TAG, signal);
  if (!tagged) throw new HammerError('IMAGE_MISSING', `tagging ${BASE_PULL_REF} as ${BASE_TAG} left no image`);
  return tagged.id;
}

/** Run images/base/debootstrap.sh, streaming its output; IMAGE_MISSING with the tail when it fails. */
async function runDebootstrap(options: BootstrapOptions): Promise<void> {
  const { signal, onProgress } = options;
  const script = path.join(imagesDir(), 'base', 'debootstrap.sh');
  const child = spawn('sh', [script, BASE_TAG], { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], signal });
  const tail: string[] = [];
  const onLine = (line: string): void => {
    tail.push(line);
    if (tail.length > 20) tail.shift();
    onProgress?.(line);
  };
  const collect = (stream: NodeJS.ReadableStream): void => {
    let buf = '';
    stream.on('data', (chunk: Buffer) => {
      buf += chunk.toString();
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    });
    stream.on('end', () => buf !== '' && onLine(buf));
  };
  collect(child.stdout);
  collect(child.stderr);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  }).catch((err: unknown) => {
    if (signal?.aborted) throw abortError(signal, 'debootstrap');
    throw new HammerError('IMAGE_MISSING', `cannot run ${script}`, { cause: err });
  });
  if (signal?.aborted) throw abortError(signal, 'debootstrap');
  if (code !== 0) {
    throw new HammerError('IMAGE_MISSING', `debootstrap of ${BASE_TAG} failed (exit ${code ?? 'signal'}):\n${tail.join('\n')}`, {
      hint: `docker pull ${BASE_PULL_REF} && docker tag ${BASE_PULL_REF} ${BASE_TAG}`,
    });
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0]?.trim() ?? '';
}
