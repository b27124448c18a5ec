// The image build contexts, inside the package.
import path from 'node:path';
import { packageRoot } from '../paths.js';

export { packageRoot };

/** The directory holding the image build contexts (images/<toolchain>/). */
export function imagesDir(): string {
  return path.join(packageRoot(), 'images');
}
