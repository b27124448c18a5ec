// Tar streams to and from a sandbox: build one for files we place, and read one file out of the
// engine's archive answer (untrusted: one regular file, named as asked, within a byte cap).
import type { Readable } from 'node:stream';
import * as tar from 'tar-stream';
import { HammerError } from '../errors.js';
import { safeRelativePath } from './paths.js';
import type { SandboxFile } from './types.js';
import type { SandboxUser } from './user.js';

/** A tar of `files` under `prefix` (relative to the extraction root), parent directories included, owned by `owner`. */
export async function packFiles(prefix: string, files: SandboxFile[], owner: SandboxUser): Promise<Buffer> {
  const pack = tar.pack();
  const dirs = new Set<string>();
  const base = prefix === '' ? [] : safeRelativePath(prefix).split('/');
  const mtime = new Date();
  const addDirs = (segments: string[]): void => {
    for (let i = 1; i <= segments.length; i++) {
      const d = segments.slice(0, i).join('/');
      if (dirs.has(d)) continue;
      dirs.add(d);
      pack.entry({ name: `${d}/`, type: 'directory', mode: 0o755, uid: owner.uid, gid: owner.gid, mtime });
    }
  };
  const collected = collect(pack);
  for (const file of files) {
    const segments = [...base, ...safeRelativePath(file.path).split('/')];
    addDirs(segments.slice(0, -1));
    const content = typeof file.content === 'string' ? Buffer.from(file.content) : file.content;
    pack.entry(
      {
        name: segments.join('/'),
        type: 'file',
        mode: (file.mode ?? 0o644) & 0o777,
        uid: owner.uid,
        gid: owner.gid,
        mtime,
        size: content.length,
      },
      content,
    );
  }
  pack.finalize();
  return collected;
}

async function collect(stream: tar.Pack): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) if (Buffer.isBuffer(chunk)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Read the single regular file `name` from an archive stream; anything else (or more than maxBytes) is refused. */
export async function readSingleFile(source: Readable, name: string, maxBytes: number): Promise<Buffer> {
  const extract = tar.extract();
  const refuse = (why: string): HammerError =>
    new HammerError('SANDBOX_BROKEN', `refused to read ${name} from the sandbox: ${why}`);
  source.on('error', (err) => extract.destroy(err));
  source.pipe(extract);
  let content: Buffer | undefined;
  try {
    for await (const entry of extract) {
      const h = entry.header;
      if (content !== undefined) throw refuse('the archive holds more than one entry');
      if (h.type !== 'file') throw refuse(`it is a ${h.type ?? 'non-regular file'}, not a regular file`);
      if (h.name !== name) throw refuse(`the archive names ${JSON.stringify(h.name)}`);
      if ((h.size ?? 0) > maxBytes) throw refuse(`${h.size ?? 0} bytes is over the ${maxBytes}-byte cap`);
      const chunks: Buffer[] = [];
      let bytes = 0;
      for await (const chunk of entry) {
        bytes += (chunk as Buffer).length;
        if (bytes > maxBytes) throw refuse(`more than the ${maxBytes}-byte cap`);
        chunks.push(chunk as Buffer);
      }
      content = Buffer.concat(chunks);
    }
  } catch (err) {
    source.destroy();
    extract.destroy();
    if (err instanceof HammerError) throw err;
    throw refuse(`unreadable archive (${err instanceof Error ? err.message : String(err)})`);
  }
  if (content === undefined) throw refuse('the archive is empty');
  return content;
}
