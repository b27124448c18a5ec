// `images push` against the real engine: the image is tagged under the registry and pushed; a
// registry that does not answer is IMAGE_MISSING saying what the engine said, and an image that is
// not there is IMAGE_MISSING naming it.
import { afterAll, describe, expect, it } from 'vitest';
import { isHammerError } from '../../src/errors.js';
import { pushImages, registryRef } from '../../src/images/registry-push.js';
import { createDockerClient } from '../../src/sandbox/index.js';
import { toolchainImage } from '../helpers/images.js';

const docker = createDockerClient();
// nothing listens on the discard port of loopback
const REGISTRY = '127.0.0.1:9/hammer-test';
let tagged: string | undefined;

afterAll(async () => {
  // only the tag this test made; the image stays
  if (tagged)
    await docker
      .getImage(tagged)
      .remove({ noprune: true })
      .catch(() => undefined);
});

describe('images push', () => {
  it('tags the image under the registry, and a registry that does not answer fails with what the engine said', async () => {
    const image = await toolchainImage();
    tagged = registryRef(REGISTRY, image);
    const err = await pushImages(docker, [image], REGISTRY).catch((e: unknown) => e);
    expect(isHammerError(err, 'IMAGE_MISSING') || isHammerError(err, 'ENGINE_UNAVAILABLE')).toBe(true);
    expect((err as Error).message).toContain(tagged);
    expect(((await docker.getImage(tagged).inspect()) as { RepoTags: string[] }).RepoTags).toContain(tagged);
  });

  it('names an image that is not on the engine', async () => {
    const err = await pushImages(docker, ['hammer-box/no-such-image:0'], REGISTRY).catch((e: unknown) => e);
    expect(isHammerError(err, 'IMAGE_MISSING')).toBe(true);
    expect((err as Error).message).toBe('image hammer-box/no-such-image:0 is not on the engine');
  });
});
