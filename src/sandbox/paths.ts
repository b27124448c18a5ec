// Paths inside the sandbox: checked so nothing we write or read can name a place outside the workspace.
import { posix } from 'node:path';
import { HammerError } from '../errors.js';
import { WORKDIR } from './hardening.js';

/** A relative path with no `..`, no empty or `.` segments and no NUL; throws INTERNAL otherwise. */
export function safeRelativePath(p: string): string {
  const segments = p.split('/');
  if (p === '' || p.startsWith('/') || p.includes('\0') || segments.some((s) => s === '..' || s === '' || s === '.')) {
    throw new HammerError(
      'INTERNAL',
      `refused path ${JSON.stringify(p)}: must be relative, without '..' or empty segments`,
    );
  }
  return p;
}

/** An absolute path at or under the workspace, normalized; returns it relative to the workspace ('' for the root). */
export function workspaceRelative(p: string): string {
  const norm = posix.normalize(p);
  if (
    !p.startsWith('/') ||
    p.includes('\0') ||
    p.split('/').includes('..') ||
    !(norm === WORKDIR || norm.startsWith(`${WORKDIR}/`))
  ) {
    throw new HammerError('INTERNAL', `refused path ${JSON.stringify(p)}: must be absolute and inside ${WORKDIR}`);
  }
  return norm === WORKDIR ? '' : norm.slice(WORKDIR.length + 1).replace(/\/+$/, '');
}
