// Files tools write beside their own packages, which the env image holds read-only: each is made a
// symlink into the sandbox's /tmp (a tmpfs of the sandbox's own, gone with it), so the tool writes
// there and the image stays shared and unchanged. Vite bundles a vite.config.ts into
// node_modules/.vite-temp and imports it from there (so its imports resolve to node_modules): the
// image's node_modules/.vite-temp is a link to /tmp, from where /node_modules is found the same way. The caches other tools keep are writable already:
// pytest's .pytest_cache and Vite's node_modules/.vite go in the workspace; Jest's cache, go's
// GOCACHE and cargo's target directory in the tests' TMPDIR, /tmp or the workspace; Python writes
// no __pycache__ (PYTHONDONTWRITEBYTECODE). Pure.
import { createHash } from 'node:crypto';
import { posix } from 'node:path';

/** A file a tool writes in its own package directory, named by the directory and the file's name. */
interface WrittenBeside {
  /** The package directory, as the last parts of its path inside the carried directory. */
  dir: RegExp;
  file: string;
  /** Who writes it, for the comment. */
  tool: string;
}

const WRITTEN_BESIDE: readonly WrittenBeside[] = [
  // `vitest --typecheck` runs tsc with --incremental --tsBuildInfoFile <vitest's dist>/tsconfig.tmp.tsbuildinfo
  {
    dir: /(^|\/)node_modules\/vitest\/dist$|^vitest\/dist$/,
    file: 'tsconfig.tmp.tsbuildinfo',
    tool: 'vitest --typecheck',
  },
];

/**
 * The symlinks to add for a directory carried into the image (`rel`, relative to the carried
 * directory): each file a tool writes there, pointing at a file of its own in /tmp.
 */
export function cacheRedirects(rel: string): { path: string; target: string }[] {
  return WRITTEN_BESIDE.filter((w) => w.dir.test(rel)).map((w) => ({
    path: `${rel}/${w.file}`,
    target: `/tmp/hammer-${createHash('sha256').update(rel).digest('hex').slice(0, 12)}-${w.file}`,
  }));
}

/** The symlinks to add at the top of a carried directory (`to`, its place in the image): Vite's .vite-temp in a node_modules. */
export function rootRedirects(to: string): { path: string; target: string }[] {
  return posix.basename(to) === 'node_modules' ? [{ path: '.vite-temp', target: '/tmp' }] : [];
}
