// Symlinks whose relative target climbs out of the repository. They point at nothing inside the
// sandbox, and Docker refuses to extract them at all ("invalid symlink"), which would stop every
// run of a repository that holds one.
import { posix } from 'node:path';

/** True when a relative `target` of the link at repo path `path` resolves outside the repo root. */
export function linkEscapesRoot(path: string, target: string): boolean {
  if (target.startsWith('/')) return false; // absolute: resolved inside the container, never the host
  const resolved = posix.normalize(posix.join(posix.dirname(path), target));
  return resolved === '..' || resolved.startsWith('../');
}
