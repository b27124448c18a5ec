// The hooks every attack file shares: before its tests, the CLI is built and the python toolchain
// image is there; after them, what the file registered is removed, newest first.
import { afterAll, beforeAll } from 'vitest';
import { toolchainImage } from '../../helpers/images.js';
import { requireBuiltCli } from './cli.js';
import { createScene, type Scene, type SceneOptions } from './scene.js';

/** What an attack file works with: a list of cleanups, and scenes that are cleaned up with it. */
export interface AttackFile {
  cleanups: (() => Promise<void>)[];
  /** createScene, its cleanup registered. */
  scene(opts: SceneOptions): Promise<Scene>;
}

/** Register the hooks; returns the file's cleanup list and its scene maker. */
export function attackFileHooks(): AttackFile {
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    requireBuiltCli();
    await toolchainImage('python');
  });
  afterAll(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return {
    cleanups,
    scene: async (opts) => {
      const s = await createScene(opts);
      cleanups.push(() => s.cleanup());
      return s;
    },
  };
}
