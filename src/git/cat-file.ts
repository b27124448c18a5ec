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

/**
 * What `catFileParsed` hands over, synchronously, as the bytes arrive: an object's header (answer
 * 'whole' to get its body as one buffer, 'stream' to get it piece by piece), then its body, then done.
 */
export interface BatchHandlers {
  object(index: number, header: ObjectHeader): 'whole' | 'stream';
  /** A piece of a streamed body (a view into git's output: copy it to keep it past `afterChunk`). */
  piece(chunk: Buffer): void;
  /** The body of an object answered 'whole'. */
  whole(body: Buffer): void;
  /** The end of the current object. */
  done(header: ObjectHeader): void;
  /** An object git does not have (or an ambiguous name); without this handler it is GIT_FAILED. */
  missing?(index: number, line: string): void;
}

/**
 * Read the objects `oids` (full ids) through one `git cat-file --batch`, parsing its output in place:
 * no wait per object, no copy of a streamed body. `afterChunk` runs after each chunk of git's output
 * is parsed (write out what the handlers gathered; awaiting it paces git). A missing object is GIT_FAILED.
 */
export async function catFileParsed(
  oids: readonly string[],
  opts: GitOptions,
  handlers: BatchHandlers,
  afterChunk: () => void | Promise<void>,
): Promise<void> {
  for (const oid of oids) assertObjectId(oid);
  if (oids.length === 0) return;
  const git = streamGit(['cat-file', '--batch', '--buffer'], { ...opts, input: oids.join('\n') + '\n' }, true);
  const parser = new BatchParser(oids.length, handlers);
  let complete = false;
  try {
    for (let chunk = await git.reader.chunk(); chunk !== null; chunk = await git.reader.chunk()) {
      parser.push(chunk);
      await afterChunk();
    }
    if (!parser.complete()) throw new HammerError('GIT_FAILED', 'git cat-file ended early');
    complete = true;
  } catch (err) {
    if (opts.signal?.aborted) throw abortError(opts.signal, 'git cat-file');
    throw err;
  } finally {
    if (complete) await git.finish();
    else await git.stop();
  }
}

/** The state machine under catFileParsed: header line, body, the LF after it; object after object. */
export class BatchParser {
  private state: 'header' | 'body' | 'lf' = 'header';
  private index = 0;
  private line: Buffer[] = [];
  private left = 0;
  private gathered: Buffer[] | null = null;
  private current: ObjectHeader | undefined;

  constructor(
    private readonly count: number,
    private readonly handlers: BatchHandlers,
  ) {}

  complete(): boolean {
    return this.index === this.count && this.state === 'header' && this.line.length === 0;
  }

  push(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length) {
      if (this.state === 'header') {
        if (this.index >= this.count) throw new HammerError('GIT_FAILED', 'git cat-file printed more than asked for');
        const lf = chunk.indexOf(10, pos);
        if (lf < 0) {
          this.line.push(chunk.subarray(pos));
          if (this.line.reduce((n, b) => n + b.length, 0) > 4096)
            throw new HammerError('GIT_FAILED', 'git cat-file printed an overlong header line');
          return;
        }
        this.line.push(chunk.subarray(pos, lf));
        const text = Buffer.concat(this.line).toString('latin1');
        this.line = [];
        pos = lf + 1;
        if (this.handlers.missing && / (missing|ambiguous)$/.test(text)) {
          // no body follows, and no LF after it
          this.handlers.missing(this.index, text);
          this.index++;
          continue;
        }
        const header = parseHeader(text);
        this.current = header;
        this.gathered = this.handlers.object(this.index, header) === 'whole' ? [] : null;
        this.left = header.size;
        this.state = 'body';
      }
      if (this.state === 'body') {
        const take = Math.min(this.left, chunk.length - pos);
        if (take > 0) {
          const piece = chunk.subarray(pos, pos + take);
          if (this.gathered) this.gathered.push(piece);
          else this.handlers.piece(piece);
          this.left -= take;
          pos += take;
        }
        if (this.left > 0) return;
        if (this.gathered) this.handlers.whole(Buffer.concat(this.gathered));
        this.gathered = null;
        this.handlers.done(this.current!);
        this.state = 'lf';
        if (pos >= chunk.length) return;
      }
      // the LF after each object
      if (chunk[pos] !== 10) throw new HammerError('GIT_FAILED', 'git cat-file output is out of step');
      pos++;
      this.index++;
      this.state = 'header';
    }
  }
}

function parseHeader(line: string): ObjectHeader {
  const [oid = '', type = '', size = ''] = line.split(' ');
  if (type === 'missing' || type === 'ambiguous' || !/^\d+$/.test(size)) {
    throw new HammerError('GIT_FAILED', `git cat-file could not read object ${oid}: ${line}`);
  }
  return { oid, type, size: Number(size) };
}
