// Turning any thrown value into a message for the terminal and an exit code.
import { HammerError } from '../errors.js';
import { sanitizeText } from '../text/sanitize.js';
import { EXIT, exitCodeFor } from './exit-codes.js';

/**
 * Message lines and exit code for an error; unknown errors are reported as internal (exit 1). A
 * typed error is its one-line message and hint; its cause is added when it says something more in
 * one line, and a cause of many lines (a client library's raw answer: status, body, headers) only
 * with `verbose`.
 */
export function renderError(
  err: unknown,
  options: { verbose?: boolean } = {},
): { text: string; exitCode: number; code: string } {
  if (err instanceof HammerError) {
    const lines = [`hammer-box: error [${err.code}]: ${err.message}`];
    if (err.hint) lines.push(`  what to do: ${err.hint}`);
    const cause = err.cause instanceof Error ? err.cause.message.trim() : undefined;
    if (cause && !err.message.includes(cause)) {
      if (!cause.includes('\n')) lines.push(`  cause: ${cause}`);
      else if (options.verbose) lines.push('  cause:', ...cause.split('\n').map((l) => `    ${l}`));
    }
    return { text: sanitizeText(lines.join('\n')), exitCode: exitCodeFor(err.code), code: err.code };
  }
  const e = err instanceof Error ? err : new Error(String(err));
  return {
    text: sanitizeText(
      `hammer-box: internal error: ${e.stack ?? e.message}\n  please report this with the run's events.ndjson`,
    ),
    exitCode: EXIT.notPassing,
    code: 'INTERNAL',
  };
}

/** The --json document of an error: its code, message, hint and exit code, and the run it ended when it had a state file. */
export function errorJson(err: unknown, exitCode: number): Record<string, unknown> {
  const e = err instanceof HammerError ? err : null;
  return {
    error: {
      code: e?.code ?? 'INTERNAL',
      message: sanitizeText(err instanceof Error ? err.message : String(err)),
      hint: e?.hint === undefined || e === null ? null : sanitizeText(e.hint),
      exit_code: exitCode,
    },
    run_id: e?.run?.id ?? null,
    state_path: e?.run?.statePath ?? null,
  };
}
