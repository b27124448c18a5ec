// Image benchmarks: the cost of asking for an unchanged toolchain image (hash the context, inspect
// the tag; never a rebuild), and the size of each hammer-box image. Nothing is built or removed here
// beyond what `make images` already made.
import { bootstrapBase, ensureToolchainImage, listImages, planToolchainImage, toolchainNames } from '../src/images/index.js';
import { createDockerClient } from '../src/sandbox/index.js';
import { heading, printFigure, sample } from './lib.js';

const mb = (bytes: number): string => `${(bytes / 1024 ** 2).toFixed(0)} MB`;

/** Print the image figures. */
export async function benchImages(): Promise<void> {
  const docker = createDockerClient();
  heading('images');
  await bootstrapBase(docker);
  for (const name of toolchainNames()) {
    const first = await ensureToolchainImage(docker, name);
    printFigure({
      name: `plan ${name} image (read + hash build context)`,
      samples: await sample(20, () => planToolchainImage(docker, name)),
    });
    printFigure({
      name: `ensure unchanged ${name} image (${first.built ? 'built just now' : 'cached'})`,
      samples: await sample(20, async () => {
        const again = await ensureToolchainImage(docker, name);
        if (again.built) throw new Error(`${name} was rebuilt although unchanged`);
      }),
    });
  }
  for (const image of await listImages(docker)) {
    process.stdout.write(`${'image size'.padEnd(12)} ${image.tag.padEnd(40)} ${mb(image.sizeBytes).padStart(8)}  (${image.toolchain})\n`);
  }
}
