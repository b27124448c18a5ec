// The base image every toolchain image is built FROM: already present, pulled from a registry, or
// made locally with debootstrap when no registry is reachable.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type Dockerode from 'dockerode';
import { HammerError, abortError, throwIfAborted } from '../errors.js';
import { debianArchitecture, platformArchitecture, pullPlatform } from './architecture.js';
import { engineArchitecture, engineError, inspectImage } from './engine.js';
import { BASE_PULL_REF, BASE_TAG } from './labels.js';
import { imagesDir } from './package-root.js';
import { readProgress } from './progress.js';

/** How the base image came to be there. */
export type BaseMethod = 'present' | 'pulled' | 'debootstrap';

/** The base image, present in the engine. */
export interface BaseImage {
  tag: string;
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
  /** The tag to make (default hammer-box/base:trixie). For tests. */
  tag?: string;
  /** The registry image to pull (default debian:trixie-slim). For tests. */
  pullRef?: string;
  /** The local build script, called as `sh <script> <tag>` (default images/base/debootstrap.sh). For tests. */
  debootstrapScript?: string;
  /** The engine's architecture (asked of the engine when not given, and only when the base must be made). */
  engineArchitecture?: string;
}

/** Make sure hammer-box/base:trixie exists: present, else pulled, else debootstrapped, else IMAGE_MISSING. */
export async function bootstrapBase(docker: Dockerode, options: BootstrapOptions = {}): Promise<BaseImage> {
  const { onProgress, signal } = options;
  const tag = options.tag ?? BASE_TAG;
  const pullRef = options.pullRef ?? BASE_PULL_REF;
  const script = options.debootstrapScript ?? path.join(imagesDir(), 'base', 'debootstrap.sh');
  const present = await inspectImage(docker, tag, signal);
  if (present) return { tag, id: present.id, method: 'present' };

  // made for the engine's architecture: a multi-architecture pull would otherwise follow the
  // client's default platform (DOCKER_DEFAULT_PLATFORM), and debootstrap the host's
  const arch = platformArchitecture(options.engineArchitecture ?? (await engineArchitecture(docker, signal)));
  const pullFailure = await tryPull(docker, pullRef, arch, options);
  if (pullFailure === undefined) {
    const id = await tagAs(docker, pullRef, tag, signal);
    return { tag, id, method: 'pulled' };
  }
  onProgress?.(`cannot pull ${pullRef} (${pullFailure})`);

  const platform = options.platform ?? process.platform;
  const isRoot = options.isRoot ?? process.getuid?.() === 0;
  if (platform === 'linux' && isRoot) {
    onProgress?.(`building ${tag} locally with debootstrap`);
    await runDebootstrap(script, tag, pullRef, arch, options);
    const made = await inspectImage(docker, tag, signal);
    if (!made) throw new HammerError('IMAGE_MISSING', `debootstrap finished but ${tag} is not in the engine`);
    return { tag, id: made.id, method: 'debootstrap' };
  }
  throw new HammerError(
    'IMAGE_MISSING',
    `the base image ${tag} is missing and ${pullRef} cannot be pulled (${pullFailure})`,
    {
      hint:
        `where a registry is reachable: docker pull ${pullRef} && docker tag ${pullRef} ${tag}; ` +
        `or run 'hammer-box images bootstrap' as root on Linux (it builds the image with debootstrap from the Debian archive)`,
    },
  );
}

/** Pull the registry base; returns undefined on success or a one-line reason on failure (never throws, except ABORTED). */
async function tryPull(
  docker: Dockerode,
  pullRef: string,
  arch: string,
  options: BootstrapOptions,
): Promise<string | undefined> {
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
    const stream = await docker.pull(pullRef, { abortSignal: idle.signal, platform: pullPlatform(arch) });
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
async function tagAs(docker: Dockerode, from: string, to: string, signal: AbortSignal | undefined): Promise<string> {
  const colon = to.lastIndexOf(':');
  const repo = colon > to.lastIndexOf('/') ? to.slice(0, colon) : to;
  const tag = colon > to.lastIndexOf('/') ? to.slice(colon + 1) : 'latest';
  try {
    await docker.getImage(from).tag({ repo, tag });
  } catch (err) {
    throw engineError(err, `tagging ${from} as ${to}`, signal);
  }
  const tagged = await inspectImage(docker, to, signal);
  if (!tagged) throw new HammerError('IMAGE_MISSING', `tagging ${from} as ${to} left no image`);
  return tagged.id;
}

/** Run the debootstrap script, streaming its output; IMAGE_MISSING with the tail when it fails. */
async function runDebootstrap(
  script: string,
  tag: string,
  pullRef: string,
  arch: string,
  options: BootstrapOptions,
): Promise<void> {
  const { signal, onProgress } = options;
  const child = spawn('sh', [script, tag], {
    // the script refuses an engine architecture that is not this host's (debootstrap builds for the host)
    env: { ...(options.env ?? process.env), HAMMER_DEBIAN_ARCH: debianArchitecture(arch) },
    stdio: ['ignore', 'pipe', 'pipe'],
    signal,
  });
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
    throw new HammerError(
      'IMAGE_MISSING',
      `debootstrap of ${tag} failed (exit ${code ?? 'signal'}):\n${tail.join('\n')}`,
      {
        hint: `check that the Debian archive is reachable, or: docker pull ${pullRef} && docker tag ${pullRef} ${tag}`,
      },
    );
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0]?.trim() ?? '';
}
