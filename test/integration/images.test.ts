// The image builder against the real engine: the python toolchain image is built once, reused
// while unchanged, meets the runner's image contract, and a broken Dockerfile is a typed error.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHammerError } from '../../src/errors.js';
import { platformArchitecture } from '../../src/images/architecture.js';
import {
  BASE_TAG,
  bootstrapBase,
  ensureToolchainImage,
  listImages,
  planToolchainImage,
} from '../../src/images/index.js';
import { toolchainImage } from '../helpers/images.js';

const docker = new Docker();

/** Run a command in a throwaway, network-less container of `image`; returns stdout. */
async function runIn(image: string, cmd: string[]): Promise<{ exit: number; stdout: string }> {
  const container = await docker.createContainer({
    Image: image,
    Cmd: cmd,
    HostConfig: { NetworkMode: 'none', AutoRemove: false },
    Labels: { 'hammer-box.test': 'images' },
  });
  try {
    const stream = await container.attach({ stream: true, stdout: true, stderr: true });
    const chunks: Buffer[] = [];
    const stdout = new (await import('node:stream')).PassThrough();
    stdout.on('data', (c: Buffer) => chunks.push(c));
    container.modem.demuxStream(stream, stdout, new (await import('node:stream')).PassThrough());
    await container.start();
    const { StatusCode } = (await container.wait()) as { StatusCode: number };
    await new Promise((r) => setTimeout(r, 50));
    return { exit: StatusCode, stdout: Buffer.concat(chunks).toString() };
  } finally {
    await container.remove({ force: true });
  }
}

describe('bootstrapBase when the base is missing', () => {
  const tag = `hammer-box-test/base:missing-${Date.now().toString(36)}`;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hb-bootstrap-'));
  });
  afterAll(async () => {
    await docker
      .getImage(tag)
      .remove()
      .catch(() => {});
    await rm(dir, { recursive: true, force: true });
  });

  it('fails quietly to pull without a registry and, when not root, says what to do', async () => {
    const lines: string[] = [];
    const err = await bootstrapBase(docker, { tag, isRoot: false, onProgress: (l) => lines.push(l) }).catch(
      (e: unknown) => e,
    );
    expect(isHammerError(err, 'IMAGE_MISSING')).toBe(true);
    const { message, hint } = err as { message: string; hint: string };
    expect(message).toContain('cannot be pulled');
    expect(hint).toContain(`docker pull debian:trixie-slim && docker tag debian:trixie-slim ${tag}`);
    expect(lines.some((l) => l.startsWith('cannot pull debian:trixie-slim'))).toBe(true);
  });

  it('as root on Linux runs the local build script, streaming its output', async () => {
    const script = path.join(dir, 'fake-debootstrap.sh');
    // Stands in for debootstrap (minutes, needs the Debian archive): makes the tag from the real base.
    await writeFile(script, `echo "making $1"\necho "to stderr" >&2\ndocker tag ${BASE_TAG} "$1"\n`);
    const lines: string[] = [];
    const base = await bootstrapBase(docker, {
      tag,
      isRoot: true,
      platform: 'linux',
      debootstrapScript: script,
      onProgress: (l) => lines.push(l),
    });
    expect(base.method).toBe('debootstrap');
    expect(base.tag).toBe(tag);
    expect(base.id).toBe((await docker.getImage(BASE_TAG).inspect()).Id);
    expect(lines).toContain(`making ${tag}`);
    expect(lines).toContain('to stderr');
    expect((await bootstrapBase(docker, { tag })).method).toBe('present');
  });

  it('a failing build script is IMAGE_MISSING with its output', async () => {
    const script = path.join(dir, 'broken.sh');
    await writeFile(script, 'echo "E: cannot reach the archive" >&2\nexit 4\n');
    const err = await bootstrapBase(docker, {
      tag: `${tag}-broken`,
      isRoot: true,
      platform: 'linux',
      debootstrapScript: script,
    }).catch((e: unknown) => e);
    expect(isHammerError(err, 'IMAGE_MISSING')).toBe(true);
    expect((err as Error).message).toContain('exit 4');
    expect((err as Error).message).toContain('E: cannot reach the archive');
  });
});

