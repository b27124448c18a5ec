// The identity of a patch, for loop detection.
import { createHash } from 'node:crypto';

/**
 * sha256 (hex) of a patch after normalising: CRLF to LF, trailing spaces and tabs removed at every
 * line end, trailing blank lines dropped. Two answers that differ only in invisible trailing
 * whitespace are the same patch: the model repeating itself, which is what the hash is for.
 */
export function patchHash(patch: string): string {
  const normalised = patch
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n+$/, '');
  return createHash('sha256').update(`${normalised}\n`, 'utf8').digest('hex');
}
