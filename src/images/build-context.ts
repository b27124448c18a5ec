// A toolchain's build context read once into memory: the same bytes are hashed for the tag and
// packed into the tar sent to the engine, so the tag always describes exactly what was built.
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import { HammerError } from '../errors.js';

/** One regular file of a build context. `mode` is normalised to 0o755 (executable) or 0o644. */
export interface ContextFile {
  /** Path relative to the context root, '/'-separated. */
  path: string;
  mode: number;
  content: Buffer;
}

/** Normalise permission bits so a checkout's umask does not change the hash: only the x bit counts. */
export function normaliseMode(mode: number): number {
  return mode & 0o111 ? 0o755 : 0o644;
}

/** Read every regular file under `dir`, sorted by path. Symlinks and special files are refused. */
export async function readBuildContext(dir: string): Promise<ContextFile[]> {
  const files: ContextFile[] = [];
  async function walk(rel: string): Promise<void> {
    const entries = await readdir(path.join(dir, rel));
    for (const name of entries) {
      const relPath = rel === '' ? name : `${rel}/${name}`;
      const abs = path.join(dir, relPath);
      const st = await lstat(abs);
      if (st.isDirectory()) await walk(relPath);
      else if (st.isFile()) files.push({ path: relPath, mode: normaliseMode(st.mode), content: await readFile(abs) });
      else {
        throw new HammerError(
          'IMAGE_BUILD_FAILED',
          `build context ${dir} holds ${relPath}, which is not a regular file`,
          {
            hint: 'image build contexts may hold only regular files and directories',
          },
        );
      }
    }
  }
  try {
    await walk('');
  } catch (err) {
    if (err instanceof HammerError) throw err;
    throw new HammerError('IMAGE_BUILD_FAILED', `cannot read the build context ${dir}`, { cause: err });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A tar stream of the files with fixed owner and mtime, ready for docker.buildImage. */
export function packBuildContext(files: readonly ContextFile[]): Readable {
  const pack = tar.pack();
  for (const file of files) {
    pack.entry(
      { name: file.path, mode: file.mode, size: file.content.length, mtime: new Date(0), uid: 0, gid: 0, type: 'file' },
      file.content,
    );
  }
  pack.finalize();
  // tar-stream packs are streamx streams; dockerode wants a Node stream.
  return Readable.from(pack, { objectMode: false });
}
