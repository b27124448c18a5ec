// The registry of toolchains hammer-box can build an image for: where its build context lives,
// how its tests run by default, and which files of a repository mark it.
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
  go: { name: 'go', dir: 'go', defaultTestCommand: 'go test ./...' },
  node: { name: 'node', dir: 'node', defaultTestCommand: 'npm test' },
  python: { name: 'python', dir: 'python', defaultTestCommand: 'python3 -m pytest -q' },
  rust: { name: 'rust', dir: 'rust', defaultTestCommand: 'cargo test' },
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
