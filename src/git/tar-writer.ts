// Writing tar records (POSIX ustar, with pax records for long names) straight into a stream. The
// format is small and fixed; writing it here lets small files go out as one buffer each.
import type { Writable } from 'node:stream';

const BLOCK = 512;
const ZERO = Buffer.alloc(BLOCK * 2);

/** One entry's header fields. */
export interface TarHeader {
  name: string;
  type: 'file' | 'directory' | 'symlink';
  mode: number;
  uid: number;
  gid: number;
  size: number;
  mtime: Date;
  linkname?: string;
}

const TYPEFLAG = { file: '0', directory: '5', symlink: '2', pax: 'x' } as const;

function octal(buf: Buffer, value: number, offset: number, length: number): void {
  buf.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length, 'ascii');
}

function header(
  name: Buffer,
  type: keyof typeof TYPEFLAG,
  h: Omit<TarHeader, 'name' | 'type' | 'linkname'>,
  linkname: Buffer | undefined,
): Buffer {
  const b = Buffer.alloc(BLOCK);
  name.copy(b, 0, 0, Math.min(name.length, 100));
  octal(b, h.mode & 0o7777, 100, 8);
  octal(b, h.uid, 108, 8);
  octal(b, h.gid, 116, 8);
  octal(b, h.size, 124, 12);
  octal(b, Math.max(0, Math.floor(h.mtime.getTime() / 1000)), 136, 12);
  b.fill(0x20, 148, 156); // the checksum field counts as spaces while summing
  b.write(TYPEFLAG[type], 156, 1, 'ascii');
  if (linkname) linkname.copy(b, 157, 0, Math.min(linkname.length, 100));
  b.write('ustar\u000000', 257, 8, 'binary');
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += b[i]!;
  b.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return b;
}

function paxRecord(key: string, value: Buffer): Buffer {
  // "<len> <key>=<value>\n", where len counts the whole record including its own digits
  const rest = Buffer.concat([Buffer.from(` ${key}=`), value, Buffer.from('\n')]);
  let len = rest.length + 1;
  while (String(len).length + rest.length !== len) len = String(len).length + rest.length;
  return Buffer.concat([Buffer.from(String(len)), rest]);
}

/** The bytes of an entry's header: a pax record first when the name or link target is too long for ustar. */
export function encodeHeader(h: TarHeader): Buffer {
  const name = Buffer.from(h.name, 'utf8');
  const link = h.linkname === undefined ? undefined : Buffer.from(h.linkname, 'utf8');
  const records: Buffer[] = [];
  if (name.length > 100) records.push(paxRecord('path', name));
  if (link && link.length > 100) records.push(paxRecord('linkpath', link));
  const main = header(name, h.type, h, link);
  if (records.length === 0) return main;
  const body = Buffer.concat(records);
  const pax = header(Buffer.from('PaxHeader', 'ascii'), 'pax', { ...h, mode: 0o644, size: body.length }, undefined);
  return Buffer.concat([pax, body, padding(body.length), main]);
}

/** Zero bytes that fill a body of `size` bytes to a whole block. */
export function padding(size: number): Buffer {
  const rest = size % BLOCK;
  return rest === 0 ? ZERO.subarray(0, 0) : ZERO.subarray(0, BLOCK - rest);
}

/** The two zero blocks that end an archive. */
export const END_OF_ARCHIVE = ZERO;

/** Write to a stream, waiting for 'drain' when its buffer is full (rejecting if it closes first). */
export async function writeOut(out: Writable, chunk: Buffer): Promise<void> {
  if (out.destroyed) throw new Error('the archive stream was closed');
  if (out.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const cleanup = (): void => {
      out.off('drain', onDrain);
      out.off('close', onClose);
      out.off('error', onError);
    };
    const onDrain = (): void => (cleanup(), resolve());
    const onClose = (): void => (cleanup(), reject(new Error('the archive stream was closed')));
    const onError = (err: Error): void => (cleanup(), reject(err));
    out.on('drain', onDrain);
    out.on('close', onClose);
    out.on('error', onError);
  });
}
