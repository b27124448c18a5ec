// Reading many objects through one `git cat-file --batch` process, streaming each object's bytes.
import { abortError, HammerError } from '../errors.js';
import type { GitOptions } from './git-exec.js';
import { streamGit } from './git-stream.js';
import { assertObjectId } from './object-id.js';

/** The header cat-file prints for an object. */
export interface ObjectHeader {
  oid: string;
  type: string;
  size: number;
}

/** Called once per requested object, in order; `body` streams its bytes to a sink (call it at most once). */
export type ObjectHandler = (
  index: number,
  header: ObjectHeader,
  body: (sink: (chunk: Buffer) => void | Promise<void>) => Promise<void>,
) => Promise<void>;

/** Stream the objects `oids` (full ids) through `handle`; a missing object is GIT_FAILED. */
export async function catFileBatch(oids: readonly string[], opts: GitOptions, handle: ObjectHandler): Promise<void> {
  for (const oid of oids) assertObjectId(oid);
  if (oids.length === 0) return;
  const git = streamGit(['cat-file', '--batch', '--buffer'], opts);
  let complete = false;
  try {
    git.stdin.end(oids.join('\n') + '\n');
    for (let i = 0; i < oids.length; i++) {
      const line = await git.reader.readUntil(10);
      if (line === null) throw new HammerError('GIT_FAILED', 'git cat-file ended early');
      const header = parseHeader(line.toString('latin1'));
      let consumed = false;
      const body = async (sink: (chunk: Buffer) => void | Promise<void>): Promise<void> => {
        if (consumed) throw new HammerError('INTERNAL', 'object body read twice');
        consumed = true;
        await git.reader.readExact(header.size, sink);
      };
      await handle(i, header, body);
      if (!consumed) await body(() => undefined);
      await git.reader.readExact(1, () => undefined); // the LF after each object
    }
    complete = true;
  } catch (err) {
    // an abort stops the process: what reads as an early end is the abort
    if (opts.signal?.aborted) throw abortError(opts.signal, 'git cat-file');
    throw err;
  } finally {
    if (complete) await git.finish();
    else await git.stop();
  }
}

function parseHeader(line: string): ObjectHeader {
  const [oid = '', type = '', size = ''] = line.split(' ');
  if (type === 'missing' || type === 'ambiguous' || !/^\d+$/.test(size)) {
    throw new HammerError('GIT_FAILED', `git cat-file could not read object ${oid}: ${line}`);
  }
  return { oid, type, size: Number(size) };
}
