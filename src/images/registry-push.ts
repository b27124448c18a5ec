// Images for a cluster: hammer-box's images tagged under a registry the user names and pushed there
// (dependency setup stays on Docker; the Kubernetes backend pulls what was pushed). The tag names
// are content-addressed, so a pushed tag always means the same image.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type Dockerode from 'dockerode';
import { z } from 'zod';
import { HammerError, throwIfAborted } from '../errors.js';
import { engineError } from './engine.js';

/** Where `ref` lives in `registry` (host[:port][/prefix]): the registry, then the reference as tagged locally. */
export function registryRef(registry: string, ref: string): string {
  return `${registry.replace(/\/+$/, '')}/${ref}`;
}

/** Split "repo[:tag]" into its repository and tag (latest when none; a port is not a tag). */
export function splitRef(ref: string): { repo: string; tag: string } {
  const slash = ref.lastIndexOf('/');
  const colon = ref.lastIndexOf(':');
  if (colon > slash) return { repo: ref.slice(0, colon), tag: ref.slice(colon + 1) };
  return { repo: ref, tag: 'latest' };
}

const ProgressSchema = z.object({
  id: z.string().optional(),
  error: z.string().optional(),
  errorDetail: z.object({ message: z.string().optional() }).optional(),
  status: z.string().optional(),
  aux: z.object({ Digest: z.string().optional() }).optional(),
});

const DockerConfigSchema = z.object({
  auths: z.record(z.string(), z.object({ auth: z.string().optional() })).optional(),
});

/** Credentials for `registry`'s host from ~/.docker/config.json (an `auths` entry); none for a credential helper. */
export async function registryAuth(
  registry: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ username: string; password: string; serveraddress: string } | undefined> {
  const host = registry.split('/')[0] ?? registry;
  const file = join(env['DOCKER_CONFIG'] || join(homedir(), '.docker'), 'config.json');
  const text = await readFile(file, 'utf8').catch(() => null);
  if (!text) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const cfg = DockerConfigSchema.safeParse(parsed);
  const auth = cfg.success ? cfg.data.auths?.[host]?.auth : undefined;
  if (!auth) return undefined;
  const decoded = Buffer.from(auth, 'base64').toString('utf8');
  const at = decoded.indexOf(':');
  if (at < 0) return undefined;
  return { username: decoded.slice(0, at), password: decoded.slice(at + 1), serveraddress: host };
}

/** What one push did: the local reference, where it went, and the registry's digest. */
export interface PushedImage {
  ref: string;
  pushed: string;
  digest: string | null;
}

/** Tag each of `refs` under `registry` and push it; IMAGE_MISSING for an image not on the engine. */
export async function pushImages(
  docker: Dockerode,
  refs: readonly string[],
  registry: string,
  options: { onProgress?: (line: string) => void; signal?: AbortSignal; env?: NodeJS.ProcessEnv } = {},
): Promise<PushedImage[]> {
  const auth = await registryAuth(registry, options.env);
  const out: PushedImage[] = [];
  for (const ref of refs) {
    throwIfAborted(options.signal, 'pushing images');
    const target = registryRef(registry, ref);
    const { repo, tag } = splitRef(target);
    try {
      await docker.getImage(ref).tag({ repo, tag });
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 404)
        throw new HammerError('IMAGE_MISSING', `image ${ref} is not on the engine`, {
          hint: "build it with 'hammer-box images build', or name one 'hammer-box images list' shows",
        });
      throw engineError(err, `tagging ${ref} as ${target}`, options.signal);
    }
    let digest: string | null = null;
    let failure: string | null = null;
    try {
      const stream = await docker.getImage(target).push({
        // the engine wants the header even for an anonymous push
        authconfig: auth ?? {},
        ...(options.signal ? { abortSignal: options.signal } : {}),
      });
      await new Promise<void>((resolve, reject) => {
        docker.modem.followProgress(
          stream,
          (err) => (err ? reject(err) : resolve()),
          (event: unknown) => {
            const e = ProgressSchema.safeParse(event);
            if (!e.success) return;
            if (e.data.error) failure = e.data.errorDetail?.message ?? e.data.error;
            if (e.data.aux?.Digest) digest = e.data.aux.Digest;
            // a line per layer when it is done, not the byte counts on the way
            if (e.data.status && /^(Pushed|Layer already exists|[^:]+: digest)/.test(e.data.status))
              options.onProgress?.(
                `${target}: ${e.data.id && !e.data.status.includes(':') ? `layer ${e.data.id} ` : ''}${e.data.status}`,
              );
          },
        );
      });
    } catch (err) {
      throw engineError(err, `pushing ${target}`, options.signal);
    }
    if (failure !== null)
      throw new HammerError('IMAGE_MISSING', `pushing ${target} failed: ${String(failure)}`, {
        hint: `the engine must reach ${registry} (an insecure http registry must be in the daemon's insecure-registries), and be logged in to it (docker login; a credential helper's login is not read: push the printed tag with docker push)`,
      });
    out.push({ ref, pushed: target, digest });
  }
  return out;
}
