// Which reference the cluster pulls for a run's image. With a registry: the digest the registry gave
// when `images push` pushed the image (the engine records it as a RepoDigest), so a pod runs exactly
// the image the run resolved, whatever the registry's tags say later. Without one (images loaded on
// the nodes): the image's content-addressed tag on the local engine (an image id has no name a
// cluster knows).
import type Dockerode from 'dockerode';
import { z } from 'zod';
import { HammerError } from '../errors.js';
import { engineError } from '../images/engine.js';
import { registryRef, splitRef } from '../images/registry-push.js';

const InspectSchema = z.object({
  RepoTags: z.array(z.string()).nullish(),
  RepoDigests: z.array(z.string()).nullish(),
});

type Inspected = z.infer<typeof InspectSchema>;

async function inspect(docker: Dockerode, image: string, signal?: AbortSignal): Promise<Inspected> {
  try {
    return InspectSchema.parse(await docker.getImage(image).inspect());
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404)
      throw new HammerError('IMAGE_MISSING', `image ${image} is not on the engine`, {
        hint: "build it with 'hammer-box images build' (an env image: run on the repository once)",
      });
    throw engineError(err, `inspecting image ${image}`, signal);
  }
}

/** The tag naming an image on the engine: `image` when it is one, else its hammer-box tag (then any). */
function tagOf(image: string, inspected: Inspected): string {
  if (!image.startsWith('sha256:') && !/^[0-9a-f]{64}$/.test(image)) return image;
  const tags = inspected.RepoTags ?? [];
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

/**
 * The digest reference under `registry` ("<registry>/<repo>@sha256:...") of an image with these
 * tags, from its RepoDigests (pure): the first tag's push first; null when it was never pushed there.
 */
export function pushedDigest(registry: string, tags: readonly string[], repoDigests: readonly string[]): string | null {
  const prefix = `${registry.replace(/\/+$/, '')}/`;
  for (const tag of tags) {
    const repo = splitRef(tag.startsWith(prefix) ? tag : registryRef(registry, tag)).repo;
    const found = repoDigests.find((d) => d.startsWith(`${repo}@`) && /@sha256:[0-9a-f]{64}$/.test(d));
    if (found) return found;
  }
  return null;
}

/** A tag naming `image` on the engine: itself when it is one, else its hammer-box tag (then any). */
export async function localTag(docker: Dockerode, image: string, signal?: AbortSignal): Promise<string> {
  if (!image.startsWith('sha256:') && !/^[0-9a-f]{64}$/.test(image)) return image;
  return tagOf(image, await inspect(docker, image, signal));
}

/**
 * The mapping a Kubernetes engine uses for a spec's image: its pushed digest under `registry`
 * (IMAGE_MISSING, naming the push that fixes it, when it was not pushed there), else its tag.
 */
export function kubeImageRef(docker: Dockerode, registry: string) {
  return async (image: string, signal?: AbortSignal): Promise<string> => {
    if (!registry) return localTag(docker, image, signal);
    const inspected = await inspect(docker, image, signal);
    const tag = tagOf(image, inspected);
    const digest = pushedDigest(registry, [tag, ...(inspected.RepoTags ?? [])], inspected.RepoDigests ?? []);
    if (digest) return digest;
    throw new HammerError(
      'IMAGE_MISSING',
      `image ${tag} was not pushed to ${registry}: pods pull it by the digest the registry gave it, and there is none`,
      {
        hint: `push it: hammer-box images push --registry ${registry} ${tag} (an env image exists only after a run set it up: push again after the first run of a repository)`,
      },
    );
  };
}
