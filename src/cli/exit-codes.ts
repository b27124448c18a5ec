// The one place that maps error codes to exit codes (a run's outcome has its own, in src/verdict).
import type { ErrorCode } from '../errors.js';
import { OUTCOME_RULES } from '../verdict/index.js';

/**
 * Exit codes: 0 stable, 1 failed (or an internal error), 2 usage/config, 3 environment unavailable,
 * 4 partial, 5 untested, 6 unknown, 130 interrupted (the outcomes' from OUTCOME_RULES).
 */
export const EXIT = {
  stable: OUTCOME_RULES.stable.exitCode,
  notPassing: OUTCOME_RULES.failed.exitCode,
  usage: 2,
  environment: 3,
  partial: OUTCOME_RULES.partial.exitCode,
  untested: OUTCOME_RULES.untested.exitCode,
  unknown: OUTCOME_RULES.unknown.exitCode,
  interrupted: OUTCOME_RULES.interrupted.exitCode,
} as const;

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