describe('toolchain images', () => {
  let tag: string;
  beforeAll(async () => {
    tag = await toolchainImage('python');
  });

  it('bootstraps the base as present when it exists', async () => {
    const base = await bootstrapBase(docker);
    expect(base.tag).toBe(BASE_TAG);
    expect(base.method).toBe('present');
    expect(base.id).toMatch(/^sha256:/);
  });

  it('returns the same content-addressed tag without rebuilding', async () => {
    const lines: string[] = [];
    const again = await ensureToolchainImage(docker, 'python', { onProgress: (l) => lines.push(l) });
    expect(again.built).toBe(false);
    expect(again.tag).toBe(tag);
    expect(again.tag).toMatch(/^hammer-box\/python:[0-9a-f]{12}$/);
    expect(lines).toEqual([]);
    const inspect = await docker.getImage(tag).inspect();
    expect(inspect.Id).toBe(again.id);
    expect(inspect.Config.Labels).toMatchObject({
      'hammer-box.managed-by': 'hammer-box',
      'hammer-box.toolchain': 'python',
      'hammer-box.context-hash': tag.split(':')[1],
    });
  });

  it('meets the image contract: python3, pytest, git, timeout, uid 10001, /workspace owned by it', async () => {
    const script = [
      'id -u; id -g',
      'stat -c %u:%g /workspace',
      'python3 -c "import pytest; print(pytest.__version__)" >/dev/null && echo pytest-ok',
      'git --version >/dev/null && echo git-ok',
      'timeout 5 true && echo timeout-ok',
      'tar --version >/dev/null && echo tar-ok',
      'echo "home=$HOME"',
      'pwd',
    ].join('; ');
    const { exit, stdout } = await runIn(tag, ['sh', '-c', script]);
    expect(exit).toBe(0);
    expect(stdout.split('\n').filter(Boolean)).toEqual([
      '10001',
      '10001',
      '10001:10001',
      'pytest-ok',
      'git-ok',
      'timeout-ok',
      'tar-ok',
      'home=/tmp',
      '/workspace',
    ]);
  });

  it("is planned for the engine's architecture, and warns of emulation when the base is another's", async () => {
    const engine = platformArchitecture(String((await docker.version()).Arch));
    const plan = await planToolchainImage(docker, 'python');
    expect(plan.architecture).toBe(engine);
    expect(plan.emulation).toBeNull();
    // an engine of the other architecture would run this base (and what is built on it) under emulation
    const other = engine === 'amd64' ? 'arm64' : 'amd64';
    const foreign = await ensureToolchainImage(docker, 'python', { engineArchitecture: other });
    expect(foreign.built).toBe(false);
    expect(foreign.emulation).toBe(
      `${BASE_TAG} (and every image built on it) is built for linux/${engine} but the engine is linux/${other}: its containers run under emulation (much slower, where the engine can emulate at all)`,
    );
  });

  it('lists the toolchain image and the base', async () => {
    const images = await listImages(docker);
    expect(images.find((i) => i.tag === tag)).toMatchObject({ toolchain: 'python' });
    expect(images.find((i) => i.tag === BASE_TAG)).toMatchObject({ toolchain: 'base' });
  });

  describe('a broken Dockerfile', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'hb-image-ctx-'));
      await writeFile(
        path.join(dir, 'Dockerfile'),
        `ARG BASE\nFROM \${BASE}\nRUN echo about-to-fail-${Date.now()} && exit 7\n`,
      );
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('is an IMAGE_BUILD_FAILED error quoting the build output', async () => {
      const lines: string[] = [];
      const err = await ensureToolchainImage(docker, 'python', {
        contextDir: dir,
        onProgress: (l) => lines.push(l),
      }).catch((e: unknown) => e);
      expect(isHammerError(err, 'IMAGE_BUILD_FAILED')).toBe(true);
      expect((err as Error).message).toContain('returned a non-zero code: 7');
      expect((err as Error).message).toContain('about-to-fail');
      expect(lines.some((l) => l.includes('about-to-fail'))).toBe(true);
    });
  });
});
