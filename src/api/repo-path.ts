// The path a command was given for a repository (or a directory of runs): there, and a directory.
import { stat } from 'node:fs/promises';
import { HammerError } from '../errors.js';

/** REPO_INVALID saying whether `path` does not exist or is not a directory (with `hint`). */
export async function assertDirectory(path: string, hint: string): Promise<void> {
  const found = await stat(path).catch((err: NodeJS.ErrnoException) => err);
  if (!(found instanceof Error) && found.isDirectory()) return;
  const why = found instanceof Error && found.code === 'ENOENT' ? 'does not exist' : 'is not a directory';
  throw new HammerError('REPO_INVALID', `${path} ${why}`, { hint });
}
