// `images push` against the real engine: the image is tagged under the registry and pushed; a
// registry that does not answer is IMAGE_MISSING saying what the engine said, and an image that is
// not there is IMAGE_MISSING naming it. Pushed to a registry in the test process, an image is then
// referenced by the digest the registry gave it (what pods pull), and one never pushed is refused.
import { randomBytes } from 'node:crypto';
import * as tar from 'tar-stream';
import { afterAll, describe, expect, it } from 'vitest';
import { kubeImageRef } from '../../src/api/kube-images.js';
import { isHammerError } from '../../src/errors.js';
import { pushImages, registryRef } from '../../src/images/registry-push.js';
import { createDockerClient } from '../../src/sandbox/index.js';
import { toolchainImage } from '../helpers/images.js';
import { startRegistry } from '../helpers/registry-server.js';

const docker = createDockerClient();
// nothing listens on the discard port of loopback
const REGISTRY = '127.0.0.1:9/hammer-test';
let tagged: string | undefined;
/** The tiny image the digest test builds (FROM scratch: nothing to pull), removed with its tags after. */
let tiny: string | undefined;
let tinyId: string | undefined;

afterAll(async () => {
  // only the tag this test made; the image stays
  if (tagged)
    await docker
      .getImage(tagged)
      .remove({ noprune: true })
      .catch(() => undefined);
  // by id with force: every tag of it (its own and the registry's) goes
  if (tinyId)
    await docker
      .getImage(tinyId)
      .remove({ force: true })
      .catch(() => undefined);
});

/** Build a one-file image FROM scratch as `tag`; its id. */
async function buildTiny(tag: string): Promise<string> {
  const pack = tar.pack();
  pack.entry({ name: 'Dockerfile' }, 'FROM scratch\nCOPY hello /hello\n');
  pack.entry({ name: 'hello' }, `${tag}\n`);
  pack.finalize();
  const stream = await docker.buildImage(pack as unknown as NodeJS.ReadableStream, { t: tag, rm: true });
  await new Promise<void>((resolve, reject) =>
    docker.modem.followProgress(stream, (err) => (err ? reject(err) : resolve())),
  );
  return ((await docker.getImage(tag).inspect()) as { Id: string }).Id;
}

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

  it('pods pull an image by the digest its push got; one never pushed is refused, saying how to push it', async () => {
    const registry = await startRegistry();
    try {
      const where = `${registry.host}/hammer`;
      tiny = `hammer-box-test/digest:${randomBytes(4).toString('hex')}`;
      const id = await buildTiny(tiny);
      tinyId = id;
      const resolve = kubeImageRef(docker, where);
      const unpushed = await resolve(tiny).catch((e: unknown) => e);
      expect(isHammerError(unpushed, 'IMAGE_MISSING')).toBe(true);
      expect((unpushed as Error).message).toBe(
        `image ${tiny} was not pushed to ${where}: pods pull it by the digest the registry gave it, and there is none`,
      );
      expect((unpushed as { hint?: string }).hint).toMatch(`hammer-box images push --registry ${where} ${tiny}`);
      const [pushed] = await pushImages(docker, [tiny], where);
      expect(pushed?.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(registry.manifests.get(`hammer/${tiny}`)?.digest).toBe(pushed?.digest);
      const ref = `${registryRef(where, tiny.split(':')[0]!)}@${pushed!.digest!}`;
      // by its tag or by its id (what a run resolves), the same digest
      expect(await resolve(tiny)).toBe(ref);
      expect(await resolve(id)).toBe(ref);
      // without a registry (images loaded on the nodes) the tag itself
      expect(await kubeImageRef(docker, '')(tiny)).toBe(tiny);
    } finally {
      await registry.close();
    }
  }, 120_000);
});
