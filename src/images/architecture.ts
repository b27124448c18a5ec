// The engine's architecture in the name each thing hammer-box puts in an image uses (pure): image
// platforms and pulls (amd64, arm64: Go's names, as `docker version` says them), Node.js's binary
// packages (x64, arm64), and Debian's debootstrap (amd64, arm64). `docker info` says x86_64 and
// aarch64 instead (the kernel's names). Everything else in an image comes from Debian's archive
// through apt, which picks the image's own architecture, or is architecture-independent (npm, pnpm
// and yarn are JavaScript packages).
import { HammerError } from '../errors.js';
import { BASE_TAG } from './labels.js';

/** What to do about a base image made for another architecture than the engine's. */
export const EMULATION_HINT = `remove it ('docker image rm ${BASE_TAG}'), then 'hammer-box images bootstrap' makes it for the engine's architecture and the toolchain images are rebuilt on it`;

/** The kernel's and other tools' names of an architecture, as image platforms name it. */
const PLATFORM_NAMES: Readonly<Record<string, string>> = {
  x86_64: 'amd64',
  amd64: 'amd64',
  x64: 'amd64',
  aarch64: 'arm64',
  arm64: 'arm64',
  armv7l: 'arm',
  armhf: 'arm',
  arm: 'arm',
  i386: '386',
  i686: '386',
  '386': '386',
  ppc64le: 'ppc64le',
  ppc64el: 'ppc64le',
  s390x: 's390x',
  riscv64: 'riscv64',
};

/** Node.js's official binaries, by platform architecture (the npm packages node-linux-<arch>). */
const NODE_NAMES: Readonly<Record<string, string>> = { amd64: 'x64', arm64: 'arm64' };

/** Debian's names (dpkg --print-architecture), by platform architecture. */
const DEBIAN_NAMES: Readonly<Record<string, string>> = {
  amd64: 'amd64',
  arm64: 'arm64',
  arm: 'armhf',
  '386': 'i386',
  ppc64le: 'ppc64el',
  s390x: 's390x',
  riscv64: 'riscv64',
};

/** An architecture as image platforms name it: x86_64 and amd64 are amd64, aarch64 and arm64 are arm64. */
export function platformArchitecture(raw: string): string {
  const name = raw.trim().toLowerCase();
  return PLATFORM_NAMES[name] ?? name;
}

/** The platform a pull asks for, so a multi-architecture image comes for the engine's architecture. */
export function pullPlatform(engineArchitecture: string): string {
  return `linux/${platformArchitecture(engineArchitecture)}`;
}

/** The suffix of Node.js's binary package; TOOLCHAIN_UNAVAILABLE where Node.js publishes none. */
export function nodeArchitecture(architecture: string): string {
  const arch = NODE_NAMES[platformArchitecture(architecture)];
  if (arch) return arch;
  throw new HammerError(
    'TOOLCHAIN_UNAVAILABLE',
    `the npm registry has no official Node.js binaries for ${architecture} (only ${Object.keys(NODE_NAMES).join(', ')})`,
    { hint: 'bring your own image with --image' },
  );
}

/** Debian's name of an architecture, for debootstrap --arch (the platform name when Debian has no other). */
export function debianArchitecture(architecture: string): string {
  const arch = platformArchitecture(architecture);
  return DEBIAN_NAMES[arch] ?? arch;
}

/**
 * The warning for an image whose architecture is not the engine's: the engine runs it under emulation
 * (slow, where it can at all); null when they match or either is unknown.
 */
export function emulationWarning(
  image: string,
  imageArchitecture: string | undefined,
  engineArchitecture: string,
): string | null {
  if (!imageArchitecture || !engineArchitecture) return null;
  const mine = platformArchitecture(imageArchitecture);
  const engine = platformArchitecture(engineArchitecture);
  if (mine === engine) return null;
  return `${image} is built for linux/${mine} but the engine is linux/${engine}: its containers run under emulation (much slower, where the engine can emulate at all)`;
}
