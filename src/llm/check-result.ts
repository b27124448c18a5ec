// check() results shared by the HTTP providers.
import { HammerError } from '../errors.js';
import { type ServerInfo, describeFailure } from './describe-failure.js';
import type { ModelCheck } from './types.js';

/** check() for a server that did not answer. */
export function unreachableCheck(server: ServerInfo, error: unknown, timedOut: boolean): ModelCheck {
  if (timedOut) {
    const message = `${server.label} at ${server.url} did not answer in time`;
    return {
      reachable: false,
      modelPresent: false,
      detail: `${message}; ${server.unreachableHint}`,
      error: new HammerError('MODEL_UNREACHABLE', message, { hint: server.unreachableHint }),
    };
  }
  const described = describeFailure(server, { kind: 'net', error, afterHeaders: false, tokens: 0 }).error;
  return {
    reachable: false,
    modelPresent: false,
    detail: described.hint ? `${described.message}; ${described.hint}` : described.message,
    error: described,
  };
}
