// Object ids as hammer-box passes them to git: full hex only, so no argument is read as an option.
import { HammerError } from '../errors.js';

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** True for a full SHA-1 or SHA-256 object id in lower-case hex. */
export function isObjectId(value: string): boolean {
  return OBJECT_ID.test(value);
}

/** Throw INTERNAL unless `value` is a full object id. */
export function assertObjectId(value: string): void {
  if (!isObjectId(value)) throw new HammerError('INTERNAL', `not a full object id: ${JSON.stringify(value)}`);
}
