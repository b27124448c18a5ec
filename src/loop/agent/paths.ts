// The paths an agent's edit names, as the model wrote them, made repository-relative (pure).
import { posix } from 'node:path';

/** Where the repository is inside the sandbox (absolute paths are accepted under it). */
export const AGENT_WORKSPACE = '/workspace';

/** The most characters of a path the editor takes. */
const MAX_PATH_CHARS = 4096;

/** A path the editor may work on (relative to the repository root), or why it may not. */
export type ResolvedPath = { ok: true; path: string } | { ok: false; reason: string };

/**
 * Resolve a path the model wrote: relative to the repository root, or absolute under /workspace.
 * Refused: outside the repository, the root itself, anything inside .git, control characters.
 */
export function resolveAgentPath(raw: string): ResolvedPath {
  const p = raw.trim();
  if (p === '') return refuse('no path was given');
  if (p.length > MAX_PATH_CHARS) return refuse(`the path is longer than ${MAX_PATH_CHARS} characters`);
  if (/[\u0000-\u001f\u007f]/.test(p)) return refuse('the path holds control characters');
  let rel = p;
  if (p.startsWith('/')) {
    const norm = posix.normalize(p);
    if (norm !== AGENT_WORKSPACE && !norm.startsWith(`${AGENT_WORKSPACE}/`))
      return refuse(`${p} is outside the repository (${AGENT_WORKSPACE}); paths are relative to the repository root`);
    rel = norm.slice(AGENT_WORKSPACE.length + 1);
  }
  const norm = posix.normalize(rel === '' ? '.' : rel).replace(/\/+$/, '');
  if (norm === '..' || norm.startsWith('../'))
    return refuse(`${p} is outside the repository; paths are relative to the repository root`);
  if (norm === '.' || norm === '') return refuse('the repository root is a directory, not a file');
  if (norm.split('/').some((s) => s.toLowerCase() === '.git'))
    return refuse(`${p} is inside .git: the repository's git data is not edited`);
  return { ok: true, path: norm };
}

function refuse(reason: string): ResolvedPath {
  return { ok: false, reason };
}
