// The directive: a text file the user names, read with a size cap ([prompt] directive_max_bytes).
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { HammerError } from '../errors.js';

function tooLarge(where: string, bytes: number, maxBytes: number): HammerError {
  return new HammerError(
    'USAGE',
    `the directive ${where} is ${bytes} bytes, over the limit of ${maxBytes} (prompt.directive_max_bytes)`,
    { hint: 'shorten the directive, or raise prompt.directive_max_bytes with --config' },
  );
}

/** Refuse a directive text over `maxBytes` (it goes into every prompt and into the run's state). */
export function checkDirectiveSize(text: string, maxBytes: number, where: string): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) throw tooLarge(where, bytes, maxBytes);
  return text;
}

/** Read a directive file: a non-empty regular file of at most `maxBytes`, never read past the cap. */
export async function readDirective(path: string, maxBytes: number): Promise<string> {
  let text: string;
  try {
    const fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const st = await fh.stat();
      if (!st.isFile()) throw new Error('not a regular file');
      if (st.size > maxBytes) throw tooLarge(path, st.size, maxBytes);
      // one byte past the cap: a file that grew after the stat is still refused
      const buf = Buffer.alloc(maxBytes + 1);
      let n = 0;
      for (;;) {
        const { bytesRead } = await fh.read(buf, n, buf.length - n, null);
        n += bytesRead;
        if (bytesRead === 0 || n === buf.length) break;
      }
      if (n > maxBytes) throw tooLarge(path, n, maxBytes);
      text = buf.subarray(0, n).toString('utf8');
    } finally {
      await fh.close();
    }
  } catch (err) {
    if (err instanceof HammerError) throw err;
    throw new HammerError(
      'USAGE',
      `cannot read the directive file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      { hint: 'pass --directive <file> with a text file saying what to do' },
    );
  }
  if (text.trim() === '')
    throw new HammerError('USAGE', `the directive file ${path} is empty`, {
      hint: 'write what the model should do into it',
    });
  return text;
}
