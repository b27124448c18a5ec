// The numeric "uid:gid" a sandbox runs as, parsed and checked (never root).
import { HammerError } from '../errors.js';

/** A parsed non-root user. */
export interface SandboxUser {
  uid: number;
  gid: number;
}

/**
 * The user that owns the container's idle keeper process (PID 1's child). It differs from the sandbox
 * user on purpose: `kill -KILL -1` run as the sandbox user then kills every sandbox process but can
 * never signal the keeper, so the container survives a kill of the whole process tree.
 */
export const KEEPER_USER = '65534:65534';

/** Parse "uid:gid" (numeric, uid not 0); throws INTERNAL on a malformed or root user. */
export function parseSandboxUser(user: string): SandboxUser {
  const m = /^(\d{1,10}):(\d{1,10})$/.exec(user);
  const uid = Number(m?.[1]);
  const gid = Number(m?.[2]);
  if (!m || !Number.isSafeInteger(uid) || !Number.isSafeInteger(gid) || uid > 0xfffffffe || gid > 0xfffffffe) {
    throw new HammerError('INTERNAL', `sandbox user must be numeric "uid:gid", got ${JSON.stringify(user)}`);
  }
  if (uid === 0) throw new HammerError('INTERNAL', 'the sandbox never runs as root (uid 0)');
  return { uid, gid };
}
