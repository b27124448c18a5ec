// The few image calls the builder makes on the engine, with engine failures mapped to typed errors.
import type Dockerode from 'dockerode';
import { z } from 'zod';
import { HammerError, abortError, throwIfAborted } from '../errors.js';
import { ENGINE_HINT } from '../sandbox/docker-errors.js';

const imageInspectSchema = z.object({
  Id: z.string(),
  Created: z.string().optional(),
  Size: z.number().optional(),
  Architecture: z.string().optional(),
  Os: z.string().optional(),
  Config: z
    .object({ Labels: z.record(z.string(), z.string()).nullish(), Env: z.array(z.string()).nullish() })
    .nullish(),
});

const versionSchema = z.object({ Arch: z.string().optional() });

/** The parts of an image inspect the builder uses. */
export interface ImageFacts {
  id: string;
  labels: Record<string, string>;
  architecture: string | undefined;
  os: string | undefined;
  /** The image's environment as KEY=value entries. */
  env: string[];
  created: string | undefined;
  sizeBytes: number | undefined;
}

/** The engine's HTTP status of a dockerode error, if it has one. */
export function statusCodeOf(err: unknown): number | undefined {
  if (typeof err === 'object' && err !== null && 'statusCode' in err && typeof err.statusCode === 'number') {
    return err.statusCode;
  }
  return undefined;
}

/** Map a failed engine call to a typed error (ABORTED when the signal fired). */
export function engineError(err: unknown, what: string, signal?: AbortSignal): HammerError {
  if (err instanceof HammerError) return err;
  if (signal?.aborted) return abortError(signal, what);
  if (statusCodeOf(err) === undefined) {
    return new HammerError('ENGINE_UNAVAILABLE', `${what}: the Docker engine did not answer`, {
      cause: err,
      hint: ENGINE_HINT,
    });
  }
  return new HammerError('INTERNAL', `${what} failed: ${err instanceof Error ? err.message : String(err)}`, {
    cause: err,
  });
}

/** The engine's architecture (`docker version`'s Arch: amd64, arm64). */
export async function engineArchitecture(docker: Dockerode, signal?: AbortSignal): Promise<string> {
  throwIfAborted(signal, 'asking the engine its architecture');
  let raw: unknown;
  try {
    // one short request (the client's deadline bounds it); dockerode's version() takes no AbortSignal
    raw = await docker.version();
  } catch (err) {
    throw engineError(err, 'asking the engine its architecture', signal);
  }
  const parsed = versionSchema.safeParse(raw);
  const arch = parsed.success ? parsed.data.Arch : undefined;
  if (!arch) throw new HammerError('INTERNAL', "the engine's version answer names no architecture");
  return arch;
}

/** Inspect an image by reference; undefined when the engine does not have it. */
export async function inspectImage(
  docker: Dockerode,
  ref: string,
  signal?: AbortSignal,
): Promise<ImageFacts | undefined> {
  throwIfAborted(signal, `inspecting image ${ref}`);
  let raw: unknown;
  try {
    // Image inspect takes no AbortSignal in dockerode; it is one short request.
    raw = await docker.getImage(ref).inspect();
  } catch (err) {
    if (statusCodeOf(err) === 404) return undefined;
    throw engineError(err, `inspecting image ${ref}`, signal);
  }
  const parsed = imageInspectSchema.parse(raw);
  return {
    id: parsed.Id,
    labels: parsed.Config?.Labels ?? {},
    architecture: parsed.Architecture,
    os: parsed.Os,
    env: parsed.Config?.Env ?? [],
    created: parsed.Created,
    sizeBytes: parsed.Size,
  };
}
