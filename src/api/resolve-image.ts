// Which image a run's sandbox starts from: the user's own (checked against the image contract)
// or a toolchain image (built once, content-addressed).
import type Dockerode from 'dockerode';
import type { Config } from '../config/schema.js';
import { HammerError } from '../errors.js';
import { assertImageContract, bootstrapBase, ensureToolchainImage } from '../images/index.js';
import type { ResolvedImage } from '../loop/run-types.js';

/** Resolve the configured image, building the toolchain image (and base) when missing. */
export async function resolveImage(docker: Dockerode, config: Config, options: { signal?: AbortSignal; onProgress?: (line: string) => void } = {}): Promise<ResolvedImage> {
  const sig = options.signal ? { signal: options.signal } : {};
  if (config.sandbox.image) {
    const ref = config.sandbox.image;
    const id = await imageId(docker, ref);
    if (!id) {
      throw new HammerError('IMAGE_MISSING', `image ${ref} is not present on the engine`, {
        hint: `pull or build it first (docker pull ${ref}); hammer-box never pulls during a run`,
      });
    }
    await assertImageContract(docker, ref, { user: config.sandbox.user, ...sig });
    return { ref, id };
  }
  await bootstrapBase(docker, { ...sig, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
  const img = await ensureToolchainImage(docker, config.sandbox.toolchain, { ...sig, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
  return { ref: img.tag, id: img.id };
}

/** The image id of a reference, or undefined when the engine does not have it. */
export async function imageId(docker: Dockerode, ref: string): Promise<string | undefined> {
  try {
    const info: unknown = await docker.getImage(ref).inspect();
    const id = (info as { Id?: unknown }).Id;
    return typeof id === 'string' ? id : undefined;
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return undefined;
    throw new HammerError('ENGINE_UNAVAILABLE', `cannot inspect image ${ref}: ${(err as Error).message}`, { cause: err });
  }
}
