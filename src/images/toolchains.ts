// The registry of toolchains hammer-box can build an image for. Adding node, go or rust is a new
// entry here plus an images/<dir>/Dockerfile; nothing else in the builder changes.
import { HammerError } from '../errors.js';

/** One toolchain: its build context directory under images/ and its default test command. */
export interface Toolchain {
  name: string;
  /** Directory under images/ holding the Dockerfile and anything it copies. */
  dir: string;
  /** The test command used when neither config nor flags name one. */
  defaultTestCommand: string;
}

const TOOLCHAINS: Readonly<Record<string, Toolchain>> = {
  python: { name: 'python', dir: 'python', defaultTestCommand: 'python3 -m pytest -q' },
};

/** Names of every known toolchain, sorted. */
export function toolchainNames(): string[] {
  return Object.keys(TOOLCHAINS).sort();
}

/** The toolchain called `name`; USAGE error naming the known ones otherwise. */
export function getToolchain(name: string): Toolchain {
  const found = Object.hasOwn(TOOLCHAINS, name) ? TOOLCHAINS[name] : undefined;
  if (!found) {
    throw new HammerError('USAGE', `unknown toolchain "${name}"`, {
      hint: `known toolchains: ${toolchainNames().join(', ')}`,
    });
  }
  return found;
}
