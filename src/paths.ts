// Where hammer-box's own files (configs/, images/, runner/) live, found from this module's URL, so the same
// code works from src/ (vitest), dist/ (the built CLI, a global install) and .bench/ (benchmarks).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const packageJsonSchema = z.object({ name: z.string().optional() });

function isPackageRoot(dir: string): boolean {
  const file = path.join(dir, 'package.json');
  if (!existsSync(file)) return false;
  try {
    return packageJsonSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).name === 'hammer-box';
  } catch {
    return false;
  }
}

/** The package root directory: the nearest ancestor of this module whose package.json is hammer-box's. */
export function packageRoot(from: string = fileURLToPath(new URL('.', import.meta.url))): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (isPackageRoot(dir)) return dir;
    if (path.dirname(dir) === dir) break;
  }
  // Not found (an unusual layout): this module sits two levels below the root in src/ and dist/.
  return path.resolve(from, '..', '..');
}
