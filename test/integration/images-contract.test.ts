// The image contract checked against real images: the python toolchain image meets it, the bare
// base image and an image without a shell are told exactly what they lack.
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { isHammerError } from '../../src/errors.js';
import { BASE_TAG, assertImageContract, checkImageContract } from '../../src/images/index.js';
import { packBuildContext } from '../../src/images/build-context.js';
import { readProgress } from '../../src/images/progress.js';
import { toolchainImage } from '../helpers/images.js';

const docker = new Docker();

describe('image contract', () => {
  const shellless = `hammer-box-test/no-shell:${Date.now().toString(36)}`;
  afterAll(async () => {
    await docker
      .getImage(shellless)
      .remove({ force: true })
      .catch(() => {});
  });

  it('the python toolchain image meets it', async () => {
    const image = await toolchainImage('python');
    expect(await checkImageContract(docker, image)).toMatchObject({ missing: [], problems: [] });
    await assertImageContract(docker, image);
  });

  it('the bare base image lacks git and /workspace', async () => {
    const report = await checkImageContract(docker, BASE_TAG);
    expect(report.missing).toEqual(['git', 'workspace']);
    const err = await assertImageContract(docker, BASE_TAG).catch((e: unknown) => e);
    expect(isHammerError(err, 'IMAGE_CONTRACT')).toBe(true);
    expect((err as Error).message).toContain('git');
    expect((err as Error).message).toContain('/workspace');
  });

  it('running as root breaks it', async () => {
    const report = await checkImageContract(docker, await toolchainImage('python'), { user: '0:0' });
    // Root without capabilities cannot write the sandbox user's /workspace either.
    expect(report.missing).toEqual(['workspace-writable', 'non-root']);
  });

  it('an image without /bin/sh lacks a shell', async () => {
    const context = packBuildContext([
      { path: 'Dockerfile', mode: 0o644, content: Buffer.from('FROM scratch\nLABEL hammer-box.test=contract\n') },
    ]);
    const stream = await docker.buildImage(context, { t: shellless, version: '1' });
    const summary = await readProgress(stream);
    expect(summary.error).toBeUndefined();
    expect((await checkImageContract(docker, shellless)).missing).toEqual(['sh']);
  });

  it('a missing image is IMAGE_MISSING', async () => {
    const err = await checkImageContract(docker, 'hammer-box-test/absent:nope').catch((e: unknown) => e);
    expect(isHammerError(err, 'IMAGE_MISSING')).toBe(true);
  });
});
