// The content address of a toolchain image: what built it, and nothing else (no mtimes, no order).
import { createHash } from 'node:crypto';
import type { ContextFile } from './build-context.js';

/** Everything that determines a toolchain image. */
export interface ImageInputs {
  files: readonly ContextFile[];
  buildArgs: Readonly<Record<string, string>>;
  /** The base image's id (sha256:...), so a rebuilt base gives new toolchain tags. */
  baseImageId: string;
  /** Registry packages ("name@version") added to the context: the registry never changes a published version. */
  fetched?: readonly string[];
}

/** Length of the hex hash used in tags. */
export const TAG_HASH_LENGTH = 12;

/** The 12-hex-digit content hash of an image's inputs: stable across file order, mtimes and umask. */
export function hashImageInputs(inputs: ImageInputs): string {
  const h = createHash('sha256');
  // Length-prefixed fields, so no two different inputs serialise to the same bytes.
  const field = (value: string | Buffer): void => {
    const buf = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
    h.update(`${buf.length}:`);
    h.update(buf);
  };
  field('hammer-box-image/v1');
  field(inputs.baseImageId);
  const args = Object.keys(inputs.buildArgs).sort();
  field(String(args.length));
  for (const key of args) {
    field(key);
    field(inputs.buildArgs[key] ?? '');
  }
  const files = [...inputs.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  field(String(files.length));
  for (const file of files) {
    field(file.path);
    field((file.mode & 0o777).toString(8));
    field(file.content);
  }
  // absent for images without fetched packages, so their tags stay what they were
  if (inputs.fetched && inputs.fetched.length > 0) {
    field('fetched');
    field(String(inputs.fetched.length));
    for (const f of [...inputs.fetched].sort()) field(f);
  }
  return h.digest('hex').slice(0, TAG_HASH_LENGTH);
}
