// check() results shared by the HTTP providers.
import { type ServerInfo, describeFailure } from './describe-failure.js';
import type { ModelCheck } from './types.js';

/** check() for a server that did not answer. */
export function unreachableCheck(server: ServerInfo, error: unknown, timedOut: boolean): ModelCheck {
  if (timedOut) {
    return {
      reachable: false,
      modelPresent: false,
      detail: `${server.label} at ${server.url} did not answer in time; ${server.unreachableHint}`,
    };
  }
  const described = describeFailure(server, { kind: 'net', error, afterHeaders: false, tokens: 0 }).error;
  return {
    reachable: false,
    modelPresent: false,
    detail: described.hint ? `${described.message}; ${described.hint}` : described.message,
  };
}
