// Which reference the cluster pulls for a run's image: the image's tag on the local engine (an
// image id has no name a cluster knows), under the registry it was pushed to when one is set.
import type Dockerode from 'dockerode';
import { z } from 'zod';
import { HammerError } from '../errors.js';
import { engineError } from '../images/engine.js';
import { registryRef } from '../images/registry-push.js';

const InspectSchema = z.object({ RepoTags: z.array(z.string()).nullish() });

/** A tag naming `image` on the engine: itself when it is one, else its hammer-box tag (then any). */
export async function localTag(docker: Dockerode, image: string, signal?: AbortSignal): Promise<string> {
  if (!image.startsWith('sha256:') && !/^[0-9a-f]{64}$/.test(image)) return image;
  let tags: string[];
  try {
    tags = InspectSchema.parse(await docker.getImage(image).inspect()).RepoTags ?? [];
  } catch (err) {
    throw engineError(err, `inspecting image ${image}`, signal);
  }
  const tag = tags.find((t) => t.startsWith('hammer-box/')) ?? tags[0];
  if (!tag)
    throw new HammerError(
      'IMAGE_MISSING',
      `image ${image.slice(0, 19)} has no tag, so a cluster cannot be told to pull it`,
      {
        hint: "tag it (docker tag), push it with 'hammer-box images push --registry <registry> <tag>', and run again",
      },
    );
  return tag;
}

/** The mapping a Kubernetes engine uses for a spec's image. */
export function kubeImageRef(docker: Dockerode, registry: string) {
  return async (image: string, signal?: AbortSignal): Promise<string> => {
    const tag = await localTag(docker, image, signal);
    return registry ? registryRef(registry, tag) : tag;
  };
}
