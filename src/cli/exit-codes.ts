// The one place that maps error codes to exit codes.
import type { ErrorCode } from '../errors.js';

/** Exit codes: 0 stable, 1 ended without passing tests, 2 usage/config, 3 environment unavailable, 130 interrupted. */
export const EXIT = { stable: 0, notPassing: 1, usage: 2, environment: 3, interrupted: 130 } as const;

const BY_CODE: Record<ErrorCode, number> = {
  USAGE: EXIT.usage,
  CONFIG_INVALID: EXIT.usage,
  REPO_INVALID: EXIT.usage,
  STATE_INVALID: EXIT.usage,
  RUN_NOT_FOUND: EXIT.usage,
  ENGINE_UNAVAILABLE: EXIT.environment,
  IMAGE_MISSING: EXIT.environment,
  IMAGE_BUILD_FAILED: EXIT.environment,
  IMAGE_CONTRACT: EXIT.environment,
  IMAGE_IMPORT: EXIT.environment,
  TOOLCHAIN_UNAVAILABLE: EXIT.environment,
  SANDBOX_HARDENING: EXIT.environment,
  SANDBOX_BROKEN: EXIT.environment,
  SANDBOX_PIDS_FULL: EXIT.environment,
  SANDBOX_NETWORK_UNPROVEN: EXIT.environment,
  SANDBOX_IMAGE_PULL: EXIT.environment,
  SANDBOX_UNSCHEDULABLE: EXIT.environment,
  SANDBOX_QUOTA: EXIT.environment,
  SANDBOX_FORBIDDEN: EXIT.environment,
  MODEL_UNREACHABLE: EXIT.environment,
  MODEL_NOT_FOUND: EXIT.environment,
  MODEL_ERROR: EXIT.environment,
  MODEL_TIMEOUT: EXIT.environment,
  SETUP_FAILED: EXIT.environment,
  STATE_UNWRITABLE: EXIT.environment,
  PUSH_FAILED: EXIT.environment,
  FORGE_UNAVAILABLE: EXIT.environment,
  PR_FAILED: EXIT.environment,
  ABORTED: EXIT.interrupted,
  GIT_FAILED: EXIT.notPassing,
  INTERNAL: EXIT.notPassing,
};

/** The exit code for an error code. */
export function exitCodeFor(code: ErrorCode): number {
  return BY_CODE[code];
}
