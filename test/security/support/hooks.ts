// The hooks every attack file shares: before its tests, the CLI is built and the python toolchain
// image is there; after them, what the file registered is removed, newest first.
import { afterAll, beforeAll } from 'vitest';
import { toolchainImage } from '../../helpers/images.js';
import { requireBuiltCli } from './cli.js';

/** Register the hooks and return the list the file pushes its cleanups to. */
export function attackFileHooks(): (() => Promise<void>)[] {
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    requireBuiltCli();
    await toolchainImage('python');
  });
  afterAll(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return cleanups;
}
