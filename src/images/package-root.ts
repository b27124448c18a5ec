// Where hammer-box's own files (images/, runner/) live, found from this module's URL so the same
// code works from src/ (vitest, tsx) and from dist/ (the built CLI): both sit two levels below the root.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The package root directory (the one holding package.json, images/ and runner/). */
export function packageRoot(): string {
  return path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
}

/** The directory holding the image build contexts (images/<toolchain>/). */
export function imagesDir(): string {
  return path.join(packageRoot(), 'images');
}
